import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";

import { computeStage } from "../../tasks/scoring/compute.js";
import {
  DEFAULT_POLICY_BOUNDS,
  type PolicyBounds,
} from "../../tasks/scoring/sandbox.js";
import { VipError } from "../../tasks/errors.js";
import { parsePolicy } from "../../tasks/policy/parse.js";
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
  expect: RegExp;
  bounds: PolicyBounds;
}

/** A corpus file: its policy, and the `class`, `expect` and `bounds` comments. */
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
    expect: new RegExp(comment("expect")),
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
// refused with its message, by a value (never a crash), leaving nothing
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
        hostile.bounds,
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, "refused").to.be.instanceOf(VipError);
      const message = (error as VipError).message;
      expect(message).to.match(hostile.expect);
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
