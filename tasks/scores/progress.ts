import { SingleBar } from "cli-progress";

import { counted, formatNumber, type Output } from "../output.js";

interface ProgressState {
  addresses: number;
  batches: number;
  gasUsed: bigint;
}

/**
 * Reports a long push: a live bar on a terminal, a plain line every 10 s (and
 * at the end) otherwise.
 */
export interface Progress {
  update(state: ProgressState): void;
  stop(): void;
}

export function createProgress(
  totalAddresses: number,
  out: Output,
  interactive = process.stdout.isTTY === true,
): Progress {
  const started = Date.now();
  const eta = (done: number) => {
    const elapsed = (Date.now() - started) / 1000;
    if (done === 0 || elapsed === 0) return "?";
    return `${Math.max(0, Math.round(((totalAddresses - done) * elapsed) / done))} s`;
  };
  if (interactive) {
    const bar = new SingleBar({
      format:
        "{bar} {percentage}% | {value}/{total} addresses | {batches} batches | {gas} gas | ETA {etaText}",
      hideCursor: true,
    });
    bar.start(totalAddresses, 0, { batches: 0, gas: "0", etaText: "?" });
    return {
      update: (s) =>
        bar.update(s.addresses, {
          batches: s.batches,
          gas: formatNumber(s.gasUsed),
          etaText: eta(s.addresses),
        }),
      stop: () => bar.stop(),
    };
  }
  let last = Date.now();
  let latest: ProgressState = { addresses: 0, batches: 0, gasUsed: 0n };
  const line = (s: ProgressState) =>
    out.line(
      `progress: ${formatNumber(s.addresses)}/${counted(totalAddresses, "address", "addresses")}, ` +
        `${counted(s.batches, "batch", "batches")}, ${formatNumber(s.gasUsed)} gas, ETA ${eta(s.addresses)}`,
    );
  return {
    update: (s) => {
      latest = s;
      if (Date.now() - last >= 10_000) {
        last = Date.now();
        line(s);
      }
    },
    stop: () => line(latest),
  };
}
