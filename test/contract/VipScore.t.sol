// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The whole file, as code written for the reference imports it: the reference's events and errors come
// with it by their bare names.
import "../../contracts/VipScore.sol";
import {Test} from "./utils/Test.sol";
import {Vm} from "./utils/Vm.sol";

contract VipScoreTest is Test {
    uint64 internal constant START = 15;
    address internal constant ALICE = address(0xA11CE);
    address internal constant BOB = address(0xB0B);
    address internal constant OUTSIDER = address(0xBAD);

    VipScore internal score;

    function setUp() public {
        score = new VipScore(START);
    }

    // --- helpers --------------------------------------------------------------------------

    function _addrs(address a) internal pure returns (address[] memory r) {
        r = new address[](1);
        r[0] = a;
    }

    function _addrs(address a, address b) internal pure returns (address[] memory r) {
        r = new address[](2);
        (r[0], r[1]) = (a, b);
    }

    function _addrs(address a, address b, address c) internal pure returns (address[] memory r) {
        r = new address[](3);
        (r[0], r[1], r[2]) = (a, b, c);
    }

    function _amounts(uint64 a) internal pure returns (uint64[] memory r) {
        r = new uint64[](1);
        r[0] = a;
    }

    function _amounts(uint64 a, uint64 b) internal pure returns (uint64[] memory r) {
        r = new uint64[](2);
        (r[0], r[1]) = (a, b);
    }

    function _amounts(uint64 a, uint64 b, uint64 c) internal pure returns (uint64[] memory r) {
        r = new uint64[](3);
        (r[0], r[1], r[2]) = (a, b, c);
    }

    /// @dev `n` distinct non-zero addresses derived from `seed`.
    function _distinct(uint256 n, uint256 seed) internal pure returns (address[] memory r) {
        r = new address[](n);
        for (uint256 i; i < n; ++i) {
            r[i] = address(uint160(uint256(keccak256(abi.encode(seed, i))) | 1));
        }
    }

    function _scoreOf(uint64 stage, address a) internal view returns (uint64 amount) {
        (, amount) = score.scores(stage, a);
    }

    function _total(uint64 stage) internal view returns (uint64 total) {
        (, total,) = score.stages(stage);
    }

    // --- the reference ABI ------------------------------------------------------------------

    function testSelectorsMatchTheReference() public pure {
        _assertSelector(IVipScore.getScores.selector, bytes4(0x990357e5), "getScores");
        _assertSelector(IVipScore.stages.selector, bytes4(0x977e9404), "stages");
        _assertSelector(IVipScore.scores.selector, bytes4(0x5466d83d), "scores");
        _assertSelector(IVipScore.initStage.selector, bytes4(0xe1097249), "initStage");
        _assertSelector(IVipScore.allowList.selector, bytes4(0x2848aeaf), "allowList");
        _assertSelector(IVipScore.updateScores.selector, bytes4(0x45a2b96b), "updateScores");
        _assertSelector(IVipScore.updateScore.selector, bytes4(0xd3f942c3), "updateScore");
        _assertSelector(IVipScore.increaseScore.selector, bytes4(0xdab73a86), "increaseScore");
        _assertSelector(IVipScore.decreaseScore.selector, bytes4(0x3482ec7f), "decreaseScore");
        _assertSelector(IVipScore.finalizeStage.selector, bytes4(0x17abbd50), "finalizeStage");
        _assertSelector(IVipScore.addAllowList.selector, bytes4(0x9da21167), "addAllowList");
        _assertSelector(IVipScore.removeAllowList.selector, bytes4(0xca480c30), "removeAllowList");
    }

    function _assertSelector(bytes4 actual, bytes4 expected, string memory what) internal pure {
        assertEq(bytes32(actual), bytes32(expected), what);
    }

    // --- rule 6: stages -------------------------------------------------------------------

    function testConstructorRefusesStageZero() public {
        vm.expectRevert(abi.encodeWithSelector(ZeroStage.selector));
        new VipScore(0);
    }

    function testConstructorOpensTheStartStageAndListsTheDeployer() public {
        vm.expectEmit();
        emit IVipScore.AllowListAdded(address(this));
        vm.expectEmit();
        emit CreateStage(7);
        VipScore fresh = new VipScore(7);
        assertEq(fresh.initStage(), 7, "initStage");
        assertEq(fresh.openStage(), 7, "openStage");
        (uint64 s, uint64 total, bool finalized) = fresh.stages(7);
        assertEq(s, 7, "stages(7).stage");
        assertEq(total, 0, "stages(7).totalScore");
        assertFalse(finalized, "stages(7).isFinalized");
        assertTrue(fresh.allowList(address(this)), "deployer listed");
        assertEq(fresh.allowListSize(), 1, "allowListSize");
    }

    function testStagesNeverOpenedReadAsZero() public view {
        (uint64 s,,) = score.stages(START - 1);
        assertEq(s, 0, "stage before start");
        (s,,) = score.stages(START + 1);
        assertEq(s, 0, "stage after open");
        (s,,) = score.stages(0);
        assertEq(s, 0, "stage 0");
    }

    function testWritesToUnknownStagesRevertStageNotFound() public {
        uint64[3] memory unknown = [uint64(0), START - 1, START + 1];
        for (uint256 i; i < unknown.length; ++i) {
            uint64 s = unknown[i];
            bytes memory err = abi.encodeWithSelector(StageNotFound.selector, s);
            vm.expectRevert(err);
            score.updateScores(s, _addrs(ALICE), _amounts(1));
            vm.expectRevert(err);
            score.updateScore(s, ALICE, 1);
            vm.expectRevert(err);
            score.increaseScore(s, ALICE, 1);
            vm.expectRevert(err);
            score.decreaseScore(s, ALICE, 0);
        }
    }

    function testWritesToAFinalizedStageRevertStageFinalized() public {
        score.updateScore(START, ALICE, 5);
        score.finalizeStage(START);
        bytes memory err = abi.encodeWithSelector(StageFinalized.selector, START);
        vm.expectRevert(err);
        score.updateScores(START, _addrs(ALICE), _amounts(1));
        vm.expectRevert(err);
        score.updateScore(START, ALICE, 1);
        vm.expectRevert(err);
        score.increaseScore(START, ALICE, 1);
        vm.expectRevert(err);
        score.decreaseScore(START, ALICE, 1);
        assertEq(_scoreOf(START, ALICE), 5, "finalized score unchanged");
    }

    function testFinalizeOpensTheNextStage() public {
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(3, 4));
        vm.expectEmit(address(score));
        emit FinalizeStage(START);
        vm.expectEmit(address(score));
        emit CreateStage(START + 1);
        score.finalizeStage(START);

        assertEq(score.openStage(), START + 1, "openStage");
        (uint64 s, uint64 total, bool finalized) = score.stages(START);
        assertEq(s, START, "finalized stage number");
        assertEq(total, 7, "finalized stage total");
        assertTrue(finalized, "finalized flag");
        (s, total, finalized) = score.stages(START + 1);
        assertEq(s, START + 1, "next stage number");
        assertEq(total, 0, "next stage total");
        assertFalse(finalized, "next stage open");
        score.updateScore(START + 1, ALICE, 9);
        assertEq(_scoreOf(START + 1, ALICE), 9, "next stage writable");
        assertEq(_scoreOf(START, ALICE), 3, "previous stage kept");
    }

    function testFinalizeOnlyTheOpenStageOnce() public {
        score.finalizeStage(START);
        vm.expectRevert(abi.encodeWithSelector(StageFinalized.selector, START));
        score.finalizeStage(START);
        vm.expectRevert(abi.encodeWithSelector(PreviousStageNotFinalized.selector, START + 1));
        score.finalizeStage(START + 2);
        vm.expectRevert(abi.encodeWithSelector(StageNotFound.selector, START + 3));
        score.finalizeStage(START + 3);
        vm.expectRevert(abi.encodeWithSelector(StageNotFound.selector, START - 1));
        score.finalizeStage(START - 1);
        assertEq(score.openStage(), START + 1, "open stage unchanged by failed calls");
    }

    function testEmptyStagesFinalizeInOrder() public {
        for (uint64 s = START; s < START + 5; ++s) {
            score.finalizeStage(s);
        }
        for (uint64 s = START; s < START + 5; ++s) {
            (uint64 n, uint64 total, bool finalized) = score.stages(s);
            assertEq(n, s, "stage number");
            assertEq(total, 0, "empty total");
            assertTrue(finalized, "finalized");
        }
        assertEq(score.openStage(), START + 5, "open stage");
    }

    // --- rule 7: scores -------------------------------------------------------------------

    function testUpdateScoresSetsAbsoluteValues() public {
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(10, 20));
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(4, 25));
        assertEq(_scoreOf(START, ALICE), 4, "alice");
        assertEq(_scoreOf(START, BOB), 25, "bob");
        assertEq(_total(START), 29, "total");
        assertEq(score.scoreCount(START), 2, "count");
    }

    function testLengthMismatchReverts() public {
        vm.expectRevert(abi.encodeWithSelector(AddrsAndAmountsLengthMistmatch.selector));
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(1));
    }

    function testLaterDuplicateWins() public {
        score.updateScores(START, _addrs(ALICE, BOB, ALICE), _amounts(1, 2, 30));
        assertEq(_scoreOf(START, ALICE), 30, "later duplicate wins");
        assertEq(_total(START), 32, "total counts the winner only");
        assertEq(score.scoreCount(START), 2, "duplicate indexed once");
    }

    function testZeroAddressIsSkipped() public {
        score.updateScores(START, _addrs(address(0), ALICE), _amounts(100, 1));
        score.updateScore(START, address(0), 5);
        score.increaseScore(START, address(0), 5);
        (bool isIndexed, uint64 amount) = score.scores(START, address(0));
        assertFalse(isIndexed, "zero address indexed");
        assertEq(amount, 0, "zero address amount");
        assertEq(score.scoreCount(START), 1, "count");
        assertEq(_total(START), 1, "total");
    }

    function testIncreaseAndDecrease() public {
        score.increaseScore(START, ALICE, 7);
        score.increaseScore(START, ALICE, 5);
        score.decreaseScore(START, ALICE, 2);
        assertEq(_scoreOf(START, ALICE), 10, "alice");
        assertEq(_total(START), 10, "total");
    }

    function testDecreaseBelowZeroReverts() public {
        score.updateScore(START, ALICE, 3);
        vm.expectRevert(abi.encodeWithSelector(IVipScore.ScoreUnderflow.selector, ALICE, uint64(3), uint64(4)));
        score.decreaseScore(START, ALICE, 4);
        vm.expectRevert(abi.encodeWithSelector(IVipScore.ScoreUnderflow.selector, BOB, uint64(0), uint64(1)));
        score.decreaseScore(START, BOB, 1);
    }

    function testIncreaseBeyondUint64Reverts() public {
        score.updateScore(START, ALICE, type(uint64).max - 1);
        vm.expectRevert(abi.encodeWithSelector(IVipScore.ScoreOverflow.selector, ALICE, type(uint64).max - 1, uint64(2)));
        score.increaseScore(START, ALICE, 2);
    }

    function testTotalNeverWraps() public {
        score.updateScore(START, ALICE, type(uint64).max);
        vm.expectRevert(abi.encodeWithSelector(IVipScore.TotalScoreOverflow.selector, START));
        score.updateScore(START, BOB, 1);
        vm.expectRevert(abi.encodeWithSelector(IVipScore.TotalScoreOverflow.selector, START));
        score.updateScores(START, _addrs(BOB), _amounts(1));
        vm.expectRevert(abi.encodeWithSelector(IVipScore.TotalScoreOverflow.selector, START));
        score.increaseScore(START, BOB, 1);
        // Lowering one score to make room for another in the same batch is fine.
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(type(uint64).max - 1, 1));
        assertEq(_total(START), type(uint64).max, "total at the limit");
    }

    function testSingleWritesEmitUpdateScore() public {
        score.updateScore(START, BOB, 2);
        vm.expectEmit(address(score));
        emit UpdateScore(ALICE, START, 5, 7);
        score.increaseScore(START, ALICE, 5);
    }

    function testBatchEmitsUpdateScorePerEntryWithRunningTotal() public {
        score.updateScore(START, BOB, 4);
        address[] memory addrs = new address[](4);
        uint64[] memory amounts = new uint64[](4);
        (addrs[0], amounts[0]) = (ALICE, 5);
        (addrs[1], amounts[1]) = (BOB, 6); // 4 → 6
        (addrs[2], amounts[2]) = (address(0), 9); // skipped: no event, no total
        (addrs[3], amounts[3]) = (ALICE, 7); // a later duplicate wins, and emits again
        vm.recordLogs();
        score.updateScores(START, addrs, amounts);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(logs.length, 3, "one UpdateScore per non-zero entry");
        _assertUpdateScore(logs[0], ALICE, 5, 9);
        _assertUpdateScore(logs[1], BOB, 6, 11);
        _assertUpdateScore(logs[2], ALICE, 7, 13);
        assertEq(_total(START), 13, "total");
    }

    function _assertUpdateScore(Vm.Log memory log, address addr, uint64 value, uint64 total) internal view {
        assertEq(log.emitter, address(score), "emitter");
        assertEq(log.topics.length, 3, "topics");
        assertEq(log.topics[0], UpdateScore.selector, "topic0");
        assertEq(log.topics[1], bytes32(uint256(uint160(addr))), "addr topic");
        assertEq(log.topics[2], bytes32(uint256(START)), "stage topic");
        (uint64 gotScore, uint64 gotTotal) = abi.decode(log.data, (uint64, uint64));
        assertEq(gotScore, value, "score");
        assertEq(gotTotal, total, "totalScore");
    }

    function testDirtyCalldataReverts() public {
        // An address word with bits above 160 set, as no ABI encoder would produce.
        bytes memory data = abi.encodeWithSelector(IVipScore.updateScores.selector, START, _addrs(ALICE), _amounts(1));
        assembly {
            // selector(4) + stage + 2 offsets + addrs length = 4 + 4*32; the first address word follows.
            let word := add(add(data, 0x20), 132)
            mstore(word, or(mload(word), shl(200, 1)))
        }
        (bool ok,) = address(score).call(data);
        assertFalse(ok, "dirty address accepted");
        assertEq(score.scoreCount(START), 0, "nothing written");
    }

    // --- rule 8: getScores ----------------------------------------------------------------

    function testGetScoresReturnsEntriesInFirstScoredOrder() public {
        score.updateScores(START, _addrs(BOB, ALICE), _amounts(2, 1));
        score.updateScore(START, BOB, 20);
        IVipScore.ScoreResponse[] memory page = score.getScores(START, 0, 500);
        assertEq(page.length, 2, "no padding");
        assertEq(page[0].addr, BOB, "first");
        assertEq(page[0].amount, 20, "first amount");
        assertEq(page[0].index, 1, "first index");
        assertEq(page[1].addr, ALICE, "second");
        assertEq(page[1].index, 2, "second index");
    }

    function testGetScoresPagesAcrossChunksAndSlots() public {
        // Large batches land in code chunks, single writes and batches of three in slots: pages cross both.
        address[] memory big = _distinct(10, 1);
        uint64[] memory bigAmounts = new uint64[](10);
        for (uint256 i; i < 10; ++i) bigAmounts[i] = uint64(i + 1);
        score.updateScores(START, big, bigAmounts);
        score.updateScore(START, ALICE, 100);
        score.updateScores(START, _addrs(BOB, OUTSIDER, address(0xC)), _amounts(101, 102, 103));
        address[] memory big2 = _distinct(6, 2);
        score.updateScores(START, big2, new uint64[](6));

        address[] memory expected = new address[](20);
        for (uint256 i; i < 10; ++i) expected[i] = big[i];
        (expected[10], expected[11], expected[12], expected[13]) = (ALICE, BOB, OUTSIDER, address(0xC));
        for (uint256 i; i < 6; ++i) expected[14 + i] = big2[i];

        for (uint64 pageSize = 1; pageSize <= 21; ++pageSize) {
            uint256 seen;
            for (uint64 offset; ; offset += pageSize) {
                IVipScore.ScoreResponse[] memory page = score.getScores(START, offset, pageSize);
                for (uint256 i; i < page.length; ++i) {
                    assertEq(page[i].addr, expected[seen], "address at index");
                    assertEq(page[i].index, seen + 1, "1-based index");
                    ++seen;
                }
                if (page.length < pageSize) break;
            }
            assertEq(seen, 20, "entries seen");
        }
    }

    function testGetScoresOfUnknownStageOrPastTheEndIsEmpty() public {
        score.updateScore(START, ALICE, 1);
        assertEq(score.getScores(START + 9, 0, 500).length, 0, "unknown stage");
        assertEq(score.getScores(START, 1, 500).length, 0, "past the end");
        assertEq(score.getScores(START, 0, 0).length, 0, "limit 0");
    }

    function testGetScoresCapsTheLimit() public {
        assertEq(score.getScores(START, 0, 1000).length, 0, "limit at the cap is served");
        vm.expectRevert(abi.encodeWithSelector(IVipScore.PageLimitTooLarge.selector, uint64(1001), uint64(1000)));
        score.getScores(START, 0, 1001);
    }

    function testLargeBatchSplitsIntoSeveralChunks() public {
        uint256 n = 1300; // more than one chunk's 1,228 addresses
        address[] memory addrs = _distinct(n, 3);
        uint64[] memory amounts = new uint64[](n);
        for (uint256 i; i < n; ++i) amounts[i] = uint64(i);
        score.updateScores(START, addrs, amounts);
        IVipScore.ScoreResponse[] memory page = score.getScores(START, 1200, 1000);
        assertEq(page.length, 100, "tail page");
        for (uint256 i; i < page.length; ++i) {
            assertEq(page[i].addr, addrs[1200 + i], "address across the chunk boundary");
            assertEq(page[i].amount, 1200 + i, "amount");
        }
    }

    function testGetScoresPagesAfterManyChunkedBatches() public {
        // Six batches of 5 to 10 new addresses (a code chunk each), a single write (a slot) and a re-score
        // after each: the write count, in the stage record's top 64 bits above the chunk count, grows with
        // every call, and the chunk count read back must not see it: every entry pages back in order.
        uint256 batches = 6;
        address[] memory expected = new address[](batches * 12);
        uint256 n;
        uint64 writes;
        for (uint256 b; b < batches; ++b) {
            uint256 size = 5 + b;
            address[] memory batch = _distinct(size, 100 + b);
            uint64[] memory amounts = new uint64[](size);
            for (uint256 i; i < size; ++i) {
                amounts[i] = uint64(b * 100 + i + 1);
                expected[n++] = batch[i];
            }
            score.updateScores(START, batch, amounts);
            address single = address(uint160(0x5000 + b));
            score.updateScore(START, single, 1);
            expected[n++] = single;
            score.updateScores(START, batch, amounts); // the same batch again: no new entry, one more write
            writes += 3;
        }
        assertEq(score.scoreCount(START), n, "count");
        assertEq(score.writeCount(START), writes, "write count");
        for (uint64 pageSize = 1; pageSize <= 13; pageSize += 3) {
            uint256 seen;
            for (uint64 offset; ; offset += pageSize) {
                IVipScore.ScoreResponse[] memory page = score.getScores(START, offset, pageSize);
                for (uint256 i; i < page.length; ++i) {
                    assertEq(page[i].addr, expected[seen], "address at index");
                    assertEq(page[i].index, seen + 1, "1-based index");
                    ++seen;
                }
                if (page.length < pageSize) break;
            }
            assertEq(seen, n, "entries seen");
        }
        IVipScore.ScoreResponse[] memory all = score.getScores(START, 0, 1000);
        assertEq(all.length, n, "one page of everything");
        assertEq(all[n - 1].addr, expected[n - 1], "last entry");
    }

    // --- rule 9: allow list ---------------------------------------------------------------

    function testOutsidersCannotWrite() public {
        bytes memory err = abi.encodeWithSelector(PermissionDenied.selector, OUTSIDER);
        vm.startPrank(OUTSIDER);
        vm.expectRevert(err);
        score.updateScores(START, _addrs(ALICE), _amounts(1));
        vm.expectRevert(err);
        score.updateScore(START, ALICE, 1);
        vm.expectRevert(err);
        score.increaseScore(START, ALICE, 1);
        vm.expectRevert(err);
        score.decreaseScore(START, ALICE, 0);
        vm.expectRevert(err);
        score.finalizeStage(START);
        vm.expectRevert(err);
        score.addAllowList(OUTSIDER);
        vm.expectRevert(err);
        score.removeAllowList(address(this));
        vm.stopPrank();
    }

    function testAllowListAddAndRemove() public {
        vm.expectEmit(address(score));
        emit IVipScore.AllowListAdded(ALICE);
        score.addAllowList(ALICE);
        assertEq(score.allowListSize(), 2, "size after add");
        score.addAllowList(ALICE); // already listed: no change
        assertEq(score.allowListSize(), 2, "size after re-add");

        vm.prank(ALICE);
        score.updateScore(START, BOB, 3);
        assertEq(_scoreOf(START, BOB), 3, "listed address writes");

        vm.expectEmit(address(score));
        emit IVipScore.AllowListRemoved(ALICE);
        score.removeAllowList(ALICE);
        assertFalse(score.allowList(ALICE), "removed");
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(PermissionDenied.selector, ALICE));
        score.updateScore(START, BOB, 4);
    }

    function testTheLastListedAddressCannotBeRemoved() public {
        vm.expectRevert(abi.encodeWithSelector(IVipScore.LastAllowListAddress.selector, address(this)));
        score.removeAllowList(address(this));
        score.addAllowList(ALICE);
        score.removeAllowList(address(this));
        vm.prank(ALICE);
        vm.expectRevert(abi.encodeWithSelector(IVipScore.LastAllowListAddress.selector, ALICE));
        score.removeAllowList(ALICE);
    }

    function testAllowListRefusesZeroAndUnlisted() public {
        vm.expectRevert(abi.encodeWithSelector(IVipScore.ZeroAddress.selector));
        score.addAllowList(address(0));
        vm.expectRevert(abi.encodeWithSelector(IVipScore.NotOnAllowList.selector, BOB));
        score.removeAllowList(BOB);
    }

    // --- extension: the write count and the fenced finalization ----------------------------

    function testWriteCountIsZeroOnAFreshStageAndOnStagesNeverOpened() public view {
        assertEq(score.writeCount(START), 0, "fresh open stage");
        assertEq(score.writeCount(START - 1), 0, "stage before start");
        assertEq(score.writeCount(START + 1), 0, "stage after open");
        assertEq(score.writeCount(0), 0, "stage 0");
        assertEq(score.writeCount(type(uint64).max), 0, "last stage number");
    }

    function testEverySuccessfulWriteCountsOne() public {
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(3, 4));
        assertEq(score.writeCount(START), 1, "updateScores");
        score.updateScores(START, new address[](0), new uint64[](0));
        assertEq(score.writeCount(START), 2, "an empty updateScores");
        score.updateScores(START, _addrs(address(0)), _amounts(7));
        assertEq(score.writeCount(START), 3, "an updateScores of the zero address only");
        score.updateScore(START, ALICE, 10);
        assertEq(score.writeCount(START), 4, "updateScore");
        score.increaseScore(START, ALICE, 5);
        assertEq(score.writeCount(START), 5, "increaseScore");
        score.decreaseScore(START, ALICE, 2);
        assertEq(score.writeCount(START), 6, "decreaseScore");
        score.updateScore(START, ALICE, 13);
        assertEq(score.writeCount(START), 7, "an updateScore that changes nothing");
        score.updateScore(START, address(0), 9);
        assertEq(score.writeCount(START), 8, "an updateScore of the zero address");
        // The count shares the stage record's slot: the other fields are intact.
        assertEq(_total(START), 17, "total");
        assertEq(score.scoreCount(START), 2, "count");
        assertEq(score.getScores(START, 0, 10).length, 2, "entries");
    }

    function testRevertedWritesAndWritesToOtherStagesDoNotCount() public {
        score.updateScore(START, ALICE, type(uint64).max - 1);
        assertEq(score.writeCount(START), 1, "one write");

        vm.startPrank(OUTSIDER);
        vm.expectRevert(abi.encodeWithSelector(PermissionDenied.selector, OUTSIDER));
        score.updateScores(START, _addrs(BOB), _amounts(1));
        vm.expectRevert(abi.encodeWithSelector(PermissionDenied.selector, OUTSIDER));
        score.updateScore(START, BOB, 1);
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(AddrsAndAmountsLengthMistmatch.selector));
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(1));
        vm.expectRevert(abi.encodeWithSelector(IVipScore.ScoreOverflow.selector, ALICE, type(uint64).max - 1, uint64(2)));
        score.increaseScore(START, ALICE, 2);
        vm.expectRevert(abi.encodeWithSelector(IVipScore.TotalScoreOverflow.selector, START));
        score.updateScores(START, _addrs(BOB, ALICE), _amounts(2, 1));
        vm.expectRevert(abi.encodeWithSelector(IVipScore.ScoreUnderflow.selector, BOB, uint64(0), uint64(1)));
        score.decreaseScore(START, BOB, 1);
        vm.expectRevert(abi.encodeWithSelector(StageNotFound.selector, START + 1));
        score.updateScore(START + 1, ALICE, 1);
        assertEq(score.writeCount(START), 1, "reverted writes count nothing");
        assertEq(score.writeCount(START + 1), 0, "a reverted write to a future stage counts nothing");

        // Writes that name a stage that is not open succeed when they carry no real entry: they write nothing
        // and count nothing, there or in the open stage.
        score.updateScores(START + 3, new address[](0), new uint64[](0));
        score.updateScore(START - 1, address(0), 5);
        assertEq(score.writeCount(START + 3), 0, "an empty batch to a stage never opened");
        assertEq(score.writeCount(START - 1), 0, "a zero-address write to a stage never opened");
        assertEq(score.writeCount(START), 1, "the open stage unchanged by writes to others");

        score.finalizeStage(START);
        vm.expectRevert(abi.encodeWithSelector(StageFinalized.selector, START));
        score.updateScores(START, _addrs(ALICE), _amounts(1));
        vm.expectRevert(abi.encodeWithSelector(StageFinalized.selector, START));
        score.increaseScore(START, ALICE, 1);
        score.updateScores(START, _addrs(address(0)), _amounts(1)); // succeeds: nothing to write
        assertEq(score.writeCount(START), 1, "a finalized stage takes no writes");
    }

    function testWriteCountIsPerStageAndSurvivesFinalization() public {
        score.updateScore(START, ALICE, 1);
        score.updateScores(START, _addrs(BOB), _amounts(2));
        assertEq(score.writeCount(START + 1), 0, "the next stage before it opens");
        score.finalizeStage(START);
        assertEq(score.writeCount(START), 2, "a finalized stage keeps its count");
        assertEq(score.writeCount(START + 1), 0, "the newly opened stage");

        score.updateScore(START + 1, ALICE, 5);
        score.increaseScore(START + 1, ALICE, 5);
        score.updateScores(START + 1, new address[](0), new uint64[](0));
        assertEq(score.writeCount(START + 1), 3, "writes to the new stage");
        assertEq(score.writeCount(START), 2, "the finalized stage unchanged by writes to the next");
        assertEq(score.writeCount(START + 2), 0, "the stage after the open one");
        score.finalizeStageAt(START + 1, 3);
        assertEq(score.writeCount(START + 1), 3, "kept after finalizeStageAt");
    }

    function testFinalizeStageAtWithTheWriteCountFinalizes() public {
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(3, 4));
        score.updateScore(START, ALICE, 5);
        uint64 proved = score.writeCount(START);
        assertEq(proved, 2, "write count read by the finalizer");

        vm.recordLogs();
        score.finalizeStageAt(START, proved);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(logs.length, 2, "FinalizeStage and CreateStage only");
        assertEq(logs[0].emitter, address(score), "FinalizeStage emitter");
        assertEq(logs[0].topics[0], FinalizeStage.selector, "FinalizeStage first");
        assertEq(abi.decode(logs[0].data, (uint64)), START, "FinalizeStage(stage)");
        assertEq(logs[1].topics[0], CreateStage.selector, "CreateStage second");
        assertEq(abi.decode(logs[1].data, (uint64)), START + 1, "CreateStage(stage + 1)");

        assertEq(score.openStage(), START + 1, "openStage");
        (uint64 s, uint64 total, bool finalized) = score.stages(START);
        assertEq(s, START, "finalized stage number");
        assertEq(total, 9, "finalized total");
        assertTrue(finalized, "stages(stage).isFinalized");
        (,, finalized) = score.stages(START + 1);
        assertFalse(finalized, "next stage open");
        // An empty stage is fenced at 0.
        score.finalizeStageAt(START + 1, 0);
        assertEq(score.openStage(), START + 2, "empty stage finalized at write count 0");
    }

    function testFinalizeStageAtWithAStaleWriteCountRevertsAndLeavesTheStageOpen() public {
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(10, 20));
        uint64 proved = score.writeCount(START); // the finalizer proves the stage here
        // A paused host's stale push lands after the proof: A + 1, B - 1 keeps the total and the count.
        score.updateScores(START, _addrs(ALICE, BOB), _amounts(11, 19));
        assertEq(_total(START), 30, "total unchanged by the stale push");
        assertEq(score.scoreCount(START), 2, "count unchanged by the stale push");

        vm.expectRevert(abi.encodeWithSelector(IVipScore.StageChanged.selector, START, proved, proved + 1));
        score.finalizeStageAt(START, proved);
        vm.expectRevert(abi.encodeWithSelector(IVipScore.StageChanged.selector, START, proved + 5, proved + 1));
        score.finalizeStageAt(START, proved + 5);
        assertEq(score.openStage(), START, "the stage stays open");
        (,, bool finalized) = score.stages(START);
        assertFalse(finalized, "not finalized");
        score.updateScore(START, ALICE, 10); // still writable, so the host can repair it
        assertEq(_scoreOf(START, ALICE), 10, "repaired");
        score.finalizeStageAt(START, score.writeCount(START));
        assertEq(score.openStage(), START + 1, "finalized at the new count");
    }

    function testFinalizeStageAtChecksPermissionFirst() public {
        score.updateScore(START, ALICE, 1);
        bytes memory denied = abi.encodeWithSelector(PermissionDenied.selector, OUTSIDER);
        vm.startPrank(OUTSIDER);
        vm.expectRevert(denied);
        score.finalizeStageAt(START, 1); // the right count
        vm.expectRevert(denied);
        score.finalizeStageAt(START, 0); // a stale count
        vm.expectRevert(denied);
        score.finalizeStageAt(START + 1, 0); // the stage after the open one
        vm.expectRevert(denied);
        score.finalizeStageAt(START - 1, 0); // a stage never opened
        vm.stopPrank();
        assertEq(score.openStage(), START, "nothing finalized");
    }

    function testFinalizeStageAtRevertsAsFinalizeStageOnStagesThatAreNotOpen() public {
        score.updateScore(START, ALICE, 1);
        score.finalizeStageAt(START, 1);
        uint64 open = START + 1;
        score.updateScore(open, ALICE, 1);
        // Finalized (with its own count and with another), the next one, future, before the start, stage 0.
        uint64[6] memory stages = [START, START, open + 1, open + 2, START - 1, 0];
        uint64[6] memory counts = [uint64(1), 7, 0, 0, 0, 0];
        bytes[6] memory expected = [
            abi.encodeWithSelector(StageFinalized.selector, START),
            abi.encodeWithSelector(StageFinalized.selector, START),
            abi.encodeWithSelector(PreviousStageNotFinalized.selector, open),
            abi.encodeWithSelector(StageNotFound.selector, open + 2),
            abi.encodeWithSelector(StageNotFound.selector, START - 1),
            abi.encodeWithSelector(StageNotFound.selector, uint64(0))
        ];
        for (uint256 i; i < stages.length; ++i) {
            (bool plainOk, bytes memory plainOut) =
                address(score).call(abi.encodeCall(IVipScore.finalizeStage, (stages[i])));
            (bool fencedOk, bytes memory fencedOut) =
                address(score).call(abi.encodeCall(IVipScore.finalizeStageAt, (stages[i], counts[i])));
            assertFalse(plainOk, "finalizeStage reverts");
            assertFalse(fencedOk, "finalizeStageAt reverts");
            assertEq(keccak256(plainOut), keccak256(expected[i]), "finalizeStage's error");
            assertEq(keccak256(fencedOut), keccak256(expected[i]), "finalizeStageAt's error, the same");
        }
        assertEq(score.openStage(), open, "open stage unchanged");
    }

    // --- fuzz -----------------------------------------------------------------------------

    /// @dev Batches drawn from a small pool, so duplicates and re-scores are common; checked against a model.
    function testFuzzBatchesMatchAModel(uint256 seed, uint8 rounds) public {
        address[8] memory pool;
        for (uint256 i; i < 8; ++i) pool[i] = address(uint160(0x1000 + i));
        uint64[8] memory model;
        uint256 modelTotal;
        bool[8] memory seen;
        uint256 seenCount;
        rounds = uint8(bound(rounds, 1, 6));
        for (uint256 r; r < rounds; ++r) {
            uint256 n = bound(uint256(keccak256(abi.encode(seed, r))), 0, 12);
            address[] memory addrs = new address[](n);
            uint64[] memory amounts = new uint64[](n);
            for (uint256 i; i < n; ++i) {
                uint256 h = uint256(keccak256(abi.encode(seed, r, i)));
                uint256 k = h % 8;
                addrs[i] = pool[k];
                amounts[i] = uint64(h >> 128) % 1e12;
                modelTotal = modelTotal - model[k] + amounts[i];
                model[k] = amounts[i];
                if (!seen[k]) (seen[k], seenCount) = (true, seenCount + 1);
            }
            score.updateScores(START, addrs, amounts);
        }
        for (uint256 k; k < 8; ++k) {
            (bool isIndexed, uint64 amount) = score.scores(START, pool[k]);
            assertEq(amount, model[k], "score");
            assertTrue(isIndexed == seen[k], "indexed");
        }
        assertEq(_total(START), modelTotal, "total");
        assertEq(score.scoreCount(START), seenCount, "count");
    }

    function testFuzzIncreaseDecrease(uint64 a, uint64 b, uint64 c) public {
        score.increaseScore(START, ALICE, a);
        if (uint256(a) + b > type(uint64).max) {
            vm.expectRevert(abi.encodeWithSelector(IVipScore.ScoreOverflow.selector, ALICE, a, b));
            score.increaseScore(START, ALICE, b);
            return;
        }
        score.increaseScore(START, ALICE, b);
        uint64 sum = a + b;
        if (c > sum) {
            vm.expectRevert(abi.encodeWithSelector(IVipScore.ScoreUnderflow.selector, ALICE, sum, c));
            score.decreaseScore(START, ALICE, c);
            return;
        }
        score.decreaseScore(START, ALICE, c);
        assertEq(_scoreOf(START, ALICE), sum - c, "score");
        assertEq(_total(START), sum - c, "total");
    }

    function testFuzzPagingYieldsEveryEntryOnce(uint16 n, uint16 pageSize, uint256 seed) public {
        n = uint16(bound(n, 0, 60));
        pageSize = uint16(bound(pageSize, 1, 25));
        address[] memory addrs = _distinct(n, seed);
        // Alternate batch sizes so entries land both in chunks and in slots.
        uint256 i;
        while (i < n) {
            uint256 len = bound(uint256(keccak256(abi.encode(seed, i))), 1, 9);
            if (i + len > n) len = n - i;
            address[] memory part = new address[](len);
            for (uint256 j; j < len; ++j) part[j] = addrs[i + j];
            score.updateScores(START, part, new uint64[](len));
            i += len;
        }
        uint256 seen;
        for (uint64 offset; ; offset += pageSize) {
            IVipScore.ScoreResponse[] memory page = score.getScores(START, offset, pageSize);
            for (uint256 k; k < page.length; ++k) {
                assertEq(page[k].addr, addrs[seen], "entry");
                ++seen;
            }
            if (page.length < pageSize) break;
        }
        assertEq(seen, n, "entries");
    }

    /// @dev Any sequence of writes (some reverting, some naming other stages, some from outside the allow
    /// list), then the finalizer's fence: the write count the stage shows finalizes it, any other does not.
    function testFuzzFinalizeStageAtFencesAnyWriteSequence(uint256 seed, uint8 steps, uint64 other) public {
        score.updateScore(START, ALICE, 1);
        score.finalizeStage(START); // a finalized stage behind the open one
        uint64 stage = START + 1;
        steps = uint8(bound(steps, 0, 24));
        uint256 succeeded;
        for (uint256 s; s < steps; ++s) {
            uint256 r = uint256(keccak256(abi.encode(seed, s)));
            uint64 target = r % 5 == 0 ? uint64(bound(r >> 8, START, stage + 1)) : stage;
            address addr = (r >> 16) % 4 == 0 ? address(0) : address(uint160(0x1000 + (r >> 24) % 3));
            uint64 amount = (r >> 64) % 8 == 0 ? type(uint64).max : uint64((r >> 64) % 100);
            uint256 kind = (r >> 32) % 4;
            bytes memory data;
            if (kind == 0) {
                uint256 n = (r >> 128) % 4;
                address[] memory addrs = new address[](n);
                uint64[] memory amounts = new uint64[](n);
                for (uint256 i; i < n; ++i) (addrs[i], amounts[i]) = (addr, amount);
                data = abi.encodeCall(IVipScore.updateScores, (target, addrs, amounts));
            } else if (kind == 1) {
                data = abi.encodeCall(IVipScore.updateScore, (target, addr, amount));
            } else if (kind == 2) {
                data = abi.encodeCall(IVipScore.increaseScore, (target, addr, amount));
            } else {
                data = abi.encodeCall(IVipScore.decreaseScore, (target, addr, amount % 4));
            }
            if ((r >> 40) % 7 == 0) vm.prank(OUTSIDER);
            (bool ok,) = address(score).call(data);
            if (ok && target == stage) ++succeeded;
        }
        uint64 count = score.writeCount(stage);
        assertEq(count, succeeded, "one per successful write to the open stage");
        assertEq(score.writeCount(START), 1, "the finalized stage's count unchanged");
        assertEq(score.writeCount(stage + 1), 0, "the stage after the open one");

        if (other == count) other = count + 1;
        vm.expectRevert(abi.encodeWithSelector(IVipScore.StageChanged.selector, stage, other, count));
        score.finalizeStageAt(stage, other);
        assertEq(score.openStage(), stage, "a wrong count leaves the stage open");
        score.finalizeStageAt(stage, count);
        assertEq(score.openStage(), stage + 1, "the right count finalizes");
    }
}
