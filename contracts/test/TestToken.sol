// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "solady/src/tokens/ERC20.sol";

/// @title TestToken
/// @notice Stand-in only: an ERC-20 that the stand-in router's EVM routes move, minted to whoever the test
/// or the rehearsal names. Not deployed on a rollup.
contract TestToken is ERC20 {
    constructor(address holder, uint256 supply) {
        _mint(holder, supply);
    }

    /// @notice The token's name.
    function name() public pure override returns (string memory) {
        return "Test Token";
    }

    /// @notice The token's symbol.
    function symbol() public pure override returns (string memory) {
        return "TEST";
    }
}
