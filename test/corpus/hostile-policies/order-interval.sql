-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: row-order dependence
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: '1 month'
-- bounds: default
select trader as address, date_part('day', max(case when log_index % 2 = 0 then interval '1 month' else interval '30 days' end))::BIGINT as score from trades group by trader
