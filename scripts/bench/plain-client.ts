/**
 * The benchmark's plain client, run in a process of its own (as the command
 * is): in the benchmark's process, whose heap holds what made the logs, its
 * parsing took 4.6 s alone and 6.3 s beside 119 MB of live objects, the
 * garbage collector marking them again for every answer. Its time is taken
 * from its first request to its last answer (Node's start-up is not its).
 *
 * `plain`: the index's own range sizing (`RangeSizes`) applied to the
 * answers, one request after the other, each answer read and parsed, nothing
 * else; prints the time, the logs and the ranges it asked for.
 * `two-at-a-time`: the ranges given, two requests at the node at once, as the
 * command asks; what the node can give a client that only parses.
 *
 * Used by `bench-index.ts`: `node --import tsx plain-client.ts <job as JSON>`.
 */
import { rpc } from "./rpc.js";
import { RangeSizes } from "../../tasks/indexer/index-sources.js";

export type PlainJob = {
  url: string;
  address: string;
  topic: string;
} & (
  | { kind: "plain"; head: number }
  | { kind: "two-at-a-time"; ranges: [string, string][] }
);

export interface PlainRun {
  seconds: number;
  logs: number;
  /** The ranges asked for, in order (decimal block numbers). */
  ranges: [string, string][];
}

/** One range's `eth_getLogs`, answered and parsed; its logs' count. */
async function getLogs(
  { url, address, topic }: PlainJob,
  [from, to]: [bigint, bigint],
): Promise<number> {
  const logs = (await rpc(url, "eth_getLogs", [
    {
      fromBlock: `0x${from.toString(16)}`,
      toBlock: `0x${to.toString(16)}`,
      address: [address],
      topics: [[topic]],
    },
  ])) as unknown[] | undefined;
  return logs?.length ?? 0;
}

async function oneAtATime(
  job: PlainJob,
  head: bigint,
): Promise<{ logs: number; ranges: [bigint, bigint][] }> {
  const ranges: [bigint, bigint][] = [];
  let logs = 0;
  const sizes = new RangeSizes();
  for (let from = 0n; from <= head;) {
    const range = sizes.peek() ?? 1n;
    sizes.take();
    const to = from + range - 1n < head ? from + range - 1n : head;
    const got = await getLogs(job, [from, to]);
    ranges.push([from, to]);
    logs += got;
    sizes.answered(to - from + 1n, got);
    from = to + 1n;
  }
  return { logs, ranges };
}

async function twoAtATime(
  job: PlainJob,
  ranges: [bigint, bigint][],
): Promise<{ logs: number; ranges: [bigint, bigint][] }> {
  let next = 0;
  let logs = 0;
  const lane = async () => {
    for (let range = ranges[next++]; range; range = ranges[next++]) {
      // Not `logs += await …`: that reads `logs` before the other lane adds.
      const got = await getLogs(job, range);
      logs += got;
    }
  };
  await Promise.all([lane(), lane()]);
  return { logs, ranges };
}

const job = JSON.parse(process.argv[2] ?? "{}") as PlainJob;
const started = performance.now();
const { logs, ranges } =
  job.kind === "plain"
    ? await oneAtATime(job, BigInt(job.head))
    : await twoAtATime(
        job,
        job.ranges.map(([from, to]) => [BigInt(from), BigInt(to)]),
      );
const run: PlainRun = {
  seconds: (performance.now() - started) / 1000,
  logs,
  ranges: ranges.map(([from, to]) => [String(from), String(to)]),
};
process.stdout.write(JSON.stringify(run));
