// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The whole file, as code written for the reference imports it: the reference's events and errors come
// with it by their bare names.
import "../../contracts/VipScore.sol";
import {Test} from "./utils/Test.sol";

/// @notice Drives the contract as an operator would (batches, increases, decreases, finalizations) and as
/// an attacker would (writes from outside the allow list, writes to finalized stages), keeping ghost state
/// for the invariants to compare against.
contract VipScoreHandler is Test {
    uint64 public constant START = 3;
    address public constant OUTSIDER = address(0xBAD);
    uint256 private constant POOL = 12;

    VipScore public immutable score;

    /// stage => addresses in the order they were first scored
    mapping(uint64 => address[]) private _order;
    mapping(uint64 => mapping(address => bool)) private _scored;
    /// stage => digest of its entries and total when it was finalized
    mapping(uint64 => bytes32) public finalizedDigest;

    bool public forbiddenWriteSucceeded;

    /// stage => how many write calls to it succeeded (the handler's only writes go to the open stage)
    mapping(uint64 => uint64) public successfulWrites;
    /// stage => the highest `writeCount` seen after any handler call
    mapping(uint64 => uint64) private _writeCountSeen;
    bool public writeCountDecreased;

    constructor() {
        score = new VipScore(START);
    }

    function order(uint64 stage) external view returns (address[] memory) {
        return _order[stage];
    }

    function digest(uint64 stage) public view returns (bytes32) {
        (, uint64 total, bool finalized) = score.stages(stage);
        return keccak256(abi.encode(score.getScores(stage, 0, 1000), total, finalized));
    }

    function updateScores(uint256 seed, uint8 length) external {
        uint256 n = bound(length, 0, 10);
        address[] memory addrs = new address[](n);
        uint64[] memory amounts = new uint64[](n);
        for (uint256 i; i < n; ++i) {
            uint256 h = uint256(keccak256(abi.encode(seed, i)));
            addrs[i] = _pick(h);
            amounts[i] = uint64(h >> 128) % 1e15;
        }
        uint64 stage = score.openStage();
        score.updateScores(stage, addrs, amounts);
        ++successfulWrites[stage];
        for (uint256 i; i < n; ++i) _record(stage, addrs[i]);
        _observeWriteCounts();
    }

    function increaseScore(uint256 who, uint64 amount) external {
        uint64 stage = score.openStage();
        address addr = _pick(who);
        score.increaseScore(stage, addr, uint64(bound(amount, 0, 1e15)));
        ++successfulWrites[stage];
        _record(stage, addr);
        _observeWriteCounts();
    }

    function decreaseScore(uint256 who, uint64 amount) external {
        uint64 stage = score.openStage();
        address addr = _pick(who);
        (, uint64 current) = score.scores(stage, addr);
        score.decreaseScore(stage, addr, uint64(bound(amount, 0, current)));
        ++successfulWrites[stage];
        _record(stage, addr);
        _observeWriteCounts();
    }

    function finalizeStage() external {
        uint64 stage = score.openStage();
        score.finalizeStage(stage);
        finalizedDigest[stage] = digest(stage);
        _observeWriteCounts();
    }

    /// @notice The fenced finalization: a count other than the stage's must be refused, the handler's own
    /// count of successful writes must be accepted.
    function finalizeStageAt(uint64 wrong) external {
        uint64 stage = score.openStage();
        uint64 expected = successfulWrites[stage];
        if (wrong == expected) wrong = expected + 1;
        _attempt(abi.encodeCall(IVipScore.finalizeStageAt, (stage, wrong)));
        if (forbiddenWriteSucceeded) return; // kept for the invariant, not undone by the call below
        score.finalizeStageAt(stage, expected);
        finalizedDigest[stage] = digest(stage);
        _observeWriteCounts();
    }

    /// @notice Writes that carry no real entry to a stage that is not open: they succeed, as in the
    /// reference, and must count nothing anywhere.
    function writeNothingElsewhere(uint256 stageSeed, uint64 amount) external {
        uint64 open = score.openStage();
        uint64 stage = uint64(bound(stageSeed, START - 1, open + 2));
        if (stage == open) stage = open + 1;
        score.updateScores(stage, new address[](0), new uint64[](0));
        score.updateScore(stage, address(0), amount);
        _observeWriteCounts();
    }

    function writeFromOutside(uint256 which, uint256 who, uint64 amount) external {
        uint64 stage = score.openStage();
        address addr = _pick(who);
        vm.startPrank(OUTSIDER);
        which %= 7;
        if (which == 0) _attempt(abi.encodeCall(IVipScore.updateScore, (stage, addr, amount)));
        if (which == 1) _attempt(abi.encodeCall(IVipScore.increaseScore, (stage, addr, amount)));
        if (which == 2) _attempt(abi.encodeCall(IVipScore.decreaseScore, (stage, addr, 0)));
        if (which == 3) _attempt(abi.encodeCall(IVipScore.finalizeStage, (stage)));
        if (which == 4) _attempt(abi.encodeCall(IVipScore.addAllowList, (OUTSIDER)));
        if (which == 5) _attempt(abi.encodeCall(IVipScore.removeAllowList, (address(this))));
        if (which == 6) _attempt(abi.encodeCall(IVipScore.finalizeStageAt, (stage, successfulWrites[stage])));
        vm.stopPrank();
        _observeWriteCounts();
    }

    function writeToFinalizedStage(uint256 stageSeed, uint256 who, uint64 amount) external {
        uint64 open = score.openStage();
        if (open == START) return;
        uint64 stage = uint64(bound(stageSeed, START, open - 1));
        _attempt(abi.encodeCall(IVipScore.updateScore, (stage, _pick(who), amount)));
        _attempt(abi.encodeCall(IVipScore.finalizeStage, (stage)));
        _attempt(abi.encodeCall(IVipScore.finalizeStageAt, (stage, successfulWrites[stage])));
        _observeWriteCounts();
    }

    function _attempt(bytes memory call) private {
        (bool ok,) = address(score).call(call);
        if (ok) forbiddenWriteSucceeded = true;
    }

    function _pick(uint256 seed) private pure returns (address) {
        return address(uint160(0x1000 + (seed % POOL)));
    }

    /// @dev After every call: flags any stage whose write count went down since the last look.
    function _observeWriteCounts() private {
        uint64 open = score.openStage();
        for (uint64 stage = START - 1; stage <= open + 1; ++stage) {
            uint64 count = score.writeCount(stage);
            if (count < _writeCountSeen[stage]) writeCountDecreased = true;
            _writeCountSeen[stage] = count;
        }
    }

    function _record(uint64 stage, address addr) private {
        if (_scored[stage][addr]) return;
        _scored[stage][addr] = true;
        _order[stage].push(addr);
    }
}

contract VipScoreInvariantTest is Test {
    VipScoreHandler internal handler;
    VipScore internal score;

    function setUp() public {
        handler = new VipScoreHandler();
        score = handler.score();
        targetContract(address(handler));
    }

    /// @notice A stage's scores sum to its total, for every stage ever opened.
    function invariantTotalIsTheSumOfScores() public view {
        for (uint64 stage = handler.START(); stage <= score.openStage(); ++stage) {
            IVipScore.ScoreResponse[] memory page = score.getScores(stage, 0, 1000);
            uint256 sum;
            for (uint256 i; i < page.length; ++i) sum += page[i].amount;
            (, uint64 total,) = score.stages(stage);
            assertEq(total, sum, "total vs sum of scores");
        }
    }

    /// @notice A finalized stage never changes.
    function invariantFinalizedStagesNeverChange() public view {
        for (uint64 stage = handler.START(); stage < score.openStage(); ++stage) {
            assertEq(handler.digest(stage), handler.finalizedDigest(stage), "finalized stage changed");
        }
    }

    /// @notice Nobody off the allow list changes anything, and nobody changes a finalized stage.
    function invariantForbiddenWritesNeverSucceed() public view {
        assertFalse(handler.forbiddenWriteSucceeded(), "a forbidden write succeeded");
        assertFalse(score.allowList(handler.OUTSIDER()), "outsider on the allow list");
        assertEq(score.allowListSize(), 1, "allow list size");
    }

    /// @notice A stage's write count never decreases, and it is the number of write calls to it that
    /// succeeded, for every stage (0 for those never opened).
    function invariantWriteCountCountsSuccessfulWrites() public view {
        assertFalse(handler.writeCountDecreased(), "a write count decreased");
        for (uint64 stage = handler.START() - 1; stage <= score.openStage() + 1; ++stage) {
            assertEq(score.writeCount(stage), handler.successfulWrites(stage), "writeCount vs successful writes");
        }
    }

    /// @notice Paging `getScores` yields every scored address exactly once, in first-scored order.
    function invariantPagingYieldsEveryAddressOnce() public view {
        for (uint64 stage = handler.START(); stage <= score.openStage(); ++stage) {
            address[] memory expected = handler.order(stage);
            uint256 seen;
            for (uint64 offset; ; offset += 5) {
                IVipScore.ScoreResponse[] memory page = score.getScores(stage, offset, 5);
                for (uint256 i; i < page.length; ++i) {
                    assertEq(page[i].addr, expected[seen], "address in order");
                    assertEq(page[i].index, seen + 1, "index");
                    ++seen;
                }
                if (page.length < 5) break;
            }
            assertEq(seen, expected.length, "every scored address once");
            assertEq(score.scoreCount(stage), expected.length, "scoreCount");
        }
    }
}
