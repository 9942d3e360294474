-- @policy nft-mint-trade-booster
-- @from-stage 1
-- @source mints 0x0000000000000000000000000000000000000a01 event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)
-- @source sales 0x0000000000000000000000000000000000000a02 event Sale(address indexed collection, uint256 indexed tokenId, address indexed buyer, address seller, uint256 price)
-- @source passes 0x0000000000000000000000000000000000000a03 event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)
--
-- Family: mint, buy and sell with a booster (an NFT launchpad and marketplace).
-- Replace the addresses with the launchpad's collection (ERC-721), the marketplace, and the
-- booster pass (ERC-721). The pass's source must start at or before its first mint (no
-- `from-block`, or its deployment block): holders are built from every Transfer since.
--
-- In words: in the stage's window, each mint of the collection (a Transfer from the zero
-- address) earns 50 points to its receiver; each sale on the marketplace earns its buyer 2
-- points and its seller 1 point per whole token of its price (18 decimals), a sale to oneself
-- earning nothing. A player who holds a booster pass at the stage's last block has the total
-- multiplied by 1.5. The score is floored once. Players scoring 0 are left out.
--
--   score(u) = ⌊ β(u) · ( 50 · 10¹⁸ · M(u) + 2 · V_buy(u) + V_sell(u) ) / (100 · 10¹⁸) ⌋
--
--   M(u)       the number of the collection's Transfers from 0x0…0 to u, in blocks whose time τ
--              has start ≤ τ < end
--   V_buy(u)   Σ price of the window's sales with buyer u and seller ≠ u
--   V_sell(u)  Σ price of the window's sales with seller u and buyer ≠ u
--   β(u)       150 if u holds at least one pass at the stage's last block (its whole Transfer
--              history: Σ [to = u] − [from = u] ≥ 1), else 100
--   ⌊·⌋        the floor, once per player
with activity as (
  select "to" as player, 50::HUGEINT * 1000000000000000000 as raw
  from mints, stage
  where "from" = '0x0000000000000000000000000000000000000000'
    and block_time >= stage.start_time and block_time < stage.end_time
  union all
  select buyer, 2 * price
  from sales, stage
  where buyer <> seller and block_time >= stage.start_time and block_time < stage.end_time
  union all
  select seller, price
  from sales, stage
  where buyer <> seller and block_time >= stage.start_time and block_time < stage.end_time
),
-- every pass's moves up to the stage's last block (the sources hold no later log)
boosted as (
  select holder as player
  from (
    select "to" as holder, 1 as delta from passes
    union all
    select "from", -1 from passes
  )
  group by holder
  having sum(delta) >= 1
),
scored as (
  select
    a.player as address,
    sum(a.raw) * (case when b.player is null then 100 else 150 end) // 100 // 1000000000000000000 as score
  from activity a left join boosted b on b.player = a.player
  group by a.player, b.player
)
select address, score from scored where score > 0
