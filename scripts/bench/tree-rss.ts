/**
 * The resident memory of a process and all of its descendants together,
 * sampled from Linux's /proc while it runs: the memory the command holds at
 * once (its engine's process included), where the sum of each process's own
 * peak is only an upper bound (the two peak at different moments).
 *
 * The sampler shares the machine's two cores with what it measures, so it
 * reads little: each process's `status` and its main thread's `children`
 * (Node forks on its main thread: the command's engine workers),
 * synchronously. Reading every thread's `children` file asynchronously, as
 * it first did, cost 0.45–0.55 s of CPU over a 5.6 s `scores:index` (some
 * 15 threads, 50 times a second), and the command 0.2–0.35 s of its time
 * against a plain client nobody watched.
 */
import { readFileSync } from "node:fs";

const VM_RSS = /^VmRSS:\s+(\d+) kB/m;
const VM_HWM = /^VmHWM:\s+(\d+) kB/m;

/** How often the tree is read: memory is allocated far slower than this matters. */
const SAMPLE_MS = 20;

export interface TreeRssWatch {
  /** Stops sampling; the largest sum seen, in MB. */
  stop(): number;
  /** The CPU the sampling itself took so far, in seconds. */
  cpuSeconds(): number;
  /**
   * Each process seen, by pid, with its own peak as the kernel last gave it
   * (`VmHWM`), in MB: the figure for a process killed before it could
   * report its own (the command SIGKILLs its engine's workers when done).
   */
  processPeaksMb(): Map<number, number>;
}

export function watchTreeRss(pid: number): TreeRssWatch {
  let peakKb = 0;
  let cpuMicros = 0;
  const ownPeaksKb = new Map<number, number>();
  const timer = setInterval(() => {
    const before = process.cpuUsage();
    peakKb = Math.max(peakKb, treeRssKb(pid, ownPeaksKb));
    const used = process.cpuUsage(before);
    cpuMicros += used.user + used.system;
  }, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      return peakKb / 1024;
    },
    cpuSeconds: () => cpuMicros / 1e6,
    processPeaksMb: () =>
      new Map([...ownPeaksKb].map(([pid, kb]) => [pid, kb / 1024])),
  };
}

/** The tree's resident memory now, in kB; each process's own peak kept in `ownPeaksKb`. */
function treeRssKb(pid: number, ownPeaksKb: Map<number, number>): number {
  const status = readProc(`/proc/${pid}/status`);
  const kb = (field: RegExp) => Number(field.exec(status)?.[1] ?? 0);
  let total = kb(VM_RSS);
  if (status !== "")
    ownPeaksKb.set(pid, Math.max(ownPeaksKb.get(pid) ?? 0, kb(VM_HWM)));
  for (const child of readProc(`/proc/${pid}/task/${pid}/children`)
    .trim()
    .split(/\s+/))
    if (child !== "") total += treeRssKb(Number(child), ownPeaksKb);
  return total;
}

/** A /proc file's text, or "" once the process is gone. */
function readProc(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
