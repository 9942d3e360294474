// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {SSTORE2} from "solady/src/utils/SSTORE2.sol";
import {
    IVipScore,
    CreateStage,
    FinalizeStage,
    UpdateScore,
    PermissionDenied,
    ZeroStage,
    AddrsAndAmountsLengthMistmatch,
    StageNotFound,
    StageFinalized,
    PreviousStageNotFinalized
} from "./IVipScore.sol";

/// @title VipScore
/// @notice A rollup's scoring contract for Initia's VIP program: one uint64 score per address per stage.
/// Exactly one stage is open at a time; the allow list writes its scores, then finalizes it, which opens
/// the next. A finalized stage never changes again.
/// @dev A drop-in for the reference contract (see IVipScore): its ABI, its file-level events and errors
/// (re-exported by this file, so `import "src/VipScore.sol"` brings them in by their bare names), and its
/// `UpdateScore` event for every entry written. Storage is laid out for gas:
/// - one slot per (stage, address) holds `amount | index << 64`, so a write is one SLOAD and one SSTORE;
/// - the stage total is kept on the stack during a batch and written once per transaction;
/// - the list of addresses in first-scored order, which `getScores` pages through, costs 20 bytes of
///   contract code per address (SSTORE2 chunks) for batches, instead of a 22,100-gas slot each;
///   single writes and small batches, where a chunk's fixed cost does not pay off, use a slot per address;
/// - opening the next stage only bumps `_openStage`: a stage's record is derived, not created;
/// - the stage's write count, which `finalizeStageAt` fences on, sits in the top bits of the stage record's
///   slot, which every write already stores: counting costs no extra SSTORE.
contract VipScore is IVipScore {
    /// @notice The largest `limit` that `getScores` serves in one call. Readers that page with 500 are unaffected.
    uint64 public constant MAX_PAGE_LIMIT = 1000;

    uint256 private constant _MASK64 = 0xffffffffffffffff;

    /// @dev A transaction that appends at least this many addresses stores them in a code chunk:
    /// below it, 22,100 gas per slot is cheaper than a chunk's ~54,000 gas of fixed cost.
    uint256 private constant _MIN_CHUNK_LENGTH = 4;

    /// @dev Addresses per chunk: (24,576-byte contract size limit - the STOP byte SSTORE2 prepends) / 20.
    uint256 private constant _MAX_CHUNK_LENGTH = 1228;

    uint256 private constant _SET = 0;
    uint256 private constant _INCREASE = 1;
    uint256 private constant _DECREASE = 2;

    /// @dev Where the single-entry functions `(uint64 stage, address addr, uint64 amount)` keep `addr` and
    /// `amount` in calldata: after the 4-byte selector and one word each.
    uint256 private constant _SINGLE_ADDR_OFFSET = 0x24;
    uint256 private constant _SINGLE_AMOUNT_OFFSET = 0x44;

    uint256 private constant _OK = 0;
    uint256 private constant _SCORE_OVERFLOW = 1;
    uint256 private constant _SCORE_UNDERFLOW = 2;
    uint256 private constant _TOTAL_OVERFLOW = 3;

    /// @inheritdoc IVipScore
    uint64 public immutable initStage;

    /// @dev Shares one slot with `_allowListSize`.
    uint64 private _openStage;
    uint64 private _allowListSize;

    /// @inheritdoc IVipScore
    mapping(address => bool) public allowList;

    /// @dev stage => totalScore | scoreCount << 64 | chunkCount << 128 | writeCount << 192, 64 bits each
    mapping(uint64 => uint256) private _stageData;

    /// @dev stage => address => amount | index << 64, where index is 1-based and 0 means "never scored"
    mapping(uint64 => mapping(address => uint256)) private _scores;

    /// @dev stage => index => address, for the indexes that small writes appended
    mapping(uint64 => mapping(uint256 => address)) private _keys;

    /// @dev stage => chunk number => SSTORE2 pointer | firstIndex << 160 | length << 224
    mapping(uint64 => mapping(uint256 => uint256)) private _chunks;

    /// @notice Creates the contract with `startStage` open and the deployer on the allow list.
    /// @param startStage The program's current stage; must be non-zero.
    constructor(uint64 startStage) {
        if (startStage == 0) revert ZeroStage();
        initStage = startStage;
        _openStage = startStage;
        _allowListSize = 1;
        allowList[msg.sender] = true;
        emit AllowListAdded(msg.sender);
        emit CreateStage(startStage);
    }

    // --- Writes ---------------------------------------------------------------------------

    /// @inheritdoc IVipScore
    /// @dev As in the reference: the caller's permission is checked first, then the lengths; a later
    /// duplicate in `addrs` wins; the zero address is skipped; every other entry emits `UpdateScore` with
    /// the stage's running total. Reverts with `TotalScoreOverflow` rather than let that total wrap.
    function updateScores(uint64 stage, address[] calldata addrs, uint64[] calldata amounts) external {
        _checkAllowed();
        if (addrs.length != amounts.length) revert AddrsAndAmountsLengthMistmatch();
        uint256 addrsOffset;
        uint256 amountsOffset;
        assembly ("memory-safe") {
            addrsOffset := addrs.offset
            amountsOffset := amounts.offset
        }
        _apply(stage, addrsOffset, amountsOffset, addrs.length, _SET, true);
    }

    /// @inheritdoc IVipScore
    function updateScore(uint64 stage, address addr, uint64 amount) external {
        (amount); // Read by `_apply` straight from calldata.
        _writeOne(stage, addr, _SET);
    }

    /// @inheritdoc IVipScore
    /// @dev Reverts with `ScoreOverflow` if the score would leave the uint64 range.
    function increaseScore(uint64 stage, address addr, uint64 amount) external {
        (amount);
        _writeOne(stage, addr, _INCREASE);
    }

    /// @inheritdoc IVipScore
    /// @dev Reverts with `ScoreUnderflow` if `amount` exceeds the current score.
    function decreaseScore(uint64 stage, address addr, uint64 amount) external {
        (amount);
        _writeOne(stage, addr, _DECREASE);
    }

    /// @inheritdoc IVipScore
    /// @dev Only the open stage can be finalized, once. Naming the stage after the open one reverts with
    /// `PreviousStageNotFinalized(openStage)`; a finalized one with `StageFinalized`; any other `StageNotFound`.
    function finalizeStage(uint64 stage) external {
        _finalize(stage, false, 0);
    }

    /// @inheritdoc IVipScore
    /// @dev `finalizeStage` with a fence: the stage checks come first, as there, then `StageChanged` if a
    /// write landed since the caller read `writeCount(stage)`.
    function finalizeStageAt(uint64 stage, uint64 expectedWriteCount) external {
        _finalize(stage, true, expectedWriteCount);
    }

    /// @inheritdoc IVipScore
    /// @dev Adding an address that is already listed changes nothing and emits nothing.
    function addAllowList(address addr) external {
        _checkAllowed();
        if (addr == address(0)) revert ZeroAddress();
        if (allowList[addr]) return;
        allowList[addr] = true;
        ++_allowListSize;
        emit AllowListAdded(addr);
    }

    /// @inheritdoc IVipScore
    /// @dev Refuses to remove an address that is not listed, and the last listed address.
    function removeAllowList(address addr) external {
        _checkAllowed();
        if (!allowList[addr]) revert NotOnAllowList(addr);
        if (_allowListSize == 1) revert LastAllowListAddress(addr);
        allowList[addr] = false;
        --_allowListSize;
        emit AllowListRemoved(addr);
    }

    // --- Reads ----------------------------------------------------------------------------

    /// @inheritdoc IVipScore
    /// @dev Returns only entries that exist (no zero padding). `limit` above `MAX_PAGE_LIMIT` reverts with
    /// `PageLimitTooLarge`, so no call can exhaust memory. A stage never opened has no entries.
    function getScores(uint64 stage, uint64 offset, uint64 limit) external view returns (ScoreResponse[] memory) {
        if (limit > MAX_PAGE_LIMIT) revert PageLimitTooLarge(limit, MAX_PAGE_LIMIT);
        uint256 data = _stageData[stage];
        uint256 count = (data >> 64) & _MASK64;
        if (offset >= count) return new ScoreResponse[](0);
        uint256 length = count - offset < limit ? count - offset : limit;
        ScoreResponse[] memory page = new ScoreResponse[](length);
        _fillPage(stage, (data >> 128) & _MASK64, uint256(offset) + 1, page);
        return page;
    }

    /// @inheritdoc IVipScore
    function stages(uint64 number) external view returns (uint64 stage, uint64 totalScore, bool isFinalized) {
        uint64 open = _openStage;
        if (number < initStage || number > open) return (0, 0, false);
        return (number, uint64(_stageData[number]), number < open);
    }

    /// @inheritdoc IVipScore
    function scores(uint64 stage, address addr) external view returns (bool isIndexed, uint64 amount) {
        uint256 packed = _scores[stage][addr];
        return (packed >> 64 != 0, uint64(packed));
    }

    /// @inheritdoc IVipScore
    function openStage() external view returns (uint64) {
        return _openStage;
    }

    /// @inheritdoc IVipScore
    function scoreCount(uint64 stage) external view returns (uint64) {
        return uint64(_stageData[stage] >> 64);
    }

    /// @inheritdoc IVipScore
    function allowListSize() external view returns (uint64) {
        return _allowListSize;
    }

    /// @inheritdoc IVipScore
    function writeCount(uint64 stage) external view returns (uint64) {
        return uint64(_stageData[stage] >> 192);
    }

    // --- Internals ------------------------------------------------------------------------

    /// @dev A single-entry write: the batch path over an array of one, the function's own `(addr, amount)`
    /// arguments in calldata. Its `UpdateScore` is emitted here in Solidity (the batch loop logs in assembly),
    /// which is also what lists the event in the compiled ABI, as the reference's is.
    function _writeOne(uint64 stage, address addr, uint256 op) private {
        _checkAllowed();
        (bool written, uint256 score, uint256 total) =
            _apply(stage, _SINGLE_ADDR_OFFSET, _SINGLE_AMOUNT_OFFSET, 1, op, false);
        if (written && addr != address(0)) emit UpdateScore(addr, stage, uint64(score), uint64(total));
    }

    /// @dev The one write path, after the caller's permission was checked. Entries are read straight from
    /// calldata: `n` addresses at `addrsOffset` and `n` amounts at `amountsOffset`, one word each. With
    /// `logEach`, every entry written emits `UpdateScore` from the loop. Returns whether the stage was open
    /// (so entries were written), and the last entry's score and the stage's total after it.
    function _apply(uint64 stage, uint256 addrsOffset, uint256 amountsOffset, uint256 n, uint256 op, bool logEach)
        private
        returns (bool written, uint256 score, uint256 total)
    {
        uint64 open = _openStage;
        if (stage != open) {
            // The reference skips zero-address entries before it looks at the stage, so a call that writes
            // nothing succeeds whatever the stage; any real entry reverts here, as there.
            _revertIfAnyEntry(stage, open, addrsOffset, amountsOffset, n);
            return (false, 0, 0);
        }
        uint256 data = _stageData[stage];
        bytes memory appended = _newAddressBuffer(n);
        uint256 count;
        uint256 failure;
        uint256 at;
        (score, total, count, failure, at) = _writeAll(stage, addrsOffset, amountsOffset, n, op, logEach, data, appended);
        if (failure != _OK) _revertWriteFailure(stage, failure, addrsOffset + at, amountsOffset + at);
        _commit(stage, data, total, count, appended);
        written = true;
    }

    /// @dev For a write to a stage that is not open: reverts as the reference does at the first entry it
    /// would write (a malformed value first, as Solidity's decoder does; then `StageNotFound` or
    /// `StageFinalized`), and returns when every entry is for the zero address.
    function _revertIfAnyEntry(uint64 stage, uint64 open, uint256 addrsOffset, uint256 amountsOffset, uint256 n)
        private
        view
    {
        bool any;
        assembly ("memory-safe") {
            let end := shl(5, n)
            for { let i := 0 } lt(i, end) { i := add(i, 0x20) } {
                let addr := calldataload(add(addrsOffset, i))
                if or(shr(160, addr), shr(64, calldataload(add(amountsOffset, i)))) { revert(0x00, 0x00) }
                if addr {
                    any := 1
                    break
                }
            }
        }
        if (any) _revertNotOpen(stage, open);
    }

    /// @dev The hot loop, in assembly because Solidity's per-element overhead (bounds checks, an internal
    /// call) was about a thousand gas. Per entry: one keccak, one SLOAD, one SSTORE, one log. A newly scored address
    /// gets the next index and is appended to `appended`. On a failed check the loop stops and returns its
    /// kind and the calldata offset of the entry, for `_revertWriteFailure` to report.
    function _writeAll(
        uint64 stage,
        uint256 addrsOffset,
        uint256 amountsOffset,
        uint256 n,
        uint256 op,
        bool logEach,
        uint256 data,
        bytes memory appended
    ) private returns (uint256 score, uint256 total, uint256 count, uint256 failure, uint256 at) {
        bytes32 base = _scoresBase(stage);
        bytes32 topic = UpdateScore.selector;
        assembly ("memory-safe") {
            total := and(data, _MASK64)
            count := and(shr(64, data), _MASK64)
            let cursor := add(appended, 0x20)
            let end := shl(5, n)
            for { let i := 0 } lt(i, end) { i := add(i, 0x20) } {
                let addr := calldataload(add(addrsOffset, i))
                let amount := calldataload(add(amountsOffset, i))
                // Values that do not fit their ABI type: revert as Solidity's own decoder does.
                if or(shr(160, addr), shr(64, amount)) { revert(0x00, 0x00) }
                if iszero(addr) { continue }
                mstore(0x00, addr)
                mstore(0x20, base)
                let slot := keccak256(0x00, 0x40)
                let packed := sload(slot)
                let previous := and(packed, _MASK64)
                let index := shr(64, packed)
                score := amount
                if op {
                    switch op
                    case 1 {
                        score := add(previous, amount)
                        if gt(score, _MASK64) {
                            failure := _SCORE_OVERFLOW
                            at := i
                            break
                        }
                    }
                    default {
                        if gt(amount, previous) {
                            failure := _SCORE_UNDERFLOW
                            at := i
                            break
                        }
                        score := sub(previous, amount)
                    }
                }
                if iszero(index) {
                    count := add(count, 1)
                    index := count
                    mstore(cursor, shl(96, addr))
                    cursor := add(cursor, 20)
                }
                // `total` includes `previous`, so this cannot underflow.
                total := add(sub(total, previous), score)
                // Every entry's event carries the running total, so it must fit at every step, not only at the end.
                if gt(total, _MASK64) {
                    failure := _TOTAL_OVERFLOW
                    at := i
                    break
                }
                sstore(slot, or(shl(64, index), score))
                if logEach {
                    mstore(0x00, score)
                    mstore(0x20, total)
                    log3(0x00, 0x40, topic, addr, stage)
                }
            }
            mstore(appended, sub(cursor, add(appended, 0x20)))
        }
    }

    /// @dev Reverts with the typed error for a failed entry. Storage still holds the score the entry saw.
    function _revertWriteFailure(uint64 stage, uint256 failure, uint256 addrAt, uint256 amountAt) private view {
        address addr;
        uint64 amount;
        assembly ("memory-safe") {
            addr := calldataload(addrAt)
            amount := calldataload(amountAt)
        }
        uint64 previous = uint64(_scores[stage][addr]);
        if (failure == _SCORE_OVERFLOW) revert ScoreOverflow(addr, previous, amount);
        if (failure == _SCORE_UNDERFLOW) revert ScoreUnderflow(addr, previous, amount);
        revert TotalScoreOverflow(stage);
    }

    /// @dev Stores the addresses a call appended (as chunks, or one slot each when few) and the stage record,
    /// from `data`, the record the call started from: its chunk count, plus the chunks stored now, and its
    /// write count, plus this call (every call that gets here counts, whatever it wrote).
    function _commit(uint64 stage, uint256 data, uint256 total, uint256 count, bytes memory appended) private {
        uint256 chunkCount = (data >> 128) & _MASK64;
        // 2^64 writes cannot happen, so the count cannot carry out of its 64 bits.
        uint256 writes = (data >> 192) + 1;
        uint256 added = appended.length / 20;
        uint256 firstIndex = count - added + 1;
        if (added >= _MIN_CHUNK_LENGTH) {
            chunkCount = _storeChunks(_chunks[stage], chunkCount, firstIndex, appended, added);
        } else {
            for (uint256 i; i < added; ++i) {
                _keys[stage][firstIndex + i] = _addressAt(appended, i);
            }
        }
        _stageData[stage] = total | (count << 64) | (chunkCount << 128) | (writes << 192);
    }

    /// @dev Writes `added` packed addresses as SSTORE2 chunks of at most `_MAX_CHUNK_LENGTH` and records them.
    function _storeChunks(
        mapping(uint256 => uint256) storage chunks,
        uint256 chunkCount,
        uint256 firstIndex,
        bytes memory appended,
        uint256 added
    ) private returns (uint256) {
        for (uint256 start; start < added; start += _MAX_CHUNK_LENGTH) {
            uint256 length = added - start < _MAX_CHUNK_LENGTH ? added - start : _MAX_CHUNK_LENGTH;
            // A view of `appended` from address `start` on: its length word overlays the 32 bytes before it,
            // which are saved and restored around the write.
            bytes memory piece;
            uint256 overlaid;
            assembly ("memory-safe") {
                piece := add(appended, mul(start, 20))
                overlaid := mload(piece)
                mstore(piece, mul(length, 20))
            }
            address pointer = SSTORE2.write(piece);
            assembly ("memory-safe") {
                mstore(piece, overlaid)
            }
            chunks[chunkCount] = uint256(uint160(pointer)) | ((firstIndex + start) << 160) | (length << 224);
            ++chunkCount;
        }
        return chunkCount;
    }

    /// @dev A buffer for up to `capacity` packed addresses. Memory is only paid for as it is written.
    function _newAddressBuffer(uint256 capacity) private pure returns (bytes memory buffer) {
        assembly ("memory-safe") {
            buffer := mload(0x40)
            mstore(buffer, 0)
            // 32 bytes of slack: each append writes a full word.
            mstore(0x40, add(buffer, add(0x40, mul(capacity, 20))))
        }
    }

    function _addressAt(bytes memory packed, uint256 i) private pure returns (address addr) {
        assembly ("memory-safe") {
            addr := shr(96, mload(add(add(packed, 0x20), mul(i, 20))))
        }
    }

    /// @dev The base slot of `_scores[stage]`, so each address costs one keccak instead of two.
    function _scoresBase(uint64 stage) private pure returns (bytes32 base) {
        assembly ("memory-safe") {
            mstore(0x00, stage)
            mstore(0x20, _scores.slot)
            base := keccak256(0x00, 0x40)
        }
    }

    /// @dev Fills `page` with the entries of `stage` from `index` on. Entries live either in a chunk or in
    /// `_keys`; a cursor walks the chunks forward, so a page costs one binary search, not one per entry.
    function _fillPage(uint64 stage, uint256 chunkCount, uint256 index, ScoreResponse[] memory page) private view {
        mapping(uint256 => uint256) storage chunks = _chunks[stage];
        // `next` is the first chunk that starts after `index`; `current` the one before it (0 if none).
        uint256 next = _chunksStartingAtOrBefore(chunks, chunkCount, index);
        uint256 current = next == 0 ? 0 : chunks[next - 1];
        uint256 nextFirst = next < chunkCount ? _chunkFirst(chunks[next]) : type(uint256).max;
        for (uint256 i; i < page.length; (++i, ++index)) {
            if (index >= nextFirst) {
                current = chunks[next];
                ++next;
                nextFirst = next < chunkCount ? _chunkFirst(chunks[next]) : type(uint256).max;
            }
            address addr = _entryAddress(stage, current, index);
            page[i] = ScoreResponse({addr: addr, amount: uint64(_scores[stage][addr]), index: uint64(index)});
        }
    }

    /// @dev The address at `index`: from `chunk` when the chunk covers it, else from `_keys`.
    function _entryAddress(uint64 stage, uint256 chunk, uint256 index) private view returns (address) {
        uint256 first = _chunkFirst(chunk);
        if (chunk != 0 && index < first + (chunk >> 224)) {
            uint256 start = (index - first) * 20;
            return address(bytes20(SSTORE2.read(address(uint160(chunk)), start, start + 20)));
        }
        return _keys[stage][index];
    }

    /// @dev How many of the stage's chunks start at or before `index` (binary search: chunks are in index order).
    function _chunksStartingAtOrBefore(mapping(uint256 => uint256) storage chunks, uint256 chunkCount, uint256 index)
        private
        view
        returns (uint256 low)
    {
        uint256 high = chunkCount;
        while (low < high) {
            uint256 mid = (low + high) >> 1;
            if (_chunkFirst(chunks[mid]) <= index) low = mid + 1;
            else high = mid;
        }
    }

    function _chunkFirst(uint256 chunk) private pure returns (uint256) {
        return (chunk >> 160) & _MASK64;
    }

    /// @dev `finalizeStage` and `finalizeStageAt`: the permission, then the stage, then (when `fenced`) the
    /// write count; then the stage is finalized and the next one opened.
    function _finalize(uint64 stage, bool fenced, uint64 expectedWriteCount) private {
        _checkAllowed();
        uint64 open = _openStage;
        if (stage != open) {
            if (stage > open && stage - 1 == open) revert PreviousStageNotFinalized(open);
            _revertNotOpen(stage, open);
        }
        if (fenced) {
            uint64 writes = uint64(_stageData[stage] >> 192);
            if (writes != expectedWriteCount) revert StageChanged(stage, expectedWriteCount, writes);
        }
        uint64 next = stage + 1;
        _openStage = next;
        emit FinalizeStage(stage);
        emit CreateStage(next);
    }

    function _checkAllowed() private view {
        if (!allowList[msg.sender]) revert PermissionDenied(msg.sender);
    }

    function _revertNotOpen(uint64 stage, uint64 open) private view {
        if (stage < initStage || stage > open) revert StageNotFound(stage);
        revert StageFinalized(stage);
    }
}
