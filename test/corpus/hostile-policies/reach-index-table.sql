-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: reads beyond the sources
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: store\.main\.log_219f89fc79cc7065
-- bounds: default
select trader as address, count(*) as score from store.main.log_219f89fc79cc7065 group by trader
