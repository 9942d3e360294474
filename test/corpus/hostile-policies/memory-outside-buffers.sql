-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: endless and memory-hungry
-- expect: memory bound of 64 MB[\s\S]*--policy-memory
-- bounds: memory=64
select '0x1000000000000000000000000000000000000001' as address, length(string_agg(repeat('x', 100000000), '' order by r))::BIGINT as score from range(40) t(r)
