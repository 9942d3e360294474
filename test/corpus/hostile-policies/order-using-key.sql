-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: row-order dependence
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: with recursive r\(k, v\) using key \(k\)
-- bounds: default
with recursive r(k, v) using key (k) as (select 1, 0::BIGINT union (select 1, log_index::BIGINT from trades, r where r.v = 0 and log_index > 0))
select '0x1000000000000000000000000000000000000001' as address, max(v) as score from r
