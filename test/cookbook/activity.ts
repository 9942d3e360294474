/**
 * The activity the cookbook's policies are scored on: what each venue's
 * contract emits, block by block, at set times. One history for every family,
 * played once on one node: history before stage 1, stage 1, blocks exactly on
 * each window's start and end, several transactions a block (and several
 * families in one block). The models (`models.ts`) read it as plain data; the
 * suite plays it (`play.ts`).
 */

export const DAY = 86_400n;
export const E18 = 10n ** 18n;
const T0 = 1_900_000_000n;

/** A window of the base chain's program: `[start, end)`, unix seconds. */
export interface Window {
  start: bigint;
  end: bigint;
}

/** The stages the suite scores: back to back, two days each. */
export const STAGES = new Map<bigint, Window>([
  [1n, { start: T0 - 2n * DAY, end: T0 }],
  [2n, { start: T0, end: T0 + 2n * DAY }],
]);
/** The open stage on the base chain, whose first block closes stage 2. */
export const OPEN_STAGE = {
  stage: 3n,
  start: T0 + 2n * DAY,
  end: T0 + 4n * DAY,
};
/** When the venues are deployed: before any activity. */
export const DEPLOY_TIME = T0 - 3n * DAY;

/** The venues, one contract each (contracts/test/CookbookEvents.sol). */
export type Venue =
  "perp" | "city" | "inertia" | "echelon" | "casino" | "pets" | "market";
/** The ERC-721s (contracts/test/CookbookNft.sol). */
export type Nft = "land" | "collection" | "pass";

/** One transaction: the one event it emits, by its venue's function. */
export type Tx =
  | {
      kind: "trade";
      trader: string;
      marketId: bigint;
      isLong: boolean;
      sizeUsd: bigint;
      leverageBps: bigint;
    }
  | { kind: "points"; player: string; actionId: bigint; points: bigint }
  | {
      kind: "lend";
      venue: "inertia" | "echelon";
      event: "Supply" | "Withdraw" | "Borrow" | "Repay";
      user: string;
      marketId: bigint;
      amount: bigint;
    }
  | { kind: "bet"; player: string; gameId: bigint; amount: bigint }
  | { kind: "harvest"; account: string; kamiId: bigint; amount: bigint }
  /** A sale of the collection's token on the marketplace. */
  | {
      kind: "sale";
      tokenId: bigint;
      buyer: string;
      seller: string;
      price: bigint;
    }
  /** An ERC-721 move: a mint if no one holds the token, a burn to 0x0…0. */
  | { kind: "nft"; nft: Nft; to: string; tokenId: bigint };

export interface Block {
  time: bigint;
  txs: Tx[];
}

export const ZERO = "0x0000000000000000000000000000000000000000";
/** A test account: `0x<tag>` and zeros, lowercase as the index stores it. */
const account = (tag: string) => `0x${tag.padEnd(40, "0")}`;

// The seconds the history uses. W… are in stage 2, S1… in stage 1.
const BEFORE = T0 - (5n * DAY) / 2n; // before stage 1: history only
const S1_START = T0 - 2n * DAY; // stage 1's first second
const S1_MID = T0 - DAY;
const S1_LAST = T0 - 1n; // stage 1's last second
const W_START = T0; // stage 2's first second
const W_HOUR = T0 + 3_600n;
const W_DAY = T0 + DAY;
const W_DAY_1 = T0 + DAY + 1n;
const W_MID = T0 + (3n * DAY) / 2n;
const W_LAST = T0 + 2n * DAY - 1n; // stage 2's last second
const NEXT = T0 + 2n * DAY; // stage 3's first second: belongs to no scored stage
const LATER = NEXT + 50n;

// ---- volume × weight with leverage tiers -----------------------------------
export const TRADERS = {
  a: account("a1"),
  b: account("a2"),
  c: account("a3"),
  d: account("a4"),
};
const trade = (
  trader: string,
  sizeUsd: bigint,
  leverageBps: bigint,
  marketId = 1n,
): Tx => ({
  kind: "trade",
  trader,
  marketId,
  isLong: marketId % 2n === 1n,
  sizeUsd,
  leverageBps,
});
const { a: TA, b: TB, c: TC, d: TD } = TRADERS;
const PERP: [bigint, Tx[]][] = [
  [BEFORE, [trade(TA, 1_000n * E18, 30_000n)]],
  [
    S1_START,
    [trade(TB, 70n * E18 + 1n, 49_999n), trade(TC, 9n * E18, 10_000n)],
  ],
  [S1_LAST, [trade(TA, 3n * E18, 250_000n, 2n)]],
  [
    W_START,
    [
      trade(TA, 500n * E18, 10_000n),
      trade(TB, 200n * E18, 20_000n, 2n), // exactly 2x: 125
      trade(TC, 1_000n * E18, 19_999n), // just below 2x: 100
    ],
  ],
  [
    W_HOUR,
    [
      trade(TB, 333n * E18 + 7n, 50_000n), // exactly 5x: 150
      trade(TA, 100n * E18, 99_999n, 2n), // just below 10x: 150
    ],
  ],
  [
    W_DAY,
    [
      trade(TC, 250n * E18, 100_000n), // exactly 10x: 120
      trade(TD, 40n * E18, 250_000n), // exactly 25x: 50
      trade(TD, E18 - 1n, 500_000n),
    ],
  ],
  [W_LAST, [trade(TA, 10n * E18, 249_999n)]], // just below 25x: 120
  [NEXT, [trade(TA, 1_000_000n * E18, 30_000n), trade(TD, 5n * E18, 10_000n)]],
  [LATER, [trade(TB, 8n * E18, 10_000n)]],
];

// ---- points passed through while holding land ------------------------------
export const PLAYERS = {
  p1: account("b1"),
  p2: account("b2"),
  p3: account("b3"),
  p4: account("b4"),
};
const points = (player: string, value: bigint, actionId = 7n): Tx => ({
  kind: "points",
  player,
  actionId,
  points: value,
});
const land = (to: string, tokenId: bigint): Tx => ({
  kind: "nft",
  nft: "land",
  to,
  tokenId,
});
const { p1: P1, p2: P2, p3: P3, p4: P4 } = PLAYERS;
const CITY: [bigint, Tx[]][] = [
  [BEFORE, [land(P1, 1n), land(P2, 2n), points(P1, 1_000n)]],
  // Stage 1: P3 earns before owning any land, then P2's land is sold to P3.
  [S1_START, [points(P3, 40n), points(P2, 20n)]],
  [S1_MID, [land(P3, 2n), points(P3, 30n), points(P2, 500n)]],
  [S1_LAST, [points(P1, 5n)]],
  [
    W_START,
    [
      points(P1, 3n), // holds land 1
      points(P2, 7n), // sold land 2 in stage 1: nothing
      points(P4, 900n), // before its first land, earlier in the block: nothing
      land(P4, 3n),
      points(P4, 5n), // after it, later in the same block
      points(P3, 4n),
    ],
  ],
  [W_DAY, [points(P3, 2n), land(P2, 2n), points(P3, 100n), points(P2, 6n)]],
  [W_DAY_1, [points(P1, 1n), land(ZERO, 1n), points(P1, 8n)]], // burnt
  [W_LAST, [points(P4, 9n), land(P3, 4n), points(P3, 11n)]],
  [NEXT, [points(P4, 1_000n), points(P2, 70n)]],
];

// ---- time-weighted lending: supply and borrow ------------------------------
export const LENDERS = {
  l1: account("c1"),
  l2: account("c2"),
  l3: account("c3"),
};
const lend = (
  venue: "inertia" | "echelon",
  event: "Supply" | "Withdraw" | "Borrow" | "Repay",
  user: string,
  marketId: bigint,
  amount: bigint,
): Tx => ({ kind: "lend", venue, event, user, marketId, amount });
const inertia = (
  event: "Supply" | "Withdraw" | "Borrow" | "Repay",
  user: string,
  marketId: bigint,
  amount: bigint,
) => lend("inertia", event, user, marketId, amount);
const { l1: L1, l2: L2, l3: L3 } = LENDERS;
const INERTIA: [bigint, Tx[]][] = [
  [BEFORE, [inertia("Supply", L1, 1n, 1_000n * E18)]],
  [
    S1_MID,
    [
      inertia("Borrow", L1, 1n, 200n * E18),
      inertia("Supply", L2, 2n, 50n * E18 + 11n),
    ],
  ],
  [S1_LAST, [inertia("Withdraw", L1, 1n, 300n * E18)]],
  [
    W_START,
    [
      inertia("Supply", L2, 2n, 10n * E18),
      inertia("Supply", L3, 1n, 5n * E18),
      inertia("Withdraw", L3, 1n, 5n * E18), // in and out within one second
      inertia("Supply", L3, 3n, 1_000_000n * E18), // market 3 has no weight
    ],
  ],
  [
    W_HOUR,
    [
      inertia("Repay", L1, 1n, 200n * E18),
      inertia("Borrow", L2, 2n, 20n * E18 + 3n),
    ],
  ],
  [W_DAY, [inertia("Supply", L3, 1n, 7n * E18 + 3n)]],
  [
    W_LAST,
    [
      inertia("Withdraw", L2, 2n, 60n * E18 + 11n), // all of it: its last second earns nothing
      inertia("Supply", L1, 1n, 1_800n * E18), // one second
    ],
  ],
  [
    NEXT,
    [
      inertia("Withdraw", L1, 1n, 2_500n * E18),
      inertia("Borrow", L3, 1n, 1n * E18),
    ],
  ],
];

// ---- a per-second share of each market's daily budget ----------------------
export const SUPPLIERS = {
  e1: account("d1"),
  e2: account("d2"),
  e3: account("d3"),
};
const echelon = (
  event: "Supply" | "Withdraw",
  user: string,
  marketId: bigint,
  amount: bigint,
) => lend("echelon", event, user, marketId, amount);
const { e1: E1, e2: E2, e3: E3 } = SUPPLIERS;
const ECHELON: [bigint, Tx[]][] = [
  [BEFORE, [echelon("Supply", E1, 1n, 100n * E18)]],
  [S1_MID, [echelon("Supply", E2, 1n, 300n * E18 + 1n)]],
  [
    W_START,
    [
      echelon("Supply", E3, 1n, 100n * E18),
      echelon("Withdraw", E1, 1n, 50n * E18),
      echelon("Supply", E2, 2n, 1n * E18),
    ],
  ],
  [W_HOUR, [echelon("Supply", E3, 2n, 3n * E18 + 7n)]],
  [W_DAY, [echelon("Withdraw", E2, 1n, 300n * E18 + 1n)]], // E2 leaves market 1
  [
    W_MID,
    [
      echelon("Withdraw", E1, 1n, 50n * E18),
      echelon("Supply", E2, 9n, 5n * E18),
    ],
  ], // market 9: no budget
  [W_LAST, [echelon("Supply", E1, 2n, 4n * E18)]],
  [
    NEXT,
    [
      echelon("Withdraw", E3, 1n, 100n * E18),
      echelon("Supply", E1, 1n, 10_000n * E18),
    ],
  ],
];

// ---- rank pots --------------------------------------------------------------
/**
 * Players by their stage-2 total, largest first; ties are ranked by
 * address, which is not the order of their names here.
 */
export const GAMBLERS = {
  r1: account("e7"),
  r2: account("e9"), // ties r3 at 300: ranked after it
  r3: account("e2"),
  r4: account("e8"),
  r5: account("ea"), // ties r6 and r7 at 200: third of the three, rank 7
  r6: account("e5"),
  r7: account("e1"),
  r8: account("ec"),
  r9: account("eb"), // ties r10 and r11 at 50: ranks 9, 10, 11 by address
  r10: account("e3"),
  r11: account("e4"),
};
const bet = (player: string, amount: bigint, gameId = 1n): Tx => ({
  kind: "bet",
  player,
  gameId,
  amount,
});
const G = GAMBLERS;
const CASINO: [bigint, Tx[]][] = [
  [BEFORE, [bet(G.r11, 10_000n)]],
  // Stage 1: five players, so ranks 4–6 share their pot between two.
  [S1_START, [bet(G.r1, 10n), bet(G.r2, 40n)]],
  [S1_MID, [bet(G.r3, 40n), bet(G.r4, 5n), bet(G.r5, 1n)]],
  [S1_LAST, [bet(G.r1, 35n)]],
  [
    W_START,
    [bet(G.r1, 200n), bet(G.r2, 100n), bet(G.r3, 300n), bet(G.r9, 50n)],
  ],
  [W_HOUR, [bet(G.r2, 150n, 2n), bet(G.r4, 250n), bet(G.r5, 120n)]],
  [W_DAY, [bet(G.r6, 200n), bet(G.r7, 199n), bet(G.r8, 100n), bet(G.r10, 50n)]],
  [
    W_LAST,
    [
      bet(G.r1, 300n),
      bet(G.r2, 50n),
      bet(G.r5, 80n),
      bet(G.r7, 1n),
      bet(G.r11, 50n),
    ],
  ],
  [NEXT, [bet(G.r11, 1_000n), bet(G.r10, 1n)]],
];

// ---- a share of a fixed budget by points -------------------------------------
export const KEEPERS = {
  k1: account("f1"),
  k2: account("f2"),
  k3: account("f3"),
  k4: account("f4"),
};
const harvest = (account: string, amount: bigint, kamiId = 1n): Tx => ({
  kind: "harvest",
  account,
  kamiId,
  amount,
});
const K = KEEPERS;
const PETS: [bigint, Tx[]][] = [
  [BEFORE, [harvest(K.k4, 1_000_000n)]],
  [S1_MID, [harvest(K.k1, 2n), harvest(K.k2, 1n)]],
  [S1_LAST, [harvest(K.k3, 4n)]],
  [W_START, [harvest(K.k1, 1n), harvest(K.k2, 2n, 5n), harvest(K.k2, 1n, 6n)]],
  [W_DAY, [harvest(K.k3, 3n), harvest(K.k1, 3n)]],
  [W_LAST, [harvest(K.k2, 1n)]],
  [NEXT, [harvest(K.k4, 99n)]],
];

// ---- mint, buy and sell with a booster ----------------------------------------
export const COLLECTORS = {
  g1: account("9a1"),
  g2: account("9a2"),
  g3: account("9a3"),
  g4: account("9a4"),
};
const mint = (to: string, tokenId: bigint): Tx => ({
  kind: "nft",
  nft: "collection",
  to,
  tokenId,
});
const pass = (to: string, tokenId: bigint): Tx => ({
  kind: "nft",
  nft: "pass",
  to,
  tokenId,
});
/** A sale: the token moves to its buyer, then the marketplace says at what price. */
const sale = (
  tokenId: bigint,
  seller: string,
  buyer: string,
  price: bigint,
): Tx[] => [
  { kind: "nft", nft: "collection", to: buyer, tokenId },
  { kind: "sale", tokenId, buyer, seller, price },
];
const C = COLLECTORS;
const MARKET: [bigint, Tx[]][] = [
  [BEFORE, [pass(C.g1, 1n), mint(C.g1, 1n)]],
  [S1_MID, [mint(C.g3, 7n), ...sale(7n, C.g3, C.g4, 2n * E18 + 5n)]],
  [S1_LAST, [mint(C.g2, 8n), pass(C.g4, 9n)]],
  [
    W_START,
    [
      mint(C.g2, 2n),
      mint(C.g2, 3n),
      mint(C.g3, 4n),
      ...sale(1n, C.g1, C.g2, 3n * E18),
    ],
  ],
  [W_HOUR, [...sale(2n, C.g2, C.g3, (3n * E18) / 2n + 1n), pass(C.g3, 2n)]],
  [W_DAY, [pass(C.g2, 1n)]], // G1's pass goes to G2
  [W_DAY_1, [...sale(4n, C.g3, C.g3, 100n * E18)]], // to oneself: nothing
  [W_LAST, [mint(C.g4, 5n), pass(C.g4, 2n), pass(ZERO, 9n)]], // G3's pass to G4; G4's first burnt
  [NEXT, [pass(C.g1, 3n), mint(C.g1, 6n), ...sale(5n, C.g4, C.g1, 50n * E18)]],
];

/**
 * The blocks, in time order; a block's transactions are the families' in the
 * order above, each family's in its own order.
 */
export const BLOCKS: Block[] = (() => {
  const byTime = new Map<bigint, Tx[]>();
  for (const family of [PERP, CITY, INERTIA, ECHELON, CASINO, PETS, MARKET])
    for (const [time, txs] of family)
      byTime.set(time, [...(byTime.get(time) ?? []), ...txs]);
  return [...byTime]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([time, txs]) => ({ time, txs }));
})();
