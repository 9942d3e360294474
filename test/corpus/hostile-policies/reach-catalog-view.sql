-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: reads beyond the sources
-- expect: information_schema\.tables is not one of the policy's tables
-- bounds: default
select trader as address, (select count(*) from information_schema.tables) as score from trades group by trader
