-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: time and randomness
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: random\(\)
-- bounds: default
select trader as address, (random() * 100)::HUGEINT as score from trades group by trader
