-- @policy hostile
-- @from-stage 1
-- @source trades 0x5fbdb2315678afecb367f032d93f642f64180aa3 event Trade(address indexed trader, uint256 notional, uint16 leverage)
-- class: metadata leaks
-- expect: version: it reads the engine's settings, not the chain
-- bounds: default
select trader as address, length(version()) as score from trades group by trader
