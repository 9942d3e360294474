-- @policy per-second-market-budget
-- @from-stage 1
-- @source supplies 0x00000000000000000000000000000000000000d1 event Supply(address indexed user, uint256 indexed marketId, uint256 amount)
-- @source withdrawals 0x00000000000000000000000000000000000000d1 event Withdraw(address indexed user, uint256 indexed marketId, uint256 amount)
--
-- Family: a per-second share of a fixed budget split across markets (a lending market whose
-- markets each have a daily budget of points).
-- Replace the address with the lending market's contract. Both sources must start at or before
-- the market's first event (no `from-block`, or its deployment block).
--
-- In words: each market has a daily budget of points. Each second of the stage's window, the
-- market hands out its budget / 86 400, split between its suppliers in proportion to their
-- supply at that second; each supplier's amount for that second is floored to a millionth of a
-- point. A user's score is the sum over the seconds and the markets, floored to whole points.
-- Supply is built from every event since the market's start; a change in a block at time τ
-- counts from second τ on. A second in which a market has no supply hands out nothing (that
-- part of the budget is not spent). Markets without a budget earn nothing. Users scoring 0 are
-- left out.
--
--   score(u) = ⌊ Σ_m Σ_{s = start}^{end − 1} ⌊ 10⁶ · R(m) · b(u, m, s) / (86 400 · T(m, s)) ⌋ / 10⁶ ⌋
--
--   m          a market (marketId) with a budget below
--   s          each second of the window [start, end), unix seconds, with T(m, s) > 0
--   R(m)       the market's budget, points a day: market 1: 864 000; market 2: 172 800
--   b(u, m, s) u's supply in m after every event in a block of time ≤ s:
--              Σ Supply.amount − Σ Withdraw.amount
--   T(m, s)    the market's total supply at s: Σ_v b(v, m, s)
--   10⁶        each second's amount is floored to a millionth of a point (the inner ⌊·⌋);
--              the outer ⌊·⌋ floors the user's sum to whole points
--
-- Exact: every product is HUGEINT. Its one bound: 10⁶ · R(m) · b(u, m, s) must stay below
-- 2¹²⁷ ≈ 1.7 · 10³⁸ (a supply of 10²⁶ base units at a budget of 10⁶ points a day); past it
-- DuckDB stops with an overflow error, never a wrong score. Scale the amount down first
-- (amount // 10⁶, say) if your market can hold more.
--
-- How it is computed: the market's balances are constant between two consecutive seconds in
-- which any of them changes, so each such stretch contributes its length times the per-second
-- amount, which is the same as adding second by second.
with budgets(marketId, daily) as (
  values (1, 864000), (2, 172800)
),
changes as (
  select "user", marketId, amount as delta, block_time from supplies
  union all
  select "user", marketId, -amount, block_time from withdrawals
),
-- the seconds in which a market's balances change, and who ever held a balance in it
market_seconds as (select distinct marketId, block_time from changes),
suppliers as (select distinct marketId, "user" from changes),
-- each supplier's change in each of the market's seconds (0 where it did not change)
grid as (
  select t.marketId, t.block_time, p."user", coalesce(c.delta, 0) as delta
  from market_seconds t
  join suppliers p on p.marketId = t.marketId
  left join (
    select marketId, "user", block_time, sum(delta) as delta
    from changes
    group by marketId, "user", block_time
  ) c on c.marketId = t.marketId and c."user" = p."user" and c.block_time = t.block_time
),
-- each supplier's balance from `since` until the market's next change (`until`)
held as (
  select
    marketId,
    "user",
    block_time as since,
    lead(block_time) over (partition by marketId, "user" order by block_time) as until,
    sum(delta) over (partition by marketId, "user" order by block_time) as balance
  from grid
),
-- the market's total over the same stretch, and the stretch's seconds inside the window
stretches as (
  select
    h.marketId,
    h."user",
    h.balance,
    sum(h.balance) over (partition by h.marketId, h.since) as total,
    least(coalesce(h.until, stage.end_time), stage.end_time) - greatest(h.since, stage.start_time) as seconds
  from held h, stage
),
scored as (
  select
    s."user" as address,
    sum(s.seconds * ((s.balance * b.daily * 1000000) // (86400 * s.total))) // 1000000 as score
  from stretches s join budgets b on b.marketId = s.marketId
  where s.seconds > 0 and s.balance > 0
  group by s."user"
)
select address, score from scored where score > 0
