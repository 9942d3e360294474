import { rm } from "node:fs/promises";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { computeStage } from "../../tasks/scoring/compute.js";
import { unpackRows } from "../../tasks/scoring/score-rows.js";
import {
  type HandTrade,
  STAGE_BLOCKS,
  STAGE_WINDOW,
  tiedTrades,
  tradeIndex,
  tradePolicy,
} from "../helpers/trade-index.js";

// What is exact stays allowed: the order-dependent constructs over a total
// order (run twice, in two orders, with the same answer), and the scores are
// the ones computed here in TypeScript from the same trades.
describe("admitted policies: order-dependent SQL over a total order", () => {
  const trades = tiedTrades();
  const inStage = trades.filter((t) => t.block <= STAGE_BLOCKS.last.number);
  let index: { dir: string; file: string };
  before(async () => {
    index = await tradeIndex(trades);
  });
  after(async () => rm(index.dir, { recursive: true, force: true }));

  const compute = async (select: string) => {
    const { rows } = await computeStage(
      index.file,
      tradePolicy(select),
      STAGE_WINDOW,
      STAGE_BLOCKS,
    );
    return new Map(unpackRows(rows).map((r) => [r.address, r.score]));
  };
  const chainOrder = (a: HandTrade, b: HandTrade) =>
    a.block !== b.block
      ? a.block < b.block
        ? -1
        : 1
      : a.tx - b.tx || a.log - b.log;
  const byTrader = () => {
    const groups = new Map<string, HandTrade[]>();
    for (const t of [...inStage].sort(chainOrder))
      groups.set(t.trader, [...(groups.get(t.trader) ?? []), t]);
    return groups;
  };

  it("arg_max over the chain position: each trader's last trade", async () => {
    const scores = await compute(
      "select trader as address, arg_max(notional, (block_number, tx_index, log_index)) as score from trades group by trader",
    );
    const expected = new Map(
      [...byTrader()].map(([trader, list]) => [trader, list.at(-1)?.notional]),
    );
    expect(scores).to.deep.equal(expected);
  });

  it("a rank pot: row_number over volume, then the address (a total order)", async () => {
    const scores =
      await compute(`with volume as (select trader, sum(notional) as v from trades group by trader)
select trader as address, case when r = 1 then 100 when r = 2 then 50 else 1 end as score
from (select trader, row_number() over (order by v desc, trader) as r from volume)`);
    const ranked = [...byTrader()]
      .map(([trader, list]) => ({
        trader,
        v: list.reduce((s, t) => s + t.notional, 0n),
      }))
      .sort((a, b) =>
        a.v !== b.v ? (a.v > b.v ? -1 : 1) : a.trader < b.trader ? -1 : 1,
      );
    const expected = new Map(
      ranked.map((r, i) => [r.trader, i === 0 ? 100n : i === 1 ? 50n : 1n]),
    );
    expect(scores).to.deep.equal(expected);
  });

  it("string_agg and first in chain order; list(x ORDER BY x)", async () => {
    const scores = await compute(`select trader as address,
  length(string_agg(notional::VARCHAR, ',' order by block_number, tx_index, log_index))
  + first(leverage order by block_number desc, tx_index desc, log_index desc) * 1000000
  + len(list(leverage order by leverage)) * 1000000000 as score
from trades group by trader`);
    const expected = new Map(
      [...byTrader()].map(([trader, list]) => [
        trader,
        BigInt(list.map((t) => t.notional.toString()).join(",").length) +
          (list.at(-1)?.leverage ?? 0n) * 1_000_000n +
          BigInt(list.length) * 1_000_000_000n,
      ]),
    );
    expect(scores).to.deep.equal(expected);
  });

  it("an ordered aggregate over a whole partition, as under GROUP BY", async () => {
    const scores =
      await compute(`select trader as address, max(n) as score from (
  select trader, length(string_agg(notional::VARCHAR, ',' order by block_number, tx_index, log_index) over (partition by trader)) as n
  from trades)
group by trader`);
    const expected = new Map(
      [...byTrader()].map(([trader, list]) => [
        trader,
        BigInt(list.map((t) => t.notional.toString()).join(",").length),
      ]),
    );
    expect(scores).to.deep.equal(expected);
  });

  it("names a refused construct at its place, after text beyond ASCII (DuckDB counts bytes)", async () => {
    const error = await computeStage(
      index.file,
      tradePolicy(
        "-- «bonus» — ½ of the volume, €\nselect trader as address, sum(notional) / 2 as score from trades group by trader",
      ),
      STAGE_WINDOW,
      STAGE_BLOCKS,
    ).then(
      () => "computed",
      (e: unknown) => e,
    );
    expect(
      isVipError(error, ERRORS.SCORING.ADMISSION.POLICY_FLOATING),
      String(error),
    ).to.equal(true);
    expect(
      isVipError(error, ERRORS.SCORING.ADMISSION.POLICY_FLOATING) &&
        error.params.constructs,
    ).to.include(
      "hostile.sql:5:41: / 2 as score from trades group by trader\n",
    );
  });

  it("refuses a score column that is not one exact number", async () => {
    const error = await computeStage(
      index.file,
      tradePolicy(
        "select trader as address, [count(*)] as score from trades group by trader",
      ),
      STAGE_WINDOW,
      STAGE_BLOCKS,
    ).then(
      () => "computed",
      (e: unknown) => e,
    );
    expect(
      isVipError(error, ERRORS.SCORING.ADMISSION.POLICY_SCORE_TYPE),
      String(error),
    ).to.equal(true);
    expect(isVipError(error) && error.params).to.deep.equal({
      file: "hostile.sql",
      type: "BIGINT[]",
    });
  });
});
