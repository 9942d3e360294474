// Loaded into a benchmarked command with `node --import`: at exit, appends
// the process's peak resident memory (KiB) and CPU time (µs) to
// BENCH_RSS_FILE, one JSON line per process, with the largest JS heap
// (V8's, MB) and the largest memory outside it (resident less heap, MB:
// DuckDB's and Node's own) it saw, sampled every 50 ms. A command's child
// processes inherit it (the policy's engine runs in one), so the file holds
// a line for each process of the command.
import { appendFileSync } from "node:fs";
import process from "node:process";
import { setInterval } from "node:timers";

const file = process.env.BENCH_RSS_FILE;
if (file !== undefined && file !== "") {
  let heapMb = 0;
  let outsideMb = 0;
  const sample = () => {
    const { rss, heapTotal } = process.memoryUsage();
    heapMb = Math.max(heapMb, heapTotal / 2 ** 20);
    outsideMb = Math.max(outsideMb, (rss - heapTotal) / 2 ** 20);
  };
  setInterval(sample, 50).unref();
  process.on("exit", () => {
    sample();
    const usage = process.resourceUsage();
    appendFileSync(
      file,
      `${JSON.stringify({
        pid: process.pid,
        maxRssKb: usage.maxRSS,
        cpuMicros: usage.userCPUTime + usage.systemCPUTime,
        heapMb: Math.round(heapMb),
        outsideMb: Math.round(outsideMb),
      })}\n`,
    );
  });
}
