// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "../../contracts/VipScore.sol";
import {LibString} from "solady/src/utils/LibString.sol";
import {ReferenceModel} from "./ReferenceModel.sol";
import {Test} from "./utils/Test.sol";
import {Vm} from "./utils/Vm.sol";

/// @notice Runs VipScore and a model of the reference side by side on the same operations, from the same
/// senders, and compares every observable after each one: whether the call reverts and with what, the
/// `UpdateScore` log stream, `stages`, `scores`, every `getScores` page (the model's non-padding entries),
/// and `allowList`. The intentional differences are the `Difference` cases below, each an explicit
/// expectation; anything else that differs fails.
contract DifferentialHandler is Test {
    /// @notice The documented, intentional differences (README, "The scoring contract").
    enum Difference {
        None,
        /// D1: `finalizeStage` of a finalized stage: the reference succeeds again; VipScore reverts `StageFinalized`.
        RefinalizeRefused,
        /// D2: `finalizeStage(open + 1)`: both revert; the reference says `StageNotFound(open + 1)`,
        /// VipScore `PreviousStageNotFinalized(open)`.
        FinalizeNextNamesTheOpenStage,
        /// D3: a set that takes the stage total past uint64: the reference wraps it; VipScore reverts
        /// `TotalScoreOverflow` (the model is not run: its state would be the wrapped one).
        TotalNeverWraps,
        /// D4: an increase or decrease out of range: both revert; the reference panics (0x11), VipScore
        /// names it (`ScoreOverflow`, `ScoreUnderflow`, `TotalScoreOverflow`).
        OutOfRangeNamed,
        /// D5 (K3): `addAllowList(address(0))`: the reference lists it; VipScore reverts `ZeroAddress`.
        ZeroAddressNotListed,
        /// D6 (K4): `removeAllowList` of an unlisted address: the reference does nothing; VipScore reverts
        /// `NotOnAllowList`.
        UnlistedRemovalRefused,
        /// D7: removing the last listed address: the reference empties the list for good; VipScore reverts
        /// `LastAllowListAddress` (the model is not run).
        LastAddressKept
    }

    uint64 public constant START = 5;
    uint256 internal constant POOL = 10;
    address internal constant OUTSIDER = address(0xBAD);
    /// @dev Addresses per SSTORE2 chunk in VipScore: a batch with more new ones spans a chunk boundary.
    uint256 internal constant CHUNK = 1228;

    VipScore public ours;
    ReferenceModel public model;
    address[] internal _pool;
    address[] internal _senders;
    uint256 internal _fresh;
    uint256 public bigBatches;
    uint256 public calls;
    mapping(uint256 => uint256) public seen; // Difference => how many times it came up

    constructor() {
        ours = new VipScore(START);
        model = new ReferenceModel(START);
        _pool.push(address(0));
        for (uint256 i = 1; i < POOL; ++i) {
            _pool.push(address(uint160(0x1000 + i)));
        }
        _senders.push(address(this));
        _senders.push(OUTSIDER);
        _senders.push(_pool[1]);
        _senders.push(_pool[2]);
    }

    // --- Operations ---------------------------------------------------------------------------

    /// @notice A small batch over the pool: duplicates, zero addresses, small and huge amounts, and now and
    /// then arrays of different lengths; at any stage around the open one, from any sender.
    function updateScoresSmall(uint256 seed, uint8 length, uint8 stagePick, uint8 senderPick) external {
        uint256 n = bound(length, 0, 8);
        uint256 m = seed % 13 == 0 ? n + 1 : n;
        address[] memory addrs = new address[](n);
        uint64[] memory amounts = new uint64[](m);
        for (uint256 i; i < n; ++i) {
            addrs[i] = _pool[uint256(keccak256(abi.encode(seed, i, "a"))) % POOL];
        }
        for (uint256 i; i < m; ++i) {
            amounts[i] = _amount(uint256(keccak256(abi.encode(seed, i, "v"))));
        }
        _updateScores(_stage(stagePick), addrs, amounts, _sender(senderPick));
    }

    /// @notice A batch of new addresses (4 to 60, or, twice per run at most, more new ones than a chunk holds)
    /// with a few pool addresses among them, to the open stage: chunk boundaries between and within batches.
    function updateScoresLarge(uint256 seed, uint16 size) external {
        bool big = bigBatches < 2 && seed % 5 == 0;
        uint256 n = big ? CHUNK + 40 + bound(size, 1, 40) : bound(size, 4, 60);
        if (big) ++bigBatches;
        address[] memory addrs = new address[](n);
        uint64[] memory amounts = new uint64[](n);
        for (uint256 i; i < n; ++i) {
            addrs[i] = i % 97 == 3 ? _pool[i % POOL] : address(uint160(0x10_0000 + ++_fresh));
            amounts[i] = uint64(uint256(keccak256(abi.encode(seed, i))) % 1e9);
        }
        _updateScores(ours.openStage(), addrs, amounts, address(this));
    }

    /// @notice `updateScore` (op 0), `increaseScore` (1) or `decreaseScore` (2) of one pool address.
    function single(uint8 op, uint256 amountSeed, uint8 addrPick, uint8 stagePick, uint8 senderPick) external {
        uint64 stage = _stage(stagePick);
        address addr = _pool[addrPick % POOL];
        uint64 amount = _amount(amountSeed);
        address sender = _sender(senderPick);
        op %= 3;
        if (op == 0) {
            _updateScores(stage, _one(addr), _one(amount), sender, true);
            return;
        }
        bytes memory data = op == 1
            ? abi.encodeCall(VipScore.increaseScore, (stage, addr, amount))
            : abi.encodeCall(VipScore.decreaseScore, (stage, addr, amount));
        bool outOfRange = false;
        if (model.allowList(sender) && addr != address(0) && stage == ours.openStage()) {
            (, uint64 score) = model.scores(stage, addr);
            (, uint64 total,) = _modelStage(stage);
            outOfRange = op == 1 ? uint256(total) + amount > type(uint64).max : amount > score;
        }
        _compare(data, sender, outOfRange ? Difference.OutOfRangeNamed : Difference.None);
    }

    /// @notice `finalizeStage` of a stage around the open one.
    function finalize(uint8 stagePick, uint8 senderPick) external {
        uint64 stage = _stage(stagePick);
        address sender = _sender(senderPick);
        uint64 open = ours.openStage();
        Difference expected = Difference.None;
        if (model.allowList(sender)) {
            if (stage >= START && stage < open) expected = Difference.RefinalizeRefused;
            if (stage == open + 1) expected = Difference.FinalizeNextNamesTheOpenStage;
        }
        _compare(abi.encodeCall(VipScore.finalizeStage, (stage)), sender, expected);
    }

    /// @notice Extension: VipScore's `finalizeStageAt(stage, writeCount(stage))` against the reference's
    /// `finalizeStage(stage)`. Fenced at the count the stage has, it must behave as `finalizeStage`: the same
    /// outcome, errors and differences (D1, D2) for any stage around the open one, from any sender.
    function finalizeFenced(uint8 stagePick, uint8 senderPick) external {
        uint64 stage = _stage(stagePick);
        address sender = _sender(senderPick);
        uint64 open = ours.openStage();
        Difference expected = Difference.None;
        if (model.allowList(sender)) {
            if (stage >= START && stage < open) expected = Difference.RefinalizeRefused;
            if (stage == open + 1) expected = Difference.FinalizeNextNamesTheOpenStage;
        }
        _compare(
            abi.encodeCall(VipScore.finalizeStageAt, (stage, ours.writeCount(stage))),
            abi.encodeCall(VipScore.finalizeStage, (stage)),
            sender,
            expected
        );
    }

    function addAllowList(uint8 addrPick, uint8 senderPick) external {
        address addr = _pool[addrPick % POOL];
        address sender = _sender(senderPick);
        bool zero = model.allowList(sender) && addr == address(0);
        _compare(abi.encodeCall(VipScore.addAllowList, (addr)), sender, zero ? Difference.ZeroAddressNotListed : Difference.None);
    }

    function removeAllowList(uint8 addrPick, uint8 senderPick) external {
        address addr = addrPick % 7 == 0 ? address(this) : _pool[addrPick % POOL];
        address sender = _sender(senderPick);
        Difference expected = Difference.None;
        if (model.allowList(sender)) {
            if (!model.allowList(addr)) expected = Difference.UnlistedRemovalRefused;
            else if (ours.allowListSize() == 1) expected = Difference.LastAddressKept;
        }
        _compare(abi.encodeCall(VipScore.removeAllowList, (addr)), sender, expected);
    }

    // --- Comparison ---------------------------------------------------------------------------

    function _updateScores(uint64 stage, address[] memory addrs, uint64[] memory amounts, address sender) internal {
        _updateScores(stage, addrs, amounts, sender, false);
    }

    /// @dev `asSingle` sends the one entry through `updateScore` instead of `updateScores`.
    function _updateScores(uint64 stage, address[] memory addrs, uint64[] memory amounts, address sender, bool asSingle)
        internal
    {
        bool wraps = model.allowList(sender) && addrs.length == amounts.length && stage == ours.openStage()
            && model.totalPath(stage, addrs, amounts);
        bytes memory data = asSingle
            ? abi.encodeCall(VipScore.updateScore, (stage, addrs[0], amounts[0]))
            : abi.encodeCall(VipScore.updateScores, (stage, addrs, amounts));
        _compare(data, sender, wraps ? Difference.TotalNeverWraps : Difference.None);
    }

    /// @dev Sends `data` from `sender` to both contracts (to VipScore only where the model must not run),
    /// then checks the outcome against `expected` and compares every observable.
    function _compare(bytes memory data, address sender, Difference expected) internal {
        _compare(data, data, sender, expected);
    }

    /// @dev `_compare` where VipScore is sent `data` and the model `modelData` (an extension call against
    /// the reference function it stands in for; the first argument, which the differences name, the same).
    function _compare(bytes memory data, bytes memory modelData, address sender, Difference expected) internal {
        ++calls;
        ++seen[uint256(expected)];
        bool modelRuns = expected != Difference.TotalNeverWraps && expected != Difference.ZeroAddressNotListed
            && expected != Difference.LastAddressKept;
        vm.recordLogs();
        vm.prank(sender);
        (bool oursOk, bytes memory oursOut) = address(ours).call(data);
        bool modelOk;
        bytes memory modelOut;
        if (modelRuns) {
            vm.prank(sender);
            (modelOk, modelOut) = address(model).call(modelData);
        }
        Vm.Log[] memory logs = vm.getRecordedLogs();

        if (expected == Difference.None) {
            assertEq(oursOk ? 1 : 0, modelOk ? 1 : 0, "reverts alike");
            assertEq(keccak256(oursOut), keccak256(modelOut), "same revert data");
        } else if (expected == Difference.RefinalizeRefused) {
            assertTrue(modelOk, "D1: the reference re-finalizes");
            _assertRevert(oursOk, oursOut, abi.encodeWithSelector(StageFinalized.selector, _arg(data)), "D1");
        } else if (expected == Difference.FinalizeNextNamesTheOpenStage) {
            _assertRevert(modelOk, modelOut, abi.encodeWithSelector(StageNotFound.selector, _arg(data)), "D2 reference");
            _assertRevert(oursOk, oursOut, abi.encodeWithSelector(PreviousStageNotFinalized.selector, ours.openStage()), "D2");
        } else if (expected == Difference.TotalNeverWraps) {
            _assertRevert(oursOk, oursOut, abi.encodeWithSelector(IVipScore.TotalScoreOverflow.selector, ours.openStage()), "D3");
        } else if (expected == Difference.OutOfRangeNamed) {
            assertFalse(oursOk, "D4: VipScore reverts");
            _assertRevert(modelOk, modelOut, abi.encodeWithSignature("Panic(uint256)", 0x11), "D4 reference");
            bytes4 selector = bytes4(oursOut);
            assertTrue(
                selector == IVipScore.ScoreOverflow.selector || selector == IVipScore.ScoreUnderflow.selector
                    || selector == IVipScore.TotalScoreOverflow.selector,
                "D4: a named range error"
            );
        } else if (expected == Difference.ZeroAddressNotListed) {
            _assertRevert(oursOk, oursOut, abi.encodeWithSelector(IVipScore.ZeroAddress.selector), "D5");
        } else if (expected == Difference.UnlistedRemovalRefused) {
            assertTrue(modelOk, "D6: the reference does nothing");
            _assertRevert(oursOk, oursOut, abi.encodeWithSelector(IVipScore.NotOnAllowList.selector, _argAddress(data)), "D6");
        } else {
            _assertRevert(oursOk, oursOut, abi.encodeWithSelector(IVipScore.LastAllowListAddress.selector, _argAddress(data)), "D7");
        }
        // The recorder keeps logs of calls that reverted too; on chain those are gone, so only a call that
        // succeeded has a log stream to compare.
        _compareUpdateScoreLogs(logs, oursOk ? address(ours) : address(0), modelOk ? address(model) : address(0));
        compareState();
    }

    /// @dev The `UpdateScore` logs of each contract, in order, must be the same topics and data. An emitter
    /// of address(0) stands for a call that reverted, so it logged nothing.
    function _compareUpdateScoreLogs(Vm.Log[] memory logs, address oursEmitter, address modelEmitter) internal pure {
        uint256 oursCount;
        uint256 modelCount;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].topics.length == 0 || logs[i].topics[0] != UpdateScore.selector) continue;
            if (logs[i].emitter == oursEmitter) ++oursCount;
            if (logs[i].emitter == modelEmitter) ++modelCount;
        }
        assertEq(oursCount, modelCount, "as many UpdateScore logs");
        if (oursCount == 0) return;
        uint256 m;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter != oursEmitter || logs[i].topics[0] != UpdateScore.selector) continue;
            while (logs[m].emitter != modelEmitter || logs[m].topics[0] != UpdateScore.selector) ++m;
            assertEq(logs[i].topics[1], logs[m].topics[1], "UpdateScore addr");
            assertEq(logs[i].topics[2], logs[m].topics[2], "UpdateScore stage");
            assertEq(keccak256(logs[i].data), keccak256(logs[m].data), "UpdateScore score and totalScore");
            ++m;
        }
    }

    /// @notice Every stored observable of both contracts, compared.
    function compareState() public view {
        uint64 open = ours.openStage();
        assertEq(ours.initStage(), model.initStage(), "initStage");
        for (uint64 stage = START - 1; stage <= open + 1; ++stage) {
            (uint64 a, uint64 b, bool c) = ours.stages(stage);
            (uint64 x, uint64 y, bool z) = _modelStage(stage);
            assertEq(a, x, "stages().stage");
            assertEq(b, y, "stages().totalScore");
            assertEq(c ? 1 : 0, z ? 1 : 0, "stages().isFinalized");
            for (uint256 i; i < POOL; ++i) {
                (bool isIndexed, uint64 amount) = ours.scores(stage, _pool[i]);
                (bool modelIndexed, uint64 modelAmount) = model.scores(stage, _pool[i]);
                assertEq(isIndexed ? 1 : 0, modelIndexed ? 1 : 0, "scores().isIndexed");
                assertEq(amount, modelAmount, "scores().amount");
            }
            // Small pages where they are few (every boundary at odd offsets); pages of 500 always, as the agent reads.
            if (ours.scoreCount(stage) <= 300) _comparePages(stage, 7);
            _comparePages(stage, 500);
        }
        for (uint256 i; i < POOL; ++i) {
            assertEq(ours.allowList(_pool[i]) ? 1 : 0, model.allowList(_pool[i]) ? 1 : 0, "allowList");
        }
        assertEq(ours.allowList(address(this)) ? 1 : 0, model.allowList(address(this)) ? 1 : 0, "allowList(handler)");
        assertEq(ours.allowList(OUTSIDER) ? 1 : 0, model.allowList(OUTSIDER) ? 1 : 0, "allowList(outsider)");
    }

    /// @dev Pages as the VIP agent does, stopping at the first short page of the model's non-padding entries.
    function _comparePages(uint64 stage, uint64 limit) internal view {
        for (uint64 offset; ; offset += limit) {
            IVipScore.ScoreResponse[] memory page = ours.getScores(stage, offset, limit);
            ReferenceModel.Entry[] memory expected = model.getScores(stage, offset, limit);
            assertEq(expected.length, limit, "the reference pads every page to the limit");
            uint256 real;
            while (real < expected.length && expected[real].addr != address(0)) ++real;
            assertEq(page.length, real, "page length = the reference's entries without padding");
            for (uint256 i; i < real; ++i) {
                assertEq(page[i].addr, expected[i].addr, "getScores addr");
                assertEq(page[i].amount, expected[i].amount, "getScores amount");
                assertEq(page[i].index, expected[i].index, "getScores index");
            }
            if (real < limit) return;
        }
    }

    // --- Helpers ------------------------------------------------------------------------------

    function _assertRevert(bool ok, bytes memory out, bytes memory expected, string memory what) internal pure {
        assertFalse(ok, string.concat(what, ": reverts"));
        assertEq(keccak256(out), keccak256(expected), string.concat(what, ": revert data"));
    }

    function _modelStage(uint64 stage) internal view returns (uint64, uint64, bool) {
        return model.stages(stage);
    }

    /// @dev Mostly small amounts; one in eight near the top of the uint64 range, to reach the overflow paths.
    function _amount(uint256 seed) internal pure returns (uint64) {
        if (seed % 8 == 0) return type(uint64).max - uint64(seed % 1000);
        return uint64(seed % 1_000_000);
    }

    /// @dev A stage from just before the start stage to just after the open one.
    function _stage(uint8 pick) internal view returns (uint64) {
        uint64 open = ours.openStage();
        return uint64(bound(pick, START - 1, open + 2));
    }

    function _sender(uint8 pick) internal view returns (address) {
        return pick % 5 == 0 ? _senders[pick % _senders.length] : address(this);
    }

    function _arg(bytes memory data) internal pure returns (uint64 value) {
        assembly {
            value := mload(add(data, 36))
        }
    }

    function _argAddress(bytes memory data) internal pure returns (address value) {
        assembly {
            value := mload(add(data, 36))
        }
    }

    function _one(address addr) internal pure returns (address[] memory list) {
        list = new address[](1);
        list[0] = addr;
    }

    function _one(uint64 amount) internal pure returns (uint64[] memory list) {
        list = new uint64[](1);
        list[0] = amount;
    }
}

contract VipScoreDifferentialTest is Test {
    DifferentialHandler internal handler;

    function setUp() public {
        handler = new DifferentialHandler();
        targetContract(address(handler));
    }

    /// @notice The invariant fuzzer drives the handler; every call compares everything, and so does this.
    function invariantVipScoreBehavesAsTheReference() public view {
        handler.compareState();
    }

    /// @notice A random sequence of operations, from one seed.
    function testFuzzSequencesMatchTheReference(uint256 seed) public {
        for (uint256 step; step < 16; ++step) {
            uint256 r = uint256(keccak256(abi.encode(seed, step)));
            uint8 a = uint8(r >> 8);
            uint8 b = uint8(r >> 16);
            uint8 c = uint8(r >> 24);
            uint8 d = uint8(r >> 32);
            uint256 kind = r % 16;
            if (kind < 5) handler.updateScoresSmall(r >> 40, a, b, c);
            else if (kind < 9) handler.single(a, r >> 40, b, c, d);
            else if (kind < 11) handler.finalize(a, b);
            else if (kind < 12) handler.addAllowList(a, b);
            else if (kind < 13) handler.removeAllowList(a, b);
            else handler.updateScoresLarge(r >> 40, uint16(r >> 48));
        }
    }

    /// @notice Each intentional difference, on purpose, once; and the reference's quirks that VipScore matches.
    function testEachDocumentedDifference() public {
        handler.updateScoresSmall(1, 3, 1, 1); // a small batch at the start stage
        handler.finalize(1, 1); // finalize the start stage (START - 1 + 1 = START)
        handler.finalize(1, 1); // D1: again
        handler.finalize(3, 1); // D2: open + 1
        handler.addAllowList(0, 1); // D5: the zero address
        handler.removeAllowList(5, 1); // D6: an address never listed
        handler.removeAllowList(7, 1); // D7: the handler itself, the last one listed
        handler.single(0, 100, 1, 2, 1); // updateScore(open, pool[1], 100)
        handler.single(1, 8, 1, 2, 1); // increase it by ~2^64: D4
        for (uint256 d = 1; d <= 7; ++d) {
            if (d == 3) continue; // D3 needs amounts that wrap: below
            assertTrue(handler.seen(d) > 0, string.concat("difference D", LibString.toString(d), " exercised"));
        }
    }

    /// @notice Extension: `finalizeStageAt` at the stage's own write count behaves as the reference's
    /// `finalizeStage`: on an open stage with writes, on an empty one (fenced at 0), and, as `finalizeStage`
    /// does, D1 on a finalized stage and D2 on the one after the open one.
    function testFencedFinalizeBehavesAsTheReferencesFinalize() public {
        VipScore ours = handler.ours();
        uint64 start = handler.START();
        handler.updateScoresSmall(3, 4, 1, 1); // a small batch at the start stage
        handler.single(0, 50, 2, 1, 1); // updateScore(START, pool[2], 50)
        assertTrue(ours.writeCount(start) >= 2, "the stage took writes");
        handler.finalizeFenced(1, 1); // finalizeStageAt(START, writeCount(START)) vs finalizeStage(START)
        assertEq(ours.openStage(), start + 1, "the open stage finalized");
        handler.finalizeFenced(2, 1); // the empty stage START + 1, fenced at 0
        assertEq(ours.openStage(), start + 2, "the empty stage finalized");
        uint256 refinalized = handler.seen(1);
        uint256 named = handler.seen(2);
        handler.finalizeFenced(1, 1); // D1: START again
        handler.finalizeFenced(4, 1); // D2: open + 1
        assertEq(handler.seen(1), refinalized + 1, "D1 through finalizeStageAt");
        assertEq(handler.seen(2), named + 1, "D2 through finalizeStageAt");
        handler.finalizeFenced(1, 5); // an outsider: PermissionDenied on both
        assertEq(ours.openStage(), start + 2, "nothing else finalized");
    }

    /// @notice Batches larger than an SSTORE2 chunk, mixed with small writes and single writes, and paged
    /// across every chunk boundary (compareState pages each stage with limits 7 and 500).
    function testBatchesAcrossChunkBoundaries() public {
        handler.updateScoresSmall(2, 5, 1, 1);
        handler.updateScoresLarge(0, 40); // more new addresses than one chunk holds
        handler.single(0, 77, 3, 1, 1);
        handler.updateScoresLarge(7, 30); // a small chunk after it
        handler.updateScoresLarge(5, 9); // and another large batch
        handler.single(1, 12, 3, 1, 1);
        assertEq(handler.bigBatches(), 2, "two batches larger than a chunk");
        assertTrue(handler.ours().scoreCount(handler.START()) > 2 * 1228, "entries span three chunks or more");
        handler.compareState();
    }

    /// @notice D8, D9, D10: pages the reference serves differently, on purpose.
    function testPagesAtTheEdges() public {
        handler.updateScoresSmall(2, 5, 1, 1);
        VipScore ours = handler.ours();
        ReferenceModel model = handler.model();
        uint64 max = type(uint64).max;
        // D10 (K6): an offset at the end of the uint64 range: the reference panics, VipScore has nothing there.
        assertEq(ours.getScores(5, max, 1).length, 0, "D10: an empty page");
        (bool ok, bytes memory out) = address(model).staticcall(abi.encodeCall(ReferenceModel.getScores, (5, max, 1)));
        assertFalse(ok, "D10: the reference panics");
        assertEq(keccak256(out), keccak256(abi.encodeWithSignature("Panic(uint256)", 0x11)), "D10: arithmetic panic");
        // D8: a limit above 1,000 is refused; the reference allocates it.
        vm.expectRevert(abi.encodeWithSelector(IVipScore.PageLimitTooLarge.selector, uint64(1001), uint64(1000)));
        ours.getScores(5, 0, 1001);
        assertEq(model.getScores(5, 0, 1001).length, 1001, "D8: the reference allocates the limit");
        // D9: past the last entry, no padding.
        assertEq(ours.getScores(5, 0, 50).length, ours.scoreCount(5), "D9: only existing entries");
    }

    /// @notice D3: a set that would take the total past uint64, and the reference's quirks VipScore matches:
    /// K1/K2 (writes that write nothing succeed at any stage) and K5 (permission before lengths).
    function testTotalWrapAndMatchedQuirks() public {
        handler.single(0, 0, 1, 1, 1); // updateScore(START, pool[1], 2^64 - 1)
        handler.single(0, 8, 2, 1, 1); // updateScore(START, pool[2], ~2^64): the total would wrap, D3
        assertTrue(handler.seen(3) > 0, "D3 exercised");
        handler.finalize(1, 1);
        handler.single(0, 5, 0, 1, 1); // K1: updateScore(finalized stage, address(0), 5) succeeds on both
        handler.updateScoresSmall(1, 0, 200, 1); // K2: an empty batch to a stage never opened succeeds on both
        handler.updateScoresSmall(13, 2, 1, 5); // K5: an outsider, lengths that differ: PermissionDenied on both
    }
}
