import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { LogColumns } from "../../tasks/indexer/decode.js";
import { ActivityStore } from "../../tasks/indexer/store.js";
import { parsePolicy, type Policy } from "../../tasks/policy/parse.js";
import { RESERVED_SQL_WORDS } from "../../tasks/policy/sql-names.js";
import { checkPolicy } from "../../tasks/scoring/check-policy.js";
import { computeStage } from "../../tasks/scoring/compute.js";
import { unpackRows } from "../../tasks/scoring/score-rows.js";
import { STAGE_BLOCKS } from "../helpers/trade-index.js";

// Parameter names as real contracts declare them: ERC-721's tokenId
// (camelCase), from and to (words SQL reserves).
const NFT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const ZERO = "0x0000000000000000000000000000000000000000";
const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";
const C = "0x3000000000000000000000000000000000000003";
const HEADER = `-- @policy holders
-- @from-stage 1
-- @source transfers ${NFT} event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)
`;
// Each token held at the stage's last block scores its weight, 1 + tokenId % 3.
const HOLDERS = `${HEADER}with owners as (
  select tokenId, arg_max("to", (block_number, tx_index, log_index)) as owner
  from transfers group by tokenId
)
select owner as address, sum(1 + tokenId % 3) as score
from owners where owner <> '${ZERO}'
group by owner
`;

/** Transfers: block, tx index, log index, from, to, tokenId. Block 20 is after the stage. */
const TRANSFERS: [bigint, number, number, string, string, bigint][] = [
  [3n, 0, 0, ZERO, A, 1n],
  [3n, 0, 1, ZERO, A, 2n],
  [3n, 1, 0, ZERO, B, 5n],
  [10n, 0, 0, A, B, 1n],
  // Two transfers of token 2 in one block: chain order decides its owner.
  [12n, 0, 0, A, C, 2n],
  [12n, 1, 0, C, B, 2n],
  [15n, 0, 0, B, ZERO, 5n],
  [20n, 0, 0, B, A, 1n],
];
const WINDOW = { stage: 1n, start: 1_000n, end: 2_000n };
const BLOCKS = STAGE_BLOCKS;

/** Who holds what at the last block, from the transfers in chain order, weighted. */
function expectedHolders(last: bigint): Map<string, bigint> {
  const owner = new Map<bigint, string>();
  const inOrder = TRANSFERS.filter(([block]) => block <= last).sort(
    (x, y) => Number(x[0] - y[0]) || x[1] - y[1] || x[2] - y[2],
  );
  for (const [, , , , to, tokenId] of inOrder) owner.set(tokenId, to);
  const scores = new Map<string, bigint>();
  for (const [tokenId, holder] of owner)
    if (holder !== ZERO)
      scores.set(holder, (scores.get(holder) ?? 0n) + 1n + (tokenId % 3n));
  return scores;
}

function headerError(text: string): string {
  try {
    parsePolicy("names.sql", text);
  } catch (error) {
    expect(
      isVipError(error, ERRORS.SCORING.POLICY_FILES.POLICY_HEADER),
      String(error),
    ).to.equal(true);
    return String(error);
  }
  return expect.fail("not refused");
}

describe("parameter names as contracts declare them", () => {
  let dir: string;
  let file: string;
  let policy: Policy;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-names-"));
    file = path.join(dir, "chain-1.duckdb");
    policy = parsePolicy("holders.sql", HOLDERS);
    const store = await ActivityStore.open(file);
    const [source] = policy.sources;
    if (source === undefined) throw new Error("no source parsed");
    await store.ensureSource(source);
    const logs = new LogColumns(3);
    TRANSFERS.forEach(([block, txIndex, logIndex, from, to, tokenId]) =>
      logs.push({
        blockNumber: block,
        blockTime: block * 100n,
        txHash: `0x${block.toString(16).padStart(62, "0")}${txIndex.toString(16).padStart(2, "0")}`,
        txIndex,
        logIndex,
        values: [from, to, tokenId],
      }),
    );
    await store.begin();
    await store.storeRange([source], 25n, new Map([[source.id, logs]]), []);
    await store.commit();
    store.close();
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("takes tokenId, from and to as columns, and scores ERC-721 holders exactly", async () => {
    expect(policy.sources[0]?.columns.map((c) => c.name)).to.deep.equal([
      "from",
      "to",
      "tokenId",
    ]);
    const computed = await computeStage(file, policy, WINDOW, BLOCKS);
    const expected = expectedHolders(BLOCKS.last.number);
    expect(
      new Map(unpackRows(computed.rows).map((row) => [row.address, row.score])),
    ).to.deep.equal(expected);
    // Token 1 at B, token 2 at B (its second transfer in block 12), token 5 burned.
    expect(expected).to.deep.equal(new Map([[B, 2n + 3n]]));
  });

  it("admits the policy with no index at all (scores:check), as a stage would", async () => {
    const check = await checkPolicy(policy);
    // arg_max over (block_number, tx_index, log_index): the order decides.
    expect(check.undecided.map((c) => c.text)).to.have.length.greaterThan(0);
    expect(check.engine).to.match(/^duckdb v1\./);
  });

  it("says how to write a reserved word a column is named by", async () => {
    const bare = parsePolicy(
      "bare.sql",
      `${HEADER}select to as address, count(*) as score from transfers group by to\n`,
    );
    let error: unknown;
    await checkPolicy(bare).catch((e: unknown) => (error = e));
    expect(
      isVipError(error, ERRORS.SCORING.ADMISSION.POLICY_SQL_ERROR),
      String(error),
    ).to.equal(true);
    expect(String(error)).to.match(
      /bare\.sql:4: .*syntax error at or near "to" \(the column to is named by a word SQL reserves: write it "to", double-quoted\)/,
    );
  });

  it("accepts any Solidity identifier, and refuses two names SQL cannot tell apart", () => {
    const mixed = parsePolicy(
      "mixed.sql",
      `-- @policy mixed\n-- @from-stage 1\n-- @source s ${NFT} event E(address indexed _owner, uint256 $amount, uint256 amountOut)\nselect 1\n`,
    );
    expect(mixed.sources[0]?.columns.map((c) => c.name)).to.deep.equal([
      "_owner",
      "$amount",
      "amountOut",
    ]);
    expect(
      headerError(
        `-- @policy p\n-- @from-stage 1\n-- @source s ${NFT} event E(uint256 amount, uint256 Amount)\nselect 1\n`,
      ),
    ).to.match(
      /names\.sql:3: parameter Amount clashes with parameter amount \(SQL names ignore case\)/,
    );
    expect(
      headerError(
        `-- @policy p\n-- @from-stage 1\n-- @source s ${NFT} event E(uint256 Block_Number)\nselect 1\n`,
      ),
    ).to.match(
      /parameter Block_Number clashes with block_number, a column every source has/,
    );
  });

  it("lists exactly the words the engine reserves", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const reserved = (
      await connection.runAndReadAll(
        "select keyword_name from duckdb_keywords() where keyword_category = 'reserved' order by 1",
      )
    )
      .getRowsJson()
      .map(([word]) => (typeof word === "string" ? word : ""));
    connection.closeSync();
    instance.closeSync();
    expect([...RESERVED_SQL_WORDS].sort()).to.deep.equal(reserved);
  });
});
