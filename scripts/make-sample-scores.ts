/**
 * Writes a sample score file: `npm run sample-scores -- [count] [file]`
 * (default 1000 rows to scripts/sample-scores.csv). Addresses are derived from
 * a fixed seed, so the file is reproducible.
 */
import { writeFile } from "node:fs/promises";

import { sampleAddresses, sampleScores } from "./gas/scenarios.js";
import { defined } from "../tasks/errors.js";

const count = Number(process.argv[2] ?? 1000);
const file = process.argv[3] ?? "scripts/sample-scores.csv";
const addresses = sampleAddresses(count, "sample");
const scores = sampleScores(count, "sample");
const rows = addresses.map(
  (address, i) => `${address},${defined(scores[i], "scores[i]") % 100_000n}`,
);
await writeFile(file, ["address,score", ...rows].join("\n") + "\n");
console.log(`wrote ${count} scores to ${file}`);
