import {
  type Block,
  DAY,
  E18,
  type Nft,
  type Tx,
  type Window,
  ZERO,
} from "./activity.js";

/**
 * Each cookbook policy's scores, computed here in TypeScript integers from
 * the policy's words (docs/policies.md), not from its SQL: straight loops
 * over the history as it was sent, second by second where the words say
 * "each second". Addresses scoring 0 are left out, as the words say.
 */
export type Scores = Map<string, bigint>;

const inWindow = (time: bigint, w: Window) => w.start <= time && time < w.end;

function add(map: Map<string, bigint>, key: string, value: bigint): void {
  map.set(key, (map.get(key) ?? 0n) + value);
}

function positive(map: Map<string, bigint>): Scores {
  return new Map([...map].filter(([, score]) => score > 0n));
}

/** Every transaction, in chain order, with its block's time. */
function* chain(blocks: Block[]): Generator<{ time: bigint; tx: Tx }> {
  for (const block of blocks)
    for (const tx of block.txs) yield { time: block.time, tx };
}

/** Who holds which token of an ERC-721, and how many each holds, as its moves are played. */
class Holdings {
  readonly #owners = new Map<bigint, string>();
  readonly counts = new Map<string, bigint>();
  /** Plays a move; returns the token's sender (the zero address for a mint). */
  move(to: string, tokenId: bigint): string {
    const from = this.#owners.get(tokenId) ?? ZERO;
    this.#owners.set(tokenId, to);
    add(this.counts, from, -1n);
    add(this.counts, to, 1n);
    return from;
  }
  holds(player: string): boolean {
    return (this.counts.get(player) ?? 0n) >= 1n;
  }
}

// ---- volume × weight with leverage tiers ------------------------------------

/** The band's weight in percent: leverage λ = leverageBps / 10 000. */
function leverageWeight(leverageBps: bigint): bigint {
  const x = 10_000n; // 1x
  if (leverageBps < 2n * x) return 100n;
  if (leverageBps < 5n * x) return 125n;
  if (leverageBps < 10n * x) return 150n;
  if (leverageBps < 25n * x) return 120n;
  return 50n;
}

export function volumeLeverageTiers(blocks: Block[], w: Window): Scores {
  const weighted = new Map<string, bigint>();
  for (const { time, tx } of chain(blocks))
    if (tx.kind === "trade" && inWindow(time, w))
      add(weighted, tx.trader, tx.sizeUsd * leverageWeight(tx.leverageBps));
  return positive(
    new Map([...weighted].map(([u, v]) => [u, v / (100n * E18)])),
  );
}

// ---- points passed through while holding land ----------------------------------

export function pointsWhileHolding(blocks: Block[], w: Window): Scores {
  const land = new Holdings();
  const scores = new Map<string, bigint>();
  for (const { time, tx } of chain(blocks)) {
    if (tx.kind === "nft" && tx.nft === "land") land.move(tx.to, tx.tokenId);
    if (tx.kind === "points" && inWindow(time, w) && land.holds(tx.player))
      add(scores, tx.player, tx.points);
  }
  return positive(scores);
}

// ---- balances, second by second ---------------------------------------------------

/**
 * Steps through the seconds of `w`; at each second `s`, `each` sees the
 * balances after every lending event of `venue` in a block of time ≤ s.
 * Balances are keyed `user|market|side` (supply or borrow).
 */
function everySecond(
  blocks: Block[],
  venue: "inertia" | "echelon",
  w: Window,
  each: (balances: Map<string, bigint>) => void,
): void {
  const events = [...chain(blocks)].filter(
    (e): e is { time: bigint; tx: Extract<Tx, { kind: "lend" }> } =>
      e.tx.kind === "lend" && e.tx.venue === venue,
  );
  const balances = new Map<string, bigint>();
  let next = 0;
  for (let s = w.start; s < w.end; s++) {
    for (; next < events.length && (events[next]?.time ?? 0n) <= s; next++) {
      const { tx } = events[next] as (typeof events)[number];
      const side =
        tx.event === "Supply" || tx.event === "Withdraw" ? "supply" : "borrow";
      const sign = tx.event === "Supply" || tx.event === "Borrow" ? 1n : -1n;
      add(balances, `${tx.user}|${tx.marketId}|${side}`, sign * tx.amount);
    }
    each(balances);
  }
}

const positionOf = (key: string) => {
  const [user = "", market = "", side = ""] = key.split("|");
  return { user, market: BigInt(market), side };
};

/** Market → [supply weight, borrow weight]; other markets weigh nothing. */
const LENDING_WEIGHTS = new Map<bigint, [bigint, bigint]>([
  [1n, [1n, 2n]],
  [2n, [3n, 5n]],
]);

export function timeWeightedLending(blocks: Block[], w: Window): Scores {
  const weighted = new Map<string, bigint>();
  everySecond(blocks, "inertia", w, (balances) => {
    for (const [key, balance] of balances) {
      const { user, market, side } = positionOf(key);
      const weights = LENDING_WEIGHTS.get(market);
      if (weights === undefined) continue;
      add(
        weighted,
        user,
        (side === "supply" ? weights[0] : weights[1]) * balance,
      );
    }
  });
  // One point: one whole token (10^18) held one hour at weight 1.
  return positive(
    new Map([...weighted].map(([u, v]) => [u, v / (3_600n * E18)])),
  );
}

// ---- a per-second share of each market's daily budget -------------------------------

/** Market → its budget in points a day; other markets pay nothing. */
const DAILY_BUDGETS = new Map<bigint, bigint>([
  [1n, 864_000n],
  [2n, 172_800n],
]);
const MICRO = 1_000_000n;

export function perSecondMarketBudget(blocks: Block[], w: Window): Scores {
  const micro = new Map<string, bigint>();
  everySecond(blocks, "echelon", w, (balances) => {
    for (const [market, budget] of DAILY_BUDGETS) {
      const held = [...balances]
        .map(([key, balance]) => ({ ...positionOf(key), balance }))
        .filter((p) => p.market === market && p.balance > 0n);
      const total = held.reduce((sum, p) => sum + p.balance, 0n);
      if (total === 0n) continue; // no supply: this second's budget is not spent
      // Each supplier's part of budget / 86 400, floored to a millionth of a point.
      for (const p of held)
        add(micro, p.user, (MICRO * budget * p.balance) / (DAY * total));
    }
  });
  return positive(new Map([...micro].map(([u, v]) => [u, v / MICRO])));
}

// ---- rank pots ------------------------------------------------------------------------

/** Ranks first–last share `pot`. */
const RANK_BANDS = [
  { first: 1, last: 1, pot: 5_000n },
  { first: 2, last: 2, pot: 3_000n },
  { first: 3, last: 3, pot: 2_000n },
  { first: 4, last: 6, pot: 4_000n },
  { first: 7, last: 10, pot: 3_000n },
];

export function rankPots(blocks: Block[], w: Window): Scores {
  const wagered = new Map<string, bigint>();
  for (const { time, tx } of chain(blocks))
    if (tx.kind === "bet" && inWindow(time, w))
      add(wagered, tx.player, tx.amount);
  const ranked = [...wagered]
    .filter(([, total]) => total > 0n)
    .sort(([a, x], [b, y]) => (x !== y ? (x > y ? -1 : 1) : a < b ? -1 : 1))
    .map(([player], i) => ({ player, rank: i + 1 }));
  const scores = new Map<string, bigint>();
  for (const band of RANK_BANDS) {
    const holders = ranked.filter(
      (r) => r.rank >= band.first && r.rank <= band.last,
    );
    for (const { player } of holders)
      scores.set(player, band.pot / BigInt(holders.length));
  }
  return scores;
}

// ---- a share of a fixed budget by points ----------------------------------------------

export function budgetShareByPoints(blocks: Block[], w: Window): Scores {
  const budget = 1_000_000n;
  const points = new Map<string, bigint>();
  for (const { time, tx } of chain(blocks))
    if (tx.kind === "harvest" && inWindow(time, w))
      add(points, tx.account, tx.amount);
  const total = [...points.values()].reduce((a, b) => a + b, 0n);
  if (total === 0n) return new Map();
  return positive(
    new Map([...points].map(([u, p]) => [u, (budget * p) / total])),
  );
}

// ---- mint, buy and sell with a booster ------------------------------------------------

export function nftMintTradeBooster(blocks: Block[], w: Window): Scores {
  const nfts = new Map<Nft, Holdings>([
    ["collection", new Holdings()],
    ["pass", new Holdings()],
  ]);
  const raw = new Map<string, bigint>();
  for (const { time, tx } of chain(blocks)) {
    // The stage's last block is its last block before `end`: nothing later counts.
    if (time >= w.end) break;
    if (tx.kind === "nft" && tx.nft !== "land") {
      const from = nfts.get(tx.nft)?.move(tx.to, tx.tokenId);
      if (tx.nft === "collection" && from === ZERO && inWindow(time, w))
        add(raw, tx.to, 50n * E18);
    }
    if (tx.kind === "sale" && inWindow(time, w) && tx.buyer !== tx.seller) {
      add(raw, tx.buyer, 2n * tx.price);
      add(raw, tx.seller, tx.price);
    }
  }
  const passes = nfts.get("pass") as Holdings;
  return positive(
    new Map(
      [...raw].map(([u, v]) => [
        u,
        ((passes.holds(u) ? 150n : 100n) * v) / (100n * E18),
      ]),
    ),
  );
}
