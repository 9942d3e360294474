-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: control characters and huge values
-- error: SCORING.SCORES_INVALID
-- names: hostile\.sql[\s\S]*\b1\b[\s\S]*stage 7: a{80}… \(19,999,920 more characters\)
-- bounds: default
select repeat('a', 20000000) as address, 1 as score
