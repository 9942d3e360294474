-- @policy rank-pots
-- @from-stage 1
-- @source bets 0x00000000000000000000000000000000000000e1 event BetPlaced(address indexed player, uint256 indexed gameId, uint256 amount)
--
-- Family: rank pots with ties broken by address (a game of chance ranking its players by the
-- amount they wagered).
-- Replace the address with the game's contract.
--
-- In words: players are ranked by the total they wagered in the stage's window, the largest
-- first; players with equal totals are ranked by address, the lowest (as lowercase hex) first,
-- so every rank is held by exactly one player. The first three ranks get fixed amounts; ranks
-- 4 to 6 share one pot and ranks 7 to 10 another, split equally between the players who hold a
-- rank of the band (fewer players than ranks: each gets more), each share floored. Ranks
-- beyond 10 and players who wagered nothing get nothing and are left out.
--
--   score(u) = P(k) / n(k)  floored, where k is the band of rank r(u)
--
--   W(u)   Σ amount of u's BetPlaced events in blocks whose time τ has start ≤ τ < end
--   r(u)   1 + #{ v : W(v) > W(u), or W(v) = W(u) and v < u }, over the players with W > 0
--   bands  k: ranks → pot P(k):  1 → 5 000;  2 → 3 000;  3 → 2 000;  4–6 → 4 000;  7–10 → 3 000
--   n(k)   the number of players whose rank is in band k
--   floor  ⌊P(k) / n(k)⌋ (4 000 among 3 is 1 333 each, 1 point unspent)
with bands(first_rank, last_rank, pot) as (
  values (1, 1, 5000), (2, 2, 3000), (3, 3, 2000), (4, 6, 4000), (7, 10, 3000)
),
wagered as (
  select player, sum(amount) as total
  from bets, stage
  where block_time >= stage.start_time and block_time < stage.end_time
  group by player
),
ranked as (
  select player, row_number() over (order by total desc, player) as place
  from wagered
  where total > 0
),
placed as (
  select player, pot, count(*) over (partition by first_rank) as sharing
  from ranked join bands on place between first_rank and last_rank
)
select player as address, pot // sharing as score
from placed
