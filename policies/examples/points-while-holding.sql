-- @policy points-while-holding
-- @from-stage 1
-- @source actions 0x00000000000000000000000000000000000000b1 event PointsEarned(address indexed player, uint256 indexed actionId, uint256 points)
-- @source land 0x00000000000000000000000000000000000000b2 event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)
--
-- Family: points passed through with a state-as-of condition (a city game: points count for
-- land owners only).
-- Replace the addresses with the game's contract and its land (ERC-721) contract. The land's
-- source must start at or before its first mint (no `from-block`, or its deployment block):
-- ownership is built from every Transfer since.
--
-- In words: the game awards points for actions; a player's score is the sum of the points of
-- their actions in the stage's window, counting an action only if, at that action's place in
-- the chain, the player owned at least one land. Ownership is built from the land's whole
-- Transfer history, before the window too: a land bought earlier in the same block (an earlier
-- transaction) counts, one bought after the action does not, and one sold before it no longer
-- does. Points are whole numbers: no floor is needed. Players scoring 0 are left out.
--
--   score(u) = Σ_{e ∈ E(u)} p(e) · [ L(u, e) ≥ 1 ]
--
--   E(u)     the PointsEarned events of player u in blocks whose time τ has start ≤ τ < end
--   p(e)     the event's points
--   L(u, e)  the lands u holds just before e: over every land Transfer x before e in chain order
--            (block_number, tx_index, log_index), Σ [to(x) = u] − [from(x) = u]
--   [·]      1 if the condition holds, else 0
with ledger as (
  select "to" as player, 1 as lands, 0 as points, block_number, tx_index, log_index, block_time from land
  union all
  select "from", -1, 0, block_number, tx_index, log_index, block_time from land
  union all
  select player, 0, points, block_number, tx_index, log_index, block_time from actions
),
as_of as (
  select
    player,
    points,
    block_time,
    -- the lands held up to this place in chain order (an action's own row adds none)
    sum(lands) over (partition by player order by block_number, tx_index, log_index) as held
  from ledger
)
select player as address, sum(points) as score
from as_of, stage
where points > 0 and held >= 1
  and block_time >= stage.start_time and block_time < stage.end_time
group by player
