/**
 * Validation benchmark: reads score files of 100,000 and 1,000,000 rows
 * (checksummed addresses, the costliest case) the way `scores:update` does,
 * each in a fresh process, and prints rows per second and peak RSS beside the
 * RSS of a process that only loads the modules. Run with `npm run
 * bench:validate`.
 */
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { sampleAddresses, sampleScores } from "./gas/scenarios.js";
import { defined } from "../tasks/errors.js";
import { readScoreFile } from "../tasks/scores/read.js";

const [, , mode, file] = process.argv;

if (mode === "--child") {
  // One measurement: read `file` (or nothing, for the baseline) and report.
  const started = performance.now();
  const rows =
    file === undefined ? 0 : (await readScoreFile(file)).table.length;
  const ms = performance.now() - started;
  console.log(
    JSON.stringify({
      rows,
      ms,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
  process.exit(0);
}

const SIZES = [100_000, 1_000_000];
const dir = await mkdtemp(path.join(tmpdir(), "vip-bench-validate-"));
try {
  const files = new Map<number, string>();
  for (const size of SIZES) {
    const target = path.join(dir, `scores-${size}.csv`);
    const out = createWriteStream(target);
    out.write("address,score\n");
    const chunk = 50_000;
    for (let start = 0; start < size; start += chunk) {
      const n = Math.min(chunk, size - start);
      const addresses = sampleAddresses(n, "validate", start);
      const scores = sampleScores(n, "validate", start);
      if (
        !out.write(
          addresses.map((a, i) => `${a},${scores[i]}`).join("\n") + "\n",
        )
      )
        await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    files.set(size, target);
  }
  const measure = (target?: string) =>
    JSON.parse(
      defined(
        execFileSync(
          process.execPath,
          [
            "--import",
            "tsx",
            import.meta.filename,
            "--child",
            ...(target === undefined ? [] : [target]),
          ],
          { encoding: "utf8" },
        )
          .trim()
          .split("\n")
          .at(-1),
        'execFileSync( process.execPath, [ "--import", "tsx", impo...',
      ),
    ) as { rows: number; ms: number; maxRssMb: number };

  const baseline = measure();
  console.log(
    `validation of CSV score files (checksummed addresses), each in a fresh process; ` +
      `modules alone: ${baseline.maxRssMb.toFixed(0)} MB peak RSS\n`,
  );
  console.log(
    [
      "rows",
      "seconds",
      "rows/s",
      "peak RSS",
      "above modules",
      "bytes/row above modules",
    ]
      .map((h, i) => (i === 0 ? h.padEnd(10) : h.padStart(i === 5 ? 26 : 16)))
      .join(""),
  );
  for (const size of SIZES) {
    const r = measure(files.get(size));
    const above = r.maxRssMb - baseline.maxRssMb;
    console.log(
      [
        r.rows.toLocaleString("en-US").padEnd(10),
        (r.ms / 1000).toFixed(1).padStart(16),
        Math.round(r.rows / (r.ms / 1000))
          .toLocaleString("en-US")
          .padStart(16),
        `${r.maxRssMb.toFixed(0)} MB`.padStart(16),
        `${above.toFixed(0)} MB`.padStart(16),
        Math.round((above * 1024 * 1024) / r.rows)
          .toLocaleString("en-US")
          .padStart(26),
      ].join(""),
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
