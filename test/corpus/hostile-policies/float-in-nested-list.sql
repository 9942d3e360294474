-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: floating point hidden
-- error: SCORING.POLICY_FLOATING
-- names: hostile\.sql:8:\d+: ::FLOAT\]\]
-- bounds: default
select trader as address, count(([[notional::FLOAT]])[1][1]) as score from trades group by trader
