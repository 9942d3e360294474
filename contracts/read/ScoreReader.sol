// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title ScoreReader
/// @notice Never deployed: its creation code runs inside an `eth_call` (no `to`), reads the scores of many
/// addresses from a scoring contract and returns them as the call's result, so one call reads what would
/// take a thousand. The tasks' read-back uses it because `getScores` reads each address from code
/// (EXTCODECOPY), which the simulated network serves several times slower than the storage slot that
/// `scores(stage, addr)` reads.
/// @dev `addrs` is the addresses packed, 20 bytes each (not an `address[]`: 32 bytes each would fit 1,500
/// addresses under the 49,152-byte limit of creation code and its arguments, 20 bytes fit 2,400; fewer
/// calls read a stage faster). Returns 9 bytes per address, in order: 1 if it is scored (`isIndexed`), else
/// 0; then its amount as 8 bytes. What a constructor returns is taken as code, so it must stay under the
/// 24,576-byte code size limit (at most 2,730 addresses) and must not start with 0xEF (it starts with 0 or
/// 1).
contract ScoreReader {
    constructor(address score, uint64 stage, bytes memory addrs) {
        // `scores(uint64,address)`, the reference's selector.
        bytes4 selector = 0x5466d83d;
        uint256 n = addrs.length / 20;
        assembly ("memory-safe") {
            let out := mload(0x40)
            let request := add(out, add(mul(n, 9), 0x20))
            mstore(request, selector)
            mstore(add(request, 0x04), stage)
            let packed := add(addrs, 0x20)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                mstore(add(request, 0x24), shr(96, mload(add(packed, mul(i, 20)))))
                if iszero(staticcall(gas(), score, request, 0x44, 0x00, 0x40)) { revert(0x00, 0x00) }
                let entry := or(shl(64, iszero(iszero(mload(0x00)))), mload(0x20))
                mstore(add(out, mul(i, 9)), shl(184, entry))
            }
            return(out, mul(n, 9))
        }
    }
}
