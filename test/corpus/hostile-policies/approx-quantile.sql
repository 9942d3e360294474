-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: approximation
-- expect: hostile\.sql:7:\d+: approx_quantile[\s\S]*it is approximate
-- bounds: default
select trader as address, approx_quantile(notional, 0.5)::HUGEINT as score from trades group by trader
