import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";

import { parse } from "@humanwhocodes/momoa";

import type { EntryCollector } from "./entry.js";
import { defined } from "../errors.js";

type Node = ReturnType<typeof parse>["body"];

/**
 * Reads a JSON array of `{ "address": "0x…", "score": "123" }` (a score may
 * also be a JSON integer; its source text is used, so large values keep every
 * digit). Problems name the element's line. The file is read whole: for stages
 * of hundreds of thousands of addresses, CSV streams with far less memory.
 * Returns the file's SHA-256.
 */
export async function collectJson(
  file: string,
  collector: EntryCollector,
): Promise<string> {
  const bytes = await readFile(file);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const text = bytes.toString("utf8");
  let body: Node;
  try {
    body = parse(text, { ranges: true }).body;
  } catch (error) {
    // momoa's errors say on which line the text broke.
    const line =
      error instanceof Error &&
      "line" in error &&
      typeof error.line === "number"
        ? error.line
        : 1;
    collector.problem(
      line,
      `is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
    return sha256;
  }
  if (body.type !== "Array") {
    collector.problem(
      body.loc.start.line,
      'the file must be a JSON array of {"address", "score"} objects',
    );
    return sha256;
  }
  for (const element of body.elements) {
    const node = element.value;
    const line = node.loc.start.line;
    if (node.type !== "Object") {
      collector.problem(
        line,
        'each element must be an object with "address" and "score"',
      );
      continue;
    }
    const field = (name: string) =>
      node.members.find(
        (m) => m.name.type === "String" && m.name.value === name,
      )?.value;
    const address = field("address");
    const score = field("score");
    if (address === undefined || score === undefined) {
      const missing = [
        address === undefined ? "address" : "",
        score === undefined ? "score" : "",
      ].filter(Boolean);
      collector.problem(line, `the element lacks ${missing.join(", ")}`);
      continue;
    }
    if (address.type !== "String") {
      collector.problem(address.loc.start.line, "address must be a string");
      continue;
    }
    let rawScore: string;
    if (score.type === "String") rawScore = score.value;
    else if (score.type === "Number") {
      const [from, to] = defined(score.range, "parsed with ranges: true");
      rawScore = text.slice(from, to);
    } else {
      collector.problem(
        score.loc.start.line,
        "score must be a string or a whole number",
      );
      continue;
    }
    collector.add(line, address.value, rawScore);
  }
  return sha256;
}
