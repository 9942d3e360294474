-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: row-order dependence (ties)
-- error: SCORING.POLICY_ORDER_DEPENDENT
-- names: hostile\.sql:8:\d+: 100\)
-- bounds: default
select trader as address, sum(notional) as score from (select * from trades order by leverage limit 100) group by trader
