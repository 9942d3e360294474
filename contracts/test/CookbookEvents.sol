// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title CookbookEvents
/// @notice Stand-in only: the events the cookbook's policies (policies/examples/) score, as the venues that
/// publish such formulas declare them (a perpetuals exchange, a city game, two lending markets, a game of
/// chance, a pet game, an NFT marketplace). Each function emits one event with the arguments it is given, so
/// a test plays any history; one deployment stands for one venue. Not deployed on a rollup.
contract CookbookEvents {
    /// @notice A perpetuals trade: `sizeUsd` of notional (18 decimals) at `leverageBps` (10,000 = 1x).
    event TradeExecuted(address indexed trader, uint256 indexed marketId, bool isLong, uint256 sizeUsd, uint32 leverageBps);
    /// @notice A game action that earned `points`.
    event PointsEarned(address indexed player, uint256 indexed actionId, uint256 points);
    /// @notice A lending market's supply side grew by `amount`.
    event Supply(address indexed user, uint256 indexed marketId, uint256 amount);
    /// @notice A lending market's supply side shrank by `amount`.
    event Withdraw(address indexed user, uint256 indexed marketId, uint256 amount);
    /// @notice A lending market's borrow side grew by `amount`.
    event Borrow(address indexed user, uint256 indexed marketId, uint256 amount);
    /// @notice A lending market's borrow side shrank by `amount`.
    event Repay(address indexed user, uint256 indexed marketId, uint256 amount);
    /// @notice A wager of `amount` in game `gameId`.
    event BetPlaced(address indexed player, uint256 indexed gameId, uint256 amount);
    /// @notice `amount` harvested by a pet.
    event Harvest(address indexed account, uint256 indexed kamiId, uint256 amount);
    /// @notice An NFT sold on the marketplace for `price` (18 decimals).
    event Sale(address indexed collection, uint256 indexed tokenId, address indexed buyer, address seller, uint256 price);

    /// @notice Emits `TradeExecuted`.
    function tradeExecuted(address trader, uint256 marketId, bool isLong, uint256 sizeUsd, uint32 leverageBps)
        external
    {
        emit TradeExecuted(trader, marketId, isLong, sizeUsd, leverageBps);
    }

    /// @notice Emits `PointsEarned`.
    function pointsEarned(address player, uint256 actionId, uint256 points) external {
        emit PointsEarned(player, actionId, points);
    }

    /// @notice Emits `Supply`.
    function supply(address user, uint256 marketId, uint256 amount) external {
        emit Supply(user, marketId, amount);
    }

    /// @notice Emits `Withdraw`.
    function withdraw(address user, uint256 marketId, uint256 amount) external {
        emit Withdraw(user, marketId, amount);
    }

    /// @notice Emits `Borrow`.
    function borrow(address user, uint256 marketId, uint256 amount) external {
        emit Borrow(user, marketId, amount);
    }

    /// @notice Emits `Repay`.
    function repay(address user, uint256 marketId, uint256 amount) external {
        emit Repay(user, marketId, amount);
    }

    /// @notice Emits `BetPlaced`.
    function betPlaced(address player, uint256 gameId, uint256 amount) external {
        emit BetPlaced(player, gameId, amount);
    }

    /// @notice Emits `Harvest`.
    function harvest(address account, uint256 kamiId, uint256 amount) external {
        emit Harvest(account, kamiId, amount);
    }

    /// @notice Emits `Sale`.
    function sale(address collection, uint256 tokenId, address buyer, address seller, uint256 price) external {
        emit Sale(collection, tokenId, buyer, seller, price);
    }
}
