/**
 * Gas benchmark of the scoring contract on Hardhat's simulated network
 * (deterministic: the figures do not drift with machine load). Run with `npm
 * run bench:gas`.
 */
import { network } from "hardhat";

import {
  deployVipScore,
  measureGas,
  sampleAddresses,
  sampleScores,
} from "./gas/scenarios.js";
import { defined } from "../tasks/errors.js";

/**
 * The reference contract's figures, measured on the same network and compiler
 * (shared/notes/facts.md §2).
 */
const REFERENCE: Record<string, Record<number, bigint>> = {
  deploy: { 0: 1_902_213n },
  "updateScores, new addresses": { 100: 52_636n, 300: 52_407n },
  "updateScores, same addresses, new scores": { 100: 11_957n, 300: 11_760n },
  finalizeStage: { 0: 55_134n },
};
const TARGET: Record<string, bigint> = {
  "updateScores, new addresses": 31_000n,
  "updateScores, same addresses, new scores": 9_200n,
  "updateScores, same addresses, same scores": 9_200n,
  finalizeStage: 35_000n,
  finalizeStageAt: 34_000n,
};
const TX_GAS_CAP = 16_777_216n;

const { ethers } = await network.create();
const rows = await measureGas(ethers, [100, 300]);

const fmt = (n: bigint | undefined) =>
  n === undefined ? "" : n.toLocaleString("en-US");
const header = [
  "operation",
  "addresses",
  "gas",
  "per address",
  "reference",
  "target",
];
const table = rows.map((r) => {
  const per = r.addresses > 0 ? r.gas / BigInt(r.addresses) : r.gas;
  return [
    r.operation,
    String(r.addresses || ""),
    fmt(r.gas),
    fmt(r.addresses ? per : undefined),
    fmt(REFERENCE[r.operation]?.[r.addresses]),
    TARGET[r.operation] ? "≤ " + fmt(TARGET[r.operation]) : "",
  ];
});
const widths = header.map((h, i) =>
  Math.max(h.length, ...table.map((row) => defined(row[i], "row[i]").length)),
);
const line = (cells: string[]) =>
  cells
    .map((c, i) =>
      i === 0
        ? c.padEnd(defined(widths[i], "widths[i]"))
        : c.padStart(defined(widths[i], "widths[i]")),
    )
    .join("  ");
console.log(line(header));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const row of table) console.log(line(row));

// The largest batch of new addresses one transaction can carry under the
// per-transaction cap.
const score = await deployVipScore(ethers, 1n);
// Past the cap the node refuses to estimate at all, which also means "does not
// fit".
const fits = async (n: number) =>
  score.updateScores
    .estimateGas(1n, sampleAddresses(n, "cap"), sampleScores(n, "cap"))
    .then(
      (gas) => gas <= TX_GAS_CAP,
      () => false,
    );
let low = 1;
let high = 2_000;
while (low < high) {
  const mid = Math.ceil((low + high) / 2);
  if (await fits(mid)) low = mid;
  else high = mid - 1;
}
console.log(
  `\nlargest batch of new addresses under the ${fmt(TX_GAS_CAP)} per-transaction cap: ${low} ` +
    "(reference: about 570 under a 30M block limit)",
);
