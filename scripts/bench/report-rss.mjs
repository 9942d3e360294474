// Loaded into a benchmarked command with `node --import`: at exit, writes the
// process's peak resident memory (KiB) and CPU time (µs) to BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";
import process from "node:process";

const file = process.env.BENCH_RSS_FILE;
if (file !== undefined && file !== "")
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        maxRssKb: usage.maxRSS,
        cpuMicros: usage.userCPUTime + usage.systemCPUTime,
      }),
    );
  });
