import { SingleBar } from "cli-progress";

import {
  counted,
  formatDuration,
  formatNumber,
  type Output,
} from "../output.js";

export interface IndexProgress {
  update(block: bigint, logs: number): void;
  stop(): void;
}

/**
 * Reports indexing from block `start` to `head`: a live bar on a terminal
 * (blocks, logs, logs per second, time left), a plain line every 5 s and at
 * the end otherwise.
 */
export function createIndexProgress(
  start: bigint,
  head: bigint,
  out: Output,
  interactive = process.stderr.isTTY === true,
): IndexProgress {
  const total = Number(head - start + 1n);
  const started = Date.now();
  let latest = { block: start - 1n, logs: 0 };
  const figures = () => {
    const seconds = (Date.now() - started) / 1000;
    const done = Number(latest.block - start + 1n);
    return {
      done,
      rate: seconds > 0 ? Math.round(latest.logs / seconds) : 0,
      left:
        done > 0 && seconds > 0
          ? formatDuration(Math.ceil(((total - done) * seconds) / done))
          : "?",
    };
  };
  if (total <= 0) return { update: () => {}, stop: () => {} };
  if (interactive) {
    const bar = new SingleBar({
      format:
        "index {bar} {percentage}% | block {block} of {head} | {logs} logs | {rate} logs/s | {left} left",
      hideCursor: true,
      stream: process.stderr,
    });
    bar.start(total, 0, {
      block: formatNumber(start),
      head: formatNumber(head),
      logs: "0",
      rate: "0",
      left: "?",
    });
    return {
      update: (block, logs) => {
        latest = { block, logs };
        const f = figures();
        bar.update(f.done, {
          block: formatNumber(block),
          logs: formatNumber(logs),
          rate: formatNumber(f.rate),
          left: f.left,
        });
      },
      stop: () => bar.stop(),
    };
  }
  let lastLine = 0;
  let printed = start - 1n;
  const line = () => {
    printed = latest.block;
    const f = figures();
    out.line(
      `index: block ${formatNumber(latest.block)} of ${formatNumber(head)} ` +
        `(${Math.floor((100 * f.done) / total)}%), ${counted(latest.logs, "log")}, ` +
        `${formatNumber(f.rate)} logs/s, ${f.left} left`,
    );
  };
  return {
    update: (block, logs) => {
      latest = { block, logs };
      if (Date.now() - lastLine >= 5_000) {
        lastLine = Date.now();
        line();
      }
    },
    stop: () => {
      if (latest.block > printed) line();
    },
  };
}
