-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: row-order dependence
-- expect: string_agg depends on the order rows arrive in
-- bounds: default
select trader as address, length(string_agg(notional::VARCHAR, ',')) as score from (select * from trades where block_number < 12) group by trader
