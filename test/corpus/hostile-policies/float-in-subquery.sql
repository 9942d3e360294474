-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: floating point hidden
-- error: SCORING.POLICY_FLOATING
-- names: hostile\.sql:9:\d+: / count\(\*\)
-- bounds: default
select trader as address, count(*) * (select sum(notional)
  / count(*) from trades)::HUGEINT as score from trades group by trader
