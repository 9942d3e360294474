-- @policy time-weighted-lending
-- @from-stage 1
-- @source supplies 0x00000000000000000000000000000000000000c1 event Supply(address indexed user, uint256 indexed marketId, uint256 amount)
-- @source withdrawals 0x00000000000000000000000000000000000000c1 event Withdraw(address indexed user, uint256 indexed marketId, uint256 amount)
-- @source borrows 0x00000000000000000000000000000000000000c1 event Borrow(address indexed user, uint256 indexed marketId, uint256 amount)
-- @source repays 0x00000000000000000000000000000000000000c1 event Repay(address indexed user, uint256 indexed marketId, uint256 amount)
--
-- Family: time-weighted balance with history carried into the window (a lending market:
-- supply and borrow).
-- Replace the address with the lending market's contract. Every source must start at or
-- before the market's first event (no `from-block`, or its deployment block): a position
-- opened before the window counts from the window's start.
--
-- In words: each second of the stage's window, a user's supplied and borrowed amounts in each
-- market are multiplied by that market's weight for the side (borrowing weighs more), and the
-- score is the sum over the seconds, in weighted token-hours, floored once. A balance is built
-- from every event since the market's start, so a position opened before the window earns from
-- the window's first second; a change in a block at time τ counts from second τ on. Markets
-- without a weight earn nothing. Users scoring 0 are left out.
--
--   score(u) = ⌊ Σ_m Σ_{s = start}^{end − 1} ( wₛ(m) · S(u, m, s) + w_b(m) · B(u, m, s) ) / (3600 · 10¹⁸) ⌋
--
--   m              a market (marketId) with weights below
--   s              each second of the window [start, end), unix seconds
--   S(u, m, s)     u's supply in m after every event in a block of time ≤ s:
--                  Σ Supply.amount − Σ Withdraw.amount (18 decimals)
--   B(u, m, s)     the same for borrowing: Σ Borrow.amount − Σ Repay.amount
--   wₛ(m), w_b(m)  the market's weights: market 1: 1 and 2; market 2: 3 and 5
--   3600 · 10¹⁸    one whole token held one hour, at weight 1, is one point
--   ⌊·⌋            the floor, once per user
--
-- Exact: balances × seconds × weights are HUGEINT; the only division is the final `//`.
-- Amounts are taken as the events give them (no interest accrual, no prices).
with weights(marketId, side, weight) as (
  values (1, 'supply', 1), (1, 'borrow', 2), (2, 'supply', 3), (2, 'borrow', 5)
),
changes as (
  select "user", marketId, 'supply' as side, amount as delta, block_time from supplies
  union all
  select "user", marketId, 'supply', -amount, block_time from withdrawals
  union all
  select "user", marketId, 'borrow', amount, block_time from borrows
  union all
  select "user", marketId, 'borrow', -amount, block_time from repays
),
-- one row per position and second in which it changed (the second's changes together)
steps as (
  select "user", marketId, side, block_time, sum(delta) as delta
  from changes
  group by "user", marketId, side, block_time
),
-- each position's balance from `since` until its next change (`until`, null: still held)
held as (
  select
    "user",
    marketId,
    side,
    block_time as since,
    lead(block_time) over (partition by "user", marketId, side order by block_time) as until,
    sum(delta) over (partition by "user", marketId, side order by block_time) as balance
  from steps
),
-- the seconds of each stretch inside the window
stretches as (
  select
    "user",
    marketId,
    side,
    balance,
    least(coalesce(until, stage.end_time), stage.end_time) - greatest(since, stage.start_time) as seconds
  from held, stage
),
scored as (
  select "user" as address, sum(weight * balance * seconds) // 3600 // 1000000000000000000 as score
  from stretches join weights using (marketId, side)
  where seconds > 0
  group by "user"
)
select address, score from scored where score > 0
