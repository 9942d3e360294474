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
}
