import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * Appends each process's peak RSS to BENCH_RSS_FILE when it exits: loaded into
 * a benchmarked command with `NODE_OPTIONS=--import <this>`.
 */
export const RSS_REPORTER = path.join(import.meta.dirname, "report-rss.mjs");

/**
 * The peak memory of a command's processes, in MB, from the lines
 * report-rss.mjs appended to `file`: the largest process's, all of them added
 * (a bound for the whole command), each process's by its pid, and the CPU
 * time they used, in seconds.
 */
export async function peakRss(file: string): Promise<{
  peak: number;
  all: number;
  each: { pid: number; mb: number; heapMb: number; outsideMb: number }[];
  cpuSeconds: number;
}> {
  const lines = (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map(
      (line) =>
        JSON.parse(line) as {
          pid: number;
          maxRssKb: number;
          cpuMicros: number;
          heapMb?: number;
          outsideMb?: number;
        },
    );
  const each = lines.map(({ pid, maxRssKb, heapMb, outsideMb }) => ({
    pid,
    mb: maxRssKb / 1024,
    heapMb: heapMb ?? 0,
    outsideMb: outsideMb ?? 0,
  }));
  return {
    peak: Math.max(...each.map((p) => p.mb)),
    all: each.reduce((sum, p) => sum + p.mb, 0),
    each,
    cpuSeconds: lines.reduce((sum, p) => sum + p.cpuMicros, 0) / 1e6,
  };
}
