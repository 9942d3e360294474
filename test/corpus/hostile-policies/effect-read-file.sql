-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: side effects
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: read_text\('/etc/hostname'\)
-- bounds: default
select trader as address, length(content) as score from trades, read_text('/etc/hostname') group by trader, content
