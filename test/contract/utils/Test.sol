// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LibString} from "solady/src/utils/LibString.sol";
import {Vm} from "./Vm.sol";

/// @notice A minimal test base: the cheatcode handle, assertions that say what differed, `bound`,
/// and the target lists the invariant fuzzer reads.
abstract contract Test {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    address[] private _targetContracts;
    address[] private _targetSenders;

    /// @notice Read by the invariant fuzzer: the contracts whose functions it calls.
    function targetContracts() public view returns (address[] memory) {
        return _targetContracts;
    }

    /// @notice Read by the invariant fuzzer: the senders it calls from.
    function targetSenders() public view returns (address[] memory) {
        return _targetSenders;
    }

    function targetContract(address target) internal {
        _targetContracts.push(target);
    }

    function targetSender(address sender) internal {
        _targetSenders.push(sender);
    }

    function assertEq(uint256 actual, uint256 expected, string memory what) internal pure {
        if (actual != expected) {
            revert(string.concat(what, ": got ", LibString.toString(actual), ", want ", LibString.toString(expected)));
        }
    }

    function assertEq(address actual, address expected, string memory what) internal pure {
        if (actual != expected) {
            revert(string.concat(what, ": got ", LibString.toHexString(actual), ", want ", LibString.toHexString(expected)));
        }
    }

    function assertEq(bytes32 actual, bytes32 expected, string memory what) internal pure {
        if (actual != expected) {
            revert(string.concat(what, ": got ", LibString.toHexString(uint256(actual)), ", want ", LibString.toHexString(uint256(expected))));
        }
    }

    function assertTrue(bool condition, string memory what) internal pure {
        if (!condition) revert(string.concat(what, ": expected true"));
    }

    function assertFalse(bool condition, string memory what) internal pure {
        if (condition) revert(string.concat(what, ": expected false"));
    }

    // forge-std's two-argument forms, so tests written for forge-std (the reference's own) run unchanged.

    function assertEq(uint256 actual, uint256 expected) internal pure {
        assertEq(actual, expected, "assertEq");
    }

    function assertEq(address actual, address expected) internal pure {
        assertEq(actual, expected, "assertEq");
    }

    function assertTrue(bool condition) internal pure {
        assertTrue(condition, "assertTrue");
    }

    function assertFalse(bool condition) internal pure {
        assertFalse(condition, "assertFalse");
    }

    /// @dev Maps any `x` into [min, max] without discarding fuzz inputs.
    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        require(min <= max, "bound: min > max");
        return min + (x % (max - min + 1));
    }
}
