-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: row-order dependence
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: trades tablesample 10%
-- bounds: default
select trader as address, count(*) as score from trades tablesample 10% group by trader
