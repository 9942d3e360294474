// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title TradeLog
/// @notice Stand-in only: a perpetuals venue reduced to its `Trade` event, which the sample scoring policy
/// (scripts/sample-policy/) and the tests score. Not deployed on a rollup.
contract TradeLog {
    /// @notice `trader` traded `notional` (18 decimals) at `leverage`.
    event Trade(address indexed trader, uint256 notional, uint16 leverage);

    /// @notice Emits one `Trade` per entry.
    function trade(address[] calldata traders, uint256[] calldata notionals, uint16[] calldata leverages) external {
        for (uint256 i = 0; i < traders.length; i++) {
            emit Trade(traders[i], notionals[i], leverages[i]);
        }
    }
}
