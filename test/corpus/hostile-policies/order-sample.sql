-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: row-order dependence
-- expect: picks rows at random
-- bounds: default
select trader as address, count(*) as score from trades tablesample 10% group by trader
