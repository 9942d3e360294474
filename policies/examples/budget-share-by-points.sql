-- @policy budget-share-by-points
-- @from-stage 1
-- @source harvests 0x00000000000000000000000000000000000000f1 event Harvest(address indexed account, uint256 indexed kamiId, uint256 amount)
--
-- Family: a share of a fixed budget by points (a pet game whose players earn points by
-- harvesting).
-- Replace the address with the game's contract.
--
-- In words: a player's points are what their pets harvested in the stage's window; the stage's
-- fixed budget of 1 000 000 is split in proportion to the points, each share floored. The
-- shares add up to the budget less at most one point per player (the fractions dropped).
-- Players scoring 0 are left out.
--
--   score(u) = ⌊ B · P(u) / Σ_v P(v) ⌋
--
--   P(u)   Σ amount of the Harvest events of account u in blocks whose time τ has start ≤ τ < end
--   B      the stage's budget: 1 000 000
--   ⌊·⌋    the floor, once per player
with earned as (
  select account, sum(amount) as points
  from harvests, stage
  where block_time >= stage.start_time and block_time < stage.end_time
  group by account
),
scored as (
  select account as address, (1000000 * points) // sum(points) over () as score
  from earned
)
select address, score from scored where score > 0
