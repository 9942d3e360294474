// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CreateStage, FinalizeStage, UpdateScore, PermissionDenied, ZeroStage, AddrsAndAmountsLengthMistmatch, StageNotFound, StageFinalized} from "../../contracts/IVipScore.sol";

/// @notice The reference contract's observable behaviour (initia-labs/vip-score-evm at f96ef11), written
/// from its documented semantics for the differential test, quirks included:
/// - every write checks the caller first; then a write to the zero address returns at once, before the
///   stage is looked at (so an empty or all-zero batch succeeds at any stage);
/// - a stage exists once created (the start stage, then each `finalizeStage(s)` creates `s + 1`); writing to a
///   missing one is `StageNotFound`, to a finalized one `StageFinalized`;
/// - `finalizeStage` succeeds again on a finalized stage (it re-emits `FinalizeStage`);
/// - a set (`updateScore`, each entry of `updateScores`) moves the total by the difference and narrows it to
///   uint64 unchecked, so it wraps; `increaseScore`/`decreaseScore` use checked arithmetic and panic instead;
/// - every entry written emits `UpdateScore(addr, stage, newScore, totalAfterIt)`, duplicates included;
/// - `getScores` returns exactly `limit` entries, zero-padded past the last one, and computes each index as
///   `offset + i + 1` in uint64 (which panics on overflow);
/// - the allow list takes any address, the zero address included, and can be emptied.
contract ReferenceModel {
    struct Entry {
        address addr;
        uint64 amount;
        uint64 index;
    }

    struct StageRecord {
        uint64 stage;
        uint64 totalScore;
        bool isFinalized;
    }

    struct ScoreRecord {
        bool isIndexed;
        uint64 amount;
    }

    uint64 public initStage;
    mapping(uint64 => StageRecord) public stages;
    mapping(uint64 => mapping(address => ScoreRecord)) public scores;
    mapping(address => bool) public allowList;
    mapping(uint64 => address[]) private _order;

    constructor(uint64 start) {
        allowList[msg.sender] = true;
        initStage = start;
        _create(start);
    }

    modifier allowed() {
        if (!allowList[msg.sender]) revert PermissionDenied(msg.sender);
        _;
    }

    function updateScores(uint64 stage, address[] calldata addrs, uint64[] calldata amounts) external allowed {
        if (addrs.length != amounts.length) revert AddrsAndAmountsLengthMistmatch();
        for (uint256 i; i < addrs.length; ++i) {
            _set(stage, addrs[i], amounts[i]);
        }
    }

    function updateScore(uint64 stage, address addr, uint64 amount) external allowed {
        _set(stage, addr, amount);
    }

    function increaseScore(uint64 stage, address addr, uint64 amount) external allowed {
        if (addr == address(0)) return;
        ScoreRecord storage score = _writable(stage, addr);
        stages[stage].totalScore += amount;
        score.amount += amount;
        emit UpdateScore(addr, stage, score.amount, stages[stage].totalScore);
    }

    function decreaseScore(uint64 stage, address addr, uint64 amount) external allowed {
        if (addr == address(0)) return;
        ScoreRecord storage score = _writable(stage, addr);
        stages[stage].totalScore -= amount;
        score.amount -= amount;
        emit UpdateScore(addr, stage, score.amount, stages[stage].totalScore);
    }

    function finalizeStage(uint64 stage) external allowed {
        if (stages[stage].stage == 0) revert StageNotFound(stage);
        stages[stage].isFinalized = true;
        emit FinalizeStage(stage);
        _create(stage + 1);
    }

    function addAllowList(address addr) external allowed {
        allowList[addr] = true;
    }

    function removeAllowList(address addr) external allowed {
        allowList[addr] = false;
    }

    function getScores(uint64 stage, uint64 offset, uint64 limit) external view returns (Entry[] memory page) {
        page = new Entry[](limit);
        address[] storage order = _order[stage];
        for (uint64 i; i < limit; ++i) {
            uint64 index = offset + i + 1;
            if (index > order.length) break;
            address addr = order[index - 1];
            page[i] = Entry(addr, scores[stage][addr].amount, index);
        }
    }

    /// @notice The stage's total after a set of `amounts` to `addrs` in order, without wrapping, and whether
    /// it leaves the uint64 range at any step (where the reference would wrap). Duplicates see the value an
    /// earlier entry of the same batch set.
    function totalPath(uint64 stage, address[] calldata addrs, uint64[] calldata amounts) external view returns (bool leaves) {
        uint256 total = stages[stage].totalScore;
        // Every step's total is at most the starting one plus the amounts so far: the common case needs no walk.
        uint256 bound = total;
        for (uint256 i; i < amounts.length; ++i) {
            bound += amounts[i];
        }
        if (bound <= type(uint64).max) return false;
        for (uint256 i; i < addrs.length; ++i) {
            if (addrs[i] == address(0)) continue;
            uint256 previous = scores[stage][addrs[i]].amount;
            for (uint256 j = i; j > 0; --j) {
                if (addrs[j - 1] == addrs[i]) {
                    previous = amounts[j - 1];
                    break;
                }
            }
            total = total - previous + amounts[i];
            if (total > type(uint64).max) return true;
        }
    }

    function _set(uint64 stage, address addr, uint64 amount) private {
        if (addr == address(0)) return;
        ScoreRecord storage score = _writable(stage, addr);
        uint64 previous = score.amount;
        score.amount = amount;
        unchecked {
            stages[stage].totalScore = stages[stage].totalScore - previous + amount;
        }
        emit UpdateScore(addr, stage, amount, stages[stage].totalScore);
    }

    function _writable(uint64 stage, address addr) private returns (ScoreRecord storage score) {
        if (stages[stage].stage == 0) revert StageNotFound(stage);
        if (stages[stage].isFinalized) revert StageFinalized(stage);
        score = scores[stage][addr];
        if (!score.isIndexed) {
            score.isIndexed = true;
            _order[stage].push(addr);
        }
    }

    function _create(uint64 stage) private {
        if (stage == 0) revert ZeroStage();
        if (stages[stage].stage != 0) return;
        stages[stage] = StageRecord(stage, 0, false);
        emit CreateStage(stage);
    }
}
