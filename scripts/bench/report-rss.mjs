// Loaded into a benchmarked command with `node --import`: at exit, appends
// the process's peak resident memory (KiB) and CPU time (µs) to
// BENCH_RSS_FILE, one JSON line per process. A command's child processes
// inherit it (the policy's engine runs in one), so the file holds a line for
// each process of the command.
import { appendFileSync } from "node:fs";
import process from "node:process";

const file = process.env.BENCH_RSS_FILE;
if (file !== undefined && file !== "")
  process.on("exit", () => {
    const usage = process.resourceUsage();
    appendFileSync(
      file,
      `${JSON.stringify({
        pid: process.pid,
        maxRssKb: usage.maxRSS,
        cpuMicros: usage.userCPUTime + usage.systemCPUTime,
      })}\n`,
    );
  });
