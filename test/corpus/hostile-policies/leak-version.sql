-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: metadata leaks
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: version\(\)
-- bounds: default
select trader as address, length(version()) as score from trades group by trader
