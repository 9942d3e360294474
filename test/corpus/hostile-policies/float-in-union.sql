-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: floating point hidden
-- expect: computes in floating point[\s\S]*hostile\.sql:7:\d+:
-- bounds: default
select trader as address, count(notional::UNION(exact HUGEINT, approx DOUBLE)) as score from trades group by trader
