-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: metadata leaks
-- expect: duckdb_databases\(…\) in FROM: it reads or changes the engine itself
-- bounds: default
select lower(path) as address, 1 as score from duckdb_databases()
