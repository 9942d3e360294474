-- @policy perp-volume
-- @from-stage 1
-- @source trades 0x5FbDB2315678afecb367f032d93F642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
--
-- A sample scoring policy: a perpetuals venue scores each trader by leveraged
-- volume in the stage, 20 points per 5 units of notional (18 decimals) times
-- (leverage + 4), fractions floored. `npx hardhat rehearse` runs it on its own
-- TradeLog contract (contracts/test/TradeLog.sol), with that contract's
-- address on the @source line.
select trader as address, sum(notional * 20 * (leverage + 4)) // (5 * 1000000000000000000) as score
from trades, stage
where block_time >= stage.start_time and block_time < stage.end_time
group by trader
