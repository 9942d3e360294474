-- @policy volume-leverage-tiers
-- @from-stage 1
-- @source trades 0x00000000000000000000000000000000000000a1 event TradeExecuted(address indexed trader, uint256 indexed marketId, bool isLong, uint256 sizeUsd, uint32 leverageBps)
--
-- Family: volume × weight with leverage tiers (a perpetuals exchange).
-- Replace the address with the exchange's contract (and add `from-block <its first block>`).
--
-- In words: every trade whose block falls in the stage's window earns its notional in US
-- dollars times the weight of its leverage band; a trader's score is the sum over their
-- trades, floored once to whole points. Moderate leverage earns most; 25x and above earns
-- half, so that churning at extreme leverage does not pay. Traders scoring 0 are left out.
--
--   score(u) = ⌊ Σ_{t ∈ T(u)} size(t) · w(λ(t)) / (100 · 10¹⁸) ⌋
--
--   T(u)     the TradeExecuted events of trader u in blocks whose time τ has start ≤ τ < end
--            (the stage's window, unix seconds; a block at `end` belongs to the next stage)
--   size(t)  the trade's notional, sizeUsd: US dollars with 18 decimals
--   λ(t)     the trade's leverage, leverageBps / 10 000 (10 000 is 1x)
--   w(λ)     the weight in percent of the band λ falls in:
--              λ < 2x: 100   2x ≤ λ < 5x: 125   5x ≤ λ < 10x: 150   10x ≤ λ < 25x: 120   25x ≤ λ: 50
--   ⌊·⌋      the floor, once per trader: one point per weighted dollar, the fraction dropped
--
-- Exact: sizes and weights are integers (HUGEINT); the only division is the final `//`.
with weighted as (
  select
    trader,
    sizeUsd * case
      when leverageBps < 20000 then 100
      when leverageBps < 50000 then 125
      when leverageBps < 100000 then 150
      when leverageBps < 250000 then 120
      else 50
    end as points
  from trades, stage
  where block_time >= stage.start_time and block_time < stage.end_time
),
scored as (
  select trader as address, sum(points) // 100 // 1000000000000000000 as score
  from weighted
  group by trader
)
select address, score from scored where score > 0
