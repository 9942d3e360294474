import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";

import { waitFor } from "./wait.js";

/**
 * What the tests of a journalled send (tasks/contract/journalled-send.ts: a
 * finalization, an allow-list change) share: the journal as written and as a
 * killed run leaves it, and the node's automining.
 */

/** A journal line as read back from the file. */
export type JournalLine = { type: string } & Record<string, unknown>;

/** The records of the journal in `file`, in order. */
export async function journalLines(file: string): Promise<JournalLine[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as JournalLine);
}

/** Writes the journal in `file` as a run killed after its last record leaves it. */
export async function writeJournal(
  file: string,
  records: object[],
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
}

/** Hardhat's node, whose automining a test turns off. */
interface Node {
  send(method: string, params: unknown[]): Promise<unknown>;
}

/** Runs `body` with automining off: what it sends stays pending. */
export async function withAutomineOff<T>(
  node: Node,
  body: () => Promise<T>,
): Promise<T> {
  await node.send("evm_setAutomine", [false]);
  try {
    return await body();
  } finally {
    await node.send("evm_setAutomine", [true]);
  }
}

/**
 * Sends a transaction by `send` that the node then drops, unmined: the
 * transaction of a run killed after it journalled it sent, which the node has
 * forgotten since. Its hash.
 */
export async function sentAndDropped(
  node: Node,
  send: () => Promise<{ hash: string }>,
): Promise<string> {
  return withAutomineOff(node, async () => {
    const { hash } = await send();
    await node.send("hardhat_dropTransaction", [hash]);
    return hash;
  });
}

/**
 * Expects `written` to be the journal of a transaction `hash` journalled sent,
 * found gone from the node (dropped), and the call sent anew and confirmed.
 */
export function expectSentAgainAfterDrop(
  written: JournalLine[],
  hash: string,
): void {
  expect(written.map((r) => r.type)).to.deep.equal([
    "sending",
    "sent",
    "dropped",
    "sending",
    "sent",
    "confirmed",
  ]);
  expect(written[2]).to.include({
    reason: `${hash} is no longer known to the node`,
  });
  expect(written[4]?.hash).to.not.equal(hash);
}

/**
 * Expects `written` to be the journal of a `sending` with `nonce` found never
 * broadcast (dropped), and the call sent anew with that nonce and confirmed.
 */
export function expectSentAfterNeverBroadcast(
  written: JournalLine[],
  nonce: number,
): void {
  expect(written.map((r) => r.type)).to.deep.equal([
    "sending",
    "dropped",
    "sending",
    "sent",
    "confirmed",
  ]);
  expect(written[1]).to.deep.equal({
    type: "dropped",
    nonce,
    reason: "never broadcast",
  });
  expect(written[2]).to.include({ nonce });
  expect(written[3]).to.include({ nonce });
}

/**
 * Waits (bounded) until the journal at `file` records a `sent`, then has the
 * node drop that transaction, as a node that forgets it before mining does.
 * Returns its hash. Automining must be off, or it is mined first.
 */
export async function dropOnceSent(node: Node, file: string): Promise<string> {
  const sentLine = async () =>
    (await journalLines(file).catch(() => [])).find((r) => r.type === "sent");
  await waitFor(async () => (await sentLine()) !== undefined, 30_000);
  const hash = String((await sentLine())?.hash);
  await node.send("hardhat_dropTransaction", [hash]);
  return hash;
}
