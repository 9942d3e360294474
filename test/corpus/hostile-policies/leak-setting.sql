-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: metadata leaks
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: current_setting\('secret_directory'\)
-- bounds: default
select '0x' || lpad(hex(length(current_setting('secret_directory'))), 40, '0') as address, 1 as score
