/**
 * The resident memory of a process and all of its descendants together,
 * sampled from Linux's /proc while it runs: the memory the command holds at
 * once (its engine's process included), where the sum of each process's own
 * peak is only an upper bound (the two peak at different moments).
 */
import { readdir, readFile } from "node:fs/promises";

/** How often the tree is read: memory is allocated far slower than this matters. */
const SAMPLE_MS = 20;

export interface TreeRssWatch {
  /** Stops sampling; the largest sum seen, in MB. */
  stop(): number;
}

export function watchTreeRss(pid: number): TreeRssWatch {
  let peakKb = 0;
  let sampling = false;
  const timer = setInterval(() => {
    if (sampling) return;
    sampling = true;
    treeRssKb(pid)
      .then((kb) => (peakKb = Math.max(peakKb, kb)))
      .catch(() => undefined)
      .finally(() => (sampling = false));
  }, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      return peakKb / 1024;
    },
  };
}

async function treeRssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  let total = rss;
  for (const child of await childrenOf(pid)) total += await treeRssKb(child);
  return total;
}

async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
  const children: number[] = [];
  for (const task of tasks) {
    const text = await readFile(
      `/proc/${pid}/task/${task}/children`,
      "utf8",
    ).catch(() => "");
    for (const child of text.trim().split(/\s+/))
      if (child !== "") children.push(Number(child));
  }
  return children;
}
