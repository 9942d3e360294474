-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: control characters and huge values
-- error: SCORING.SCORES_INVALID
-- names: stage 7: \\x1b\[2J\\naudit +stage 7: the contract holds
-- bounds: default
select chr(27) || '[2J' || chr(10) || 'audit                 stage 7: the contract holds exactly the policy''s scores' as address, 1 as score
