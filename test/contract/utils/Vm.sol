// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The Foundry cheatcodes these tests use, as Hardhat's Solidity test runner serves them.
/// forge-std cannot be installed here (its home is not a package registry), so the interface lives in the repo.
interface Vm {
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    function prank(address sender) external;
    function startPrank(address sender) external;
    function stopPrank() external;
    function expectRevert(bytes calldata revertData) external;
    function expectRevert() external;
    function expectRevert(bytes4 revertData) external;
    function expectEmit(address emitter) external;
    function expectEmit() external;
    function expectEmit(bool checkTopic1, bool checkTopic2, bool checkTopic3, bool checkData, address emitter) external;
    function recordLogs() external;
    function getRecordedLogs() external returns (Log[] memory);
    function assume(bool condition) external pure;
}
