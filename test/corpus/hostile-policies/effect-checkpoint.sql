-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: side effects
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: checkpoint\(\)
-- bounds: default
select trader as address, 1 as score from trades, checkpoint() group by trader
