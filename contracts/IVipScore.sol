// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// --- The reference's events and errors -------------------------------------------------
// Declared at file level with the reference's exact signatures, as the reference declares them, so code
// written for it (tests that `import "src/VipScore.sol"` and say `StageFinalized.selector` or
// `emit UpdateScore(...)`) compiles against this contract unchanged.

/// @notice A stage was opened for writes.
event CreateStage(uint64 stage);

/// @notice A stage was finalized; it never changes again.
event FinalizeStage(uint64 stage);

/// @notice The score of `addr` in `stage` is now `score`; the stage's total is `totalScore`.
/// Emitted for every entry a write applies, `updateScores` included, in order; `totalScore` is the
/// stage's running total after that entry.
event UpdateScore(address indexed addr, uint64 indexed stage, uint64 score, uint64 totalScore);

/// @notice The caller `deniedAddress` is not on the allow list.
error PermissionDenied(address deniedAddress);

/// @notice Stage 0 cannot exist: the start stage must be non-zero.
error ZeroStage();

/// @notice `updateScores` was given arrays of different lengths. (The misspelling is the reference's.)
error AddrsAndAmountsLengthMistmatch();

/// @notice `stage` was never opened: it is before the start stage or after the open stage.
error StageNotFound(uint64 stage);

/// @notice `stage` is finalized and cannot change.
error StageFinalized(uint64 stage);

/// @notice `stage`, the stage before the one named in the call, is still open: finalize it first.
error PreviousStageNotFinalized(uint64 stage);

/// @title IVipScore
/// @notice The scoring contract's interface as the VIP program's off-chain readers call it.
/// @dev Every function, event and error of the reference contract (initia-labs/vip-score-evm)
/// keeps its exact signature, so the agent that snapshots finalized stages reads this contract
/// unchanged. The reference's events and errors are declared above, at file level, as in the reference;
/// the members here marked "Extension" are additions that the reference has no equivalent of.
interface IVipScore {
    /// @notice One entry of a `getScores` page.
    /// @param addr The scored address.
    /// @param amount Its score in the stage.
    /// @param index Its 1-based position in the stage, in the order addresses were first scored.
    struct ScoreResponse {
        address addr;
        uint64 amount;
        uint64 index;
    }

    // --- Extension events -----------------------------------------------------------------

    /// @notice Extension: `addr` was put on the allow list.
    event AllowListAdded(address indexed addr);

    /// @notice Extension: `addr` was taken off the allow list.
    event AllowListRemoved(address indexed addr);

    // --- Extension errors -----------------------------------------------------------------

    /// @notice Extension: decreasing `addr`'s score `score` by `amount` would go below zero.
    error ScoreUnderflow(address addr, uint64 score, uint64 amount);

    /// @notice Extension: increasing `addr`'s score `score` by `amount` would exceed the uint64 range.
    error ScoreOverflow(address addr, uint64 score, uint64 amount);

    /// @notice Extension: the total score of `stage` would exceed the uint64 range.
    error TotalScoreOverflow(uint64 stage);

    /// @notice Extension: `getScores` was asked for `limit` entries; at most `maxLimit` are served per call.
    error PageLimitTooLarge(uint64 limit, uint64 maxLimit);

    /// @notice Extension: the zero address cannot be put on the allow list.
    error ZeroAddress();

    /// @notice Extension: `addr` is not on the allow list, so it cannot be removed from it.
    error NotOnAllowList(address addr);

    /// @notice Extension: `addr` is the only address on the allow list; removing it would lock the contract.
    error LastAllowListAddress(address addr);

    /// @notice Extension: `finalizeStageAt(stage, expectedWriteCount)` found `stage` at `writeCount` writes, not
    /// the `expectedWriteCount` the finalizer read when it proved the stage equal to its final file: a write
    /// landed after that proof (a paused or second host's stale push), so the stage may no longer be the
    /// proved one and is left open. The write count, not the total and count, because a write that changes
    /// scores can keep both (A + 1 and B - 1 keep the total; a known address adds none to the count).
    error StageChanged(uint64 stage, uint64 expectedWriteCount, uint64 writeCount);

    // --- Reference functions --------------------------------------------------------------

    /// @notice The stage the contract was created with.
    function initStage() external view returns (uint64);

    /// @notice A stage's record; `stage` is 0 for a stage that was never opened.
    function stages(uint64) external view returns (uint64 stage, uint64 totalScore, bool isFinalized);

    /// @notice An address's score in a stage; `isIndexed` tells whether it was ever scored there.
    function scores(uint64, address) external view returns (bool isIndexed, uint64 amount);

    /// @notice Whether an address may write scores and finalize stages.
    function allowList(address) external view returns (bool);

    /// @notice Sets the scores of `addrs` in the open `stage` to `amounts` (absolute values).
    function updateScores(uint64 stage, address[] calldata addrs, uint64[] calldata amounts) external;

    /// @notice Sets the score of `addr` in the open `stage` to `amount`.
    function updateScore(uint64 stage, address addr, uint64 amount) external;

    /// @notice Adds `amount` to the score of `addr` in the open `stage`.
    function increaseScore(uint64 stage, address addr, uint64 amount) external;

    /// @notice Subtracts `amount` from the score of `addr` in the open `stage`.
    function decreaseScore(uint64 stage, address addr, uint64 amount) external;

    /// @notice Finalizes the open `stage` and opens `stage + 1`.
    function finalizeStage(uint64 stage) external;

    /// @notice Puts `addr` on the allow list.
    function addAllowList(address addr) external;

    /// @notice Takes `addr` off the allow list.
    function removeAllowList(address addr) external;

    /// @notice Up to `limit` entries of `stage` from position `offset` (0-based), in first-scored order.
    function getScores(uint64 stage, uint64 offset, uint64 limit) external view returns (ScoreResponse[] memory);

    // --- Extension functions --------------------------------------------------------------

    /// @notice Extension: the one stage that accepts writes now.
    function openStage() external view returns (uint64);

    /// @notice Extension: how many distinct addresses were ever scored in `stage`.
    function scoreCount(uint64 stage) external view returns (uint64);

    /// @notice Extension: how many addresses are on the allow list.
    function allowListSize() external view returns (uint64);

    /// @notice Extension: how many write calls `stage` has taken: every `updateScores`, `updateScore`,
    /// `increaseScore` and `decreaseScore` that succeeded on it while it was open counts one, whatever it
    /// wrote (an empty batch, or one of zero addresses only, too). 0 for a stage never opened. A finalizer
    /// reads it at the block where it proved the stage, for `finalizeStageAt`.
    function writeCount(uint64 stage) external view returns (uint64);

    /// @notice Extension: `finalizeStage(stage)`, only if `stage` has taken exactly `expectedWriteCount`
    /// writes (see `writeCount`); otherwise reverts with `StageChanged` and leaves the stage open. The same
    /// checks first (permission, then `PreviousStageNotFinalized`, `StageNotFound`, `StageFinalized`), the
    /// same events.
    function finalizeStageAt(uint64 stage, uint64 expectedWriteCount) external;
}
