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

    /// @notice Emits `count` trades for the benchmark, cycling through `traders` addresses from `firstTrader`
    /// on, the `k`-th with notional `notional + k` and leverage `1 + k % 50`.
    function burst(uint160 firstTrader, uint32 traders, uint32 count, uint256 notional) external {
        for (uint256 k = 0; k < count; k++) {
            emit Trade(address(firstTrader + uint160(k % traders)), notional + k, uint16(1 + (k % 50)));
        }
    }

    /// @notice As `burst`, but the `i`-th of `traders` addresses is the low 20 bytes of `keccak256(i)`:
    /// spread over the address space as real ones are, not consecutive. The `k`-th trade is by trader
    /// `(firstIndex + k) % traders`.
    function burstSpread(uint32 firstIndex, uint32 traders, uint32 count, uint256 notional) external {
        for (uint256 k = 0; k < count; k++) {
            uint256 index = (uint256(firstIndex) + k) % traders;
            emit Trade(address(uint160(uint256(keccak256(abi.encode(index))))), notional + k, uint16(1 + (k % 50)));
        }
    }
}
