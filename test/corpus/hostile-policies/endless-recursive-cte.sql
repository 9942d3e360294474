-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: endless and memory-hungry
-- error: SCORING.POLICY_TIMEOUT | SCORING.POLICY_TIMEOUT_KILLED
-- names: hostile\.sql[\s\S]*\b2\b
-- bounds: timeout=2
with recursive r(n) as (select 1::HUGEINT union select n + 1 from r)
select '0x1000000000000000000000000000000000000001' as address, max(n) as score from r
