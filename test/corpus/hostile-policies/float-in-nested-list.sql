-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: floating point hidden
-- expect: computes in floating point[\s\S]*hostile\.sql:7:\d+:[\s\S]*inside a list or struct
-- bounds: default
select trader as address, count(([[notional::FLOAT]])[1][1]) as score from trades group by trader
