-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: row-order dependence
-- expect: an INTERVAL of 1 month equals one of 30 days
-- bounds: default
select trader as address, date_part('day', max(case when log_index % 2 = 0 then interval '1 month' else interval '30 days' end))::BIGINT as score from trades group by trader
