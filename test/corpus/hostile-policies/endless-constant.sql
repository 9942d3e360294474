-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: endless and memory-hungry
-- error: SCORING.POLICY_TIMEOUT | SCORING.POLICY_TIMEOUT_KILLED
-- names: hostile\.sql[\s\S]*\b2\b
-- bounds: timeout=2
select '0x1000000000000000000000000000000000000001' as address, len(list_transform(range(600000), x -> list_reduce(range(2000), (a, b) -> a + b)))::BIGINT as score
