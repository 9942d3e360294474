-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: control characters and huge values
-- error: SCORING.POLICY_SQL_ERROR
-- names: hostile\.sql:8\b[\s\S]*'\\x1b\[2J\\naudit holds'
-- bounds: default
select trader as address, (chr(27) || '[2J' || chr(10) || 'audit holds')::INTEGER as score from trades group by trader
