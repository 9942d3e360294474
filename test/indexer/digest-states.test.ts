import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { LogColumns } from "../../tasks/indexer/decode.js";
import { RunningDigest } from "../../tasks/indexer/running-digest.js";
import { ActivityStore, logTable } from "../../tasks/indexer/store.js";
import { enginePolicy, parsePolicy } from "../../tasks/policy/parse.js";
import { digestSources } from "../../tasks/scoring/digest.js";
import { keepDigestStates } from "../../tasks/scoring/keep-digest-states.js";
import { changeIndex, queryIndex } from "../helpers/index-query.js";
import { referenceDigest } from "../helpers/reference-digest.js";

// A computation keeps each source's digest state at its last block in the
// index, and the next digest goes on from the last state at or before its
// own last block: these tests hold it to the README's one-query definition
// at every kind of end (on a state, between states, before the first),
// after a reorganization, and on an index written before states were kept.
const CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const POLICY = parsePolicy(
  "states.sql",
  `-- @policy states-test
-- @from-stage 1
-- @source trades ${CONTRACT} event Trade(address indexed trader, uint256 notional, bool long)
select trader as address, sum(notional) as score from trades group by trader
`,
);
const [SOURCE] = POLICY.sources;
const PARAMETERS = ["trader", "notional", "long"];

function source() {
  if (SOURCE === undefined) throw new Error("no source parsed");
  return SOURCE;
}

function engineSource() {
  const [engine] = enginePolicy(POLICY).sources;
  if (engine === undefined) throw new Error("no source");
  return engine;
}

/** Logs of blocks `from`..`to`: a block's count varies, some blocks have none. */
function logsOf(from: number, to: number, salt = 0): LogColumns {
  const logs = new LogColumns(3);
  for (let block = from; block <= to; block++) {
    const count = (block * 7 + salt) % 5;
    for (let log = 0; log < count; log++)
      logs.push({
        blockNumber: BigInt(block),
        blockTime: 1_000n + BigInt(block),
        txHash: `0x${(block * 100 + log + salt).toString(16).padStart(64, "0")}`,
        txIndex: log >> 1,
        logIndex: log & 1,
        values: [
          `0x${(1 + ((log + salt) % 4)).toString(16).padStart(40, "0")}`,
          10n ** 25n + BigInt(block * log + salt),
          (block + log) % 2 === 0,
        ],
      });
  }
  return logs;
}

/** Stores ranges, one commit each, as `scores:index` commits them. */
async function storeRanges(
  file: string,
  ranges: { from: number; to: number; salt?: number }[],
): Promise<void> {
  const store = await ActivityStore.open(file);
  try {
    await store.ensureSource(source());
    for (const { from, to, salt } of ranges) {
      await store.begin();
      await store.storeRange(
        [source()],
        BigInt(to),
        new Map([[source().id, logsOf(from, to, salt)]]),
        [],
      );
      await store.commit();
    }
  } finally {
    store.close();
  }
}

/**
 * A digest at `last` as a computation takes it: from the index's states
 * (unless `fromStates` is false), its state at `last` then kept.
 */
async function digestAt(
  file: string,
  dir: string,
  last: bigint,
  fromStates = true,
) {
  const {
    sources: [digest],
    states,
  } = await digestSources(file, [engineSource()], {
    last,
    tempDir: dir,
    fromStates,
  });
  if (fromStates) await keepDigestStates(file, states);
  return { logs: digest?.logs, sha256: digest?.sha256 };
}

const keptStates = async (file: string) =>
  (
    await queryIndex(
      file,
      "select through_block::INTEGER, logs::INTEGER from digest_states order by through_block",
    )
  ).map(([through, logs]) => [through, logs]);

const reference = (file: string, last: bigint) =>
  referenceDigest(file, logTable(source()), PARAMETERS, last);

describe("the digest's states, kept in the index as computations reach them", () => {
  let dir: string;
  let count = 0;
  const freshFile = () => path.join(dir, `chain-${++count}.duckdb`);

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-digest-states-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("resumes a SHA-256 between rows from its eight words and row count, as Node's hash of the whole", async () => {
    const rows = Array.from({ length: 50 }, (_, i) =>
      createHash("sha256").update(`row ${i}`).digest("hex"),
    );
    const whole = createHash("sha256").update(rows.join("")).digest("hex");
    expect((await RunningDigest.start()).hex()).to.equal(
      createHash("sha256").update("").digest("hex"),
    );
    for (const cut of [0, 1, 2, 17, 49, 50]) {
      const first = await RunningDigest.start();
      first.update(rows.slice(0, cut).join(""));
      // The state in SHA-256's own terms: the eight words of the hash of
      // the first rows, as any implementation has them.
      const state = first.state();
      const second = await RunningDigest.resume(state, first.rows);
      second.update(rows.slice(cut).join(""));
      expect(second.hex(), `cut after ${cut} rows`).to.equal(whole);
      expect(second.rows).to.equal(50);
      // Reading the digest leaves the state as it was.
      first.hex();
      expect(first.state()).to.equal(state);
    }
    // SHA-256's initial words: the state of no rows.
    expect((await RunningDigest.start()).state()).to.equal(
      "6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19",
    );
    let refused: unknown;
    await RunningDigest.resume("00", 1).catch((error: unknown) => {
      refused = error;
    });
    expect(String(refused)).to.match(/not a digest state/);
    const digest = await RunningDigest.start();
    expect(() => digest.update("abc")).to.throw(/whole rows/);
  });

  it("keeps the state a digest reached, goes on from it, and equals the one-query digest at every kind of last block", async () => {
    const file = freshFile();
    await storeRanges(file, [
      { from: 0, to: 9 },
      { from: 10, to: 19 },
      { from: 20, to: 29 },
    ]);
    // Writing the index keeps no state: hashing there cost the node's cores.
    expect(await keptStates(file)).to.deep.equal([]);
    // A stage ending at 9, then live ones at 19 and 24, then 20 (between
    // states), 4 (before the first) and 29.
    for (const last of [9n, 19n, 24n, 20n, 4n, 29n]) {
      const expected = await reference(file, last);
      expect(await digestAt(file, dir, last), `last ${last}`).to.deep.equal(
        expected,
      );
      expect(await digestAt(file, dir, last, false)).to.deep.equal(expected);
    }
    const kept = await keptStates(file);
    expect(kept.map(([through]) => through)).to.deep.equal([
      4, 9, 19, 20, 24, 29,
    ]);
    for (const [through, logs] of kept)
      expect(logs).to.equal(
        (await reference(file, BigInt(Number(through)))).logs,
      );
    // Kept once: the same digest again adds nothing.
    await digestAt(file, dir, 29n);
    expect(await keptStates(file)).to.deep.equal(kept);
  });

  it("goes on from the state: rows before it are not read again (a live stage computed again pays the new blocks)", async () => {
    const file = freshFile();
    await storeRanges(file, [{ from: 0, to: 9 }]);
    await digestAt(file, dir, 9n);
    await storeRanges(file, [{ from: 10, to: 19 }]);
    const before = await digestAt(file, dir, 19n);
    // Changed behind the index's back: only a digest from the first row
    // sees it, which a digest going on from the states does not pay.
    await changeIndex(
      file,
      `update ${logTable(source())} set notional = notional + 1 where block_number = 3`,
    );
    expect(await digestAt(file, dir, 19n)).to.deep.equal(before);
    expect((await digestAt(file, dir, 19n, false)).sha256).to.not.equal(
      before.sha256,
    );
  });

  it("forgets the states after a reorganization's last kept block, and digests the new blocks exactly", async () => {
    const file = freshFile();
    await storeRanges(file, [
      { from: 0, to: 9 },
      { from: 10, to: 19 },
      { from: 21, to: 29 },
    ]);
    for (const last of [9n, 19n, 29n]) await digestAt(file, dir, last);
    const store = await ActivityStore.open(file);
    try {
      await store.ensureSource(source());
      await store.rewind([source()], 14n);
    } finally {
      store.close();
    }
    expect(await keptStates(file)).to.have.length(1);
    expect((await keptStates(file))[0]?.[0]).to.equal(9);
    // The replacing blocks hold other logs.
    await storeRanges(file, [{ from: 15, to: 25, salt: 3 }]);
    for (const last of [14n, 20n, 25n])
      expect(await digestAt(file, dir, last), `last ${last}`).to.deep.equal(
        await reference(file, last),
      );
  });

  it("reads an index written before states were kept, and keeps them from its next computation", async () => {
    const file = freshFile();
    await storeRanges(file, [
      { from: 0, to: 9 },
      { from: 10, to: 19 },
    ]);
    await changeIndex(file, "drop table digest_states");
    expect(await digestAt(file, dir, 19n, false)).to.deep.equal(
      await reference(file, 19n),
    );
    expect(await digestAt(file, dir, 19n)).to.deep.equal(
      await reference(file, 19n),
    );
    expect(await keptStates(file)).to.deep.equal([
      [19, (await reference(file, 19n)).logs],
    ]);
  });
});
