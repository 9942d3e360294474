import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";

import type { ErrorDescriptor } from "../../tasks/error-catalog.js";
import { VipError, errorCode, isVipError } from "../../tasks/errors.js";
import { parsePolicy } from "../../tasks/policy/parse.js";
import { computeStage } from "../../tasks/scoring/compute.js";
import {
  DEFAULT_POLICY_BOUNDS,
  type PolicyBounds,
} from "../../tasks/scoring/sandbox.js";
import { catalogEntry } from "../helpers/failure.js";
import {
  STAGE_BLOCKS,
  STAGE_WINDOW,
  tiedTrades,
  tradeIndex,
} from "../helpers/trade-index.js";

const CORPUS = path.join(
  import.meta.dirname,
  "..",
  "corpus",
  "hostile-policies",
);

interface HostilePolicy {
  name: string;
  text: string;
  kind: string;
  /**
   * The errors it may be refused with: one, or the two ways a bound stops a
   * policy (interrupted in the engine, or its process killed), which the
   * machine's load decides.
   */
  errors: ErrorDescriptor[];
  /** What that error's values must name: where, and what. */
  names: RegExp;
  bounds: PolicyBounds;
}

/**
 * An error's values, one a line, for `names` (which also matches the printed
 * message, where the same values stand in their places).
 */
function valuesOf(error: VipError): string {
  return Object.values(error.params as Record<string, unknown>)
    .map(String)
    .join("\n");
}

/**
 * A corpus file: its policy, and the `class`, `error`, `names` and `bounds`
 * comments.
 */
function readCase(name: string, text: string): HostilePolicy {
  const comment = (key: string) => {
    const found = new RegExp(`^-- ${key}: (.*)$`, "m").exec(text)?.[1];
    if (found === undefined) throw new Error(`${name} has no "-- ${key}:"`);
    return found;
  };
  const bounds = { ...DEFAULT_POLICY_BOUNDS, timeoutSeconds: 60 };
  for (const [, key, value] of comment("bounds").matchAll(/(\w+)=(\d+)/g))
    if (key === "timeout") bounds.timeoutSeconds = Number(value);
    else if (key === "memory") bounds.memoryMb = Number(value);
  return {
    name,
    text,
    kind: comment("class"),
    errors: comment("error").split("|").map(catalogEntry),
    names: new RegExp(comment("names")),
    bounds,
  };
}

const cases = await Promise.all(
  (await readdir(CORPUS))
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map(async (f) =>
      readCase(f, await readFile(path.join(CORPUS, f), "utf8")),
    ),
);

// A challenger runs someone else's policy: every one of these must be
// refused with its error, by a value (never a crash), leaving nothing
// behind, within the bounds it was given.
describe("hostile policies (test/corpus/hostile-policies): each refused, safely", function () {
  let index: { dir: string; file: string };
  before(async () => {
    index = await tradeIndex(tiedTrades());
  });
  after(async () => rm(index.dir, { recursive: true, force: true }));

  it("holds at least two policies of every class the issue names", () => {
    const byClass = new Map<string, number>();
    for (const c of cases) byClass.set(c.kind, (byClass.get(c.kind) ?? 0) + 1);
    expect([...byClass.keys()].sort()).to.deep.equal([
      "approximation",
      "control characters and huge values",
      "endless and memory-hungry",
      "floating point hidden",
      "metadata leaks",
      "reads beyond the sources",
      "row-order dependence",
      "row-order dependence (ties)",
      "side effects",
      "time and randomness",
    ]);
    for (const [kind, count] of byClass) expect(count, kind).to.be.at.least(2);
  });

  for (const hostile of cases)
    it(`${hostile.kind}: ${hostile.name}`, async () => {
      const policy = parsePolicy("hostile.sql", hostile.text);
      const error = await computeStage(
        index.file,
        policy,
        STAGE_WINDOW,
        STAGE_BLOCKS,
        { bounds: hostile.bounds },
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, "refused").to.be.instanceOf(VipError);
      expect(
        hostile.errors.some((expected) => isVipError(error, expected)),
        `expected ${hostile.errors.map(errorCode).join(" or ")}, got: ${String(error)}`,
      ).to.equal(true);
      const message = (error as VipError).message;
      expect(`${valuesOf(error as VipError)}\n${message}`).to.match(
        hostile.names,
      );
      // Printed safe: no control character but the tool's own line breaks,
      // no value printed whole.
      expect(message).to.not.match(
        // eslint-disable-next-line no-control-regex -- none may get through
        /[\u0000-\u0009\u000b-\u001f\u007f]/,
      );
      expect(message.length).to.be.below(6_000);
      // The run's private temporary folder is gone: nothing is left behind.
      expect(existsSync(path.join(index.dir, "tmp"))).to.equal(false);
    });
});
