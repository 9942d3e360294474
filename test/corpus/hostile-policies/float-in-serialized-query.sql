-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: floating point hidden
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: json_execute_serialized_sql\(
-- bounds: default
select trader as address, 1 as score from trades, json_execute_serialized_sql(json_serialize_sql('select avg(1) as x')) group by trader
