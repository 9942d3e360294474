-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: floating point hidden
-- expect: json_execute_serialized_sql\(…\) in FROM: it reads files or runs other SQL
-- bounds: default
select trader as address, 1 as score from trades, json_execute_serialized_sql(json_serialize_sql('select avg(1) as x')) group by trader
