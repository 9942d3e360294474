// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

/// @title BridgeStandIn
/// @notice Stand-in only: the contract an `evm_tx` of the stand-in router calls, as a bridge's entry point
/// would be: it pulls the approved tokens from the sender and records where they go. Not deployed on a rollup.
contract BridgeStandIn {
    /// @notice `amount` of `token` left `from` for `recipient` on `destChain`.
    event Deposited(address indexed from, address indexed token, uint256 amount, string destChain, string recipient);

    /// @notice Pulls `amount` of `token` from the caller (approved beforehand) and records the transfer.
    function deposit(address token, uint256 amount, string calldata destChain, string calldata recipient) external payable {
        SafeTransferLib.safeTransferFrom(token, msg.sender, address(this), amount);
        emit Deposited(msg.sender, token, amount, destChain, recipient);
    }
}
