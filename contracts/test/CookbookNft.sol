// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title CookbookNft
/// @notice Stand-in only: an ERC-721's ownership ledger and its standard `Transfer` event, which the
/// cookbook's policies read (a city game's land, a collection, a booster pass). `move` mints a token no one
/// holds, transfers one that is held, and burns one moved to the zero address; no approvals. Not deployed on a
/// rollup.
contract CookbookNft {
    /// @notice ERC-721's event: a mint is from the zero address, a burn to it.
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    /// @notice Who holds `tokenId` (the zero address: no one).
    mapping(uint256 tokenId => address owner) public ownerOf;

    /// @notice Moves `tokenId` from whoever holds it (no one: a mint) to `to` (the zero address: a burn).
    function move(address to, uint256 tokenId) external {
        address from = ownerOf[tokenId];
        ownerOf[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }
}
