-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: metadata leaks
-- error: SCORING.POLICY_REFUSED
-- names: hostile\.sql:8:\d+: duckdb_databases\(\)
-- bounds: default
select lower(path) as address, 1 as score from duckdb_databases()
