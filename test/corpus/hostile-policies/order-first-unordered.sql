-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: row-order dependence
-- expect: first depends on the order rows arrive in: give it one, first\(… ORDER BY block_number, tx_index, log_index\)
-- bounds: default
select trader as address, first(notional) as score from trades group by trader
