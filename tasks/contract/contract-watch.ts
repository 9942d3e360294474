import type { Provider } from "ethers";

import {
  FINALIZE_STAGE_TOPIC,
  LogCursor,
  readSentLogs,
  type SentLog,
  stageTopic,
  TxSenders,
  UPDATE_SCORE_TOPIC,
} from "./contract-logs.js";
import type { PushIntent } from "./push-marker.js";

/** A write to the contract, as another host sees it. */
export interface SeenWrite {
  signer: string;
  stage: bigint;
  /** From the push's marker; undefined without one. */
  intent?: PushIntent;
  tx: string;
  block: number;
}

/** How a stage was closed: who finalized it, and who pushed final scores to it. */
export interface StageClose {
  stage: bigint;
  /** The finalization's sender and transaction; undefined until it is seen. */
  finalizedBy?: { signer: string; tx: string; block: number };
  /** The signers of the stage's final pushes seen (each push's marker says it is final). */
  finalPushers: string[];
}

/** Stages whose close a watch keeps. */
const RECENT_STAGES = 5;

/**
 * Follows the contract's writes and finalizations from a block on, a pass at
 * a time: the last write another signer made (a sign that the other host is
 * alive, and what it does), and for recent stages who pushed final scores and
 * who finalized.
 */
export class ContractWatch {
  #lastForeignWrite: SeenWrite | undefined;
  readonly #closes = new Map<bigint, StageClose>();
  readonly #cursor: LogCursor;
  readonly #me: string;

  readonly #provider: Provider;

  constructor(provider: Provider, contract: string, me: string, from: number) {
    this.#provider = provider;
    this.#cursor = new LogCursor(
      provider,
      {
        address: contract,
        topics: [[UPDATE_SCORE_TOPIC, FINALIZE_STAGE_TOPIC]],
      },
      from,
    );
    this.#me = me.toLowerCase();
  }

  /** The last write another signer made, since the watch began. */
  get lastForeignWrite(): SeenWrite | undefined {
    return this.#lastForeignWrite;
  }

  /** What the watch saw of `stage`'s close. */
  closeOf(stage: bigint): StageClose | undefined {
    return this.#closes.get(stage);
  }

  /** The recent stages' closes, newest first. */
  recentCloses(): StageClose[] {
    return [...this.#closes.values()].sort((a, b) =>
      a.stage > b.stage ? -1 : 1,
    );
  }

  /** Takes in a close read elsewhere (`readStageClose`), for a stage not seen. */
  remember(close: StageClose): void {
    this.#closes.set(close.stage, close);
    this.#trim();
  }

  /** Reads the writes and finalizations since the last update. */
  async update(): Promise<void> {
    await readSentLogs(this.#provider, this.#cursor, (sent) =>
      this.#take(sent),
    );
    this.#trim();
  }

  #take({ log, tx, sender }: SentLog): void {
    if (sender === undefined) return; // not indexed yet by this node
    if (log.topics[0] === FINALIZE_STAGE_TOPIC) {
      this.#close(BigInt(log.data)).finalizedBy = {
        signer: sender.from,
        tx,
        block: log.blockNumber,
      };
      return;
    }
    const stage = BigInt(log.topics[2] ?? "0x0");
    if (sender.marker?.intent === "final")
      addFinalPusher(this.#close(stage), sender.from);
    if (sender.from !== this.#me)
      this.#lastForeignWrite = {
        signer: sender.from,
        stage,
        ...(sender.marker === undefined
          ? {}
          : { intent: sender.marker.intent }),
        tx,
        block: log.blockNumber,
      };
  }

  #close(stage: bigint): StageClose {
    let close = this.#closes.get(stage);
    if (close === undefined) {
      close = { stage, finalPushers: [] };
      this.#closes.set(stage, close);
    }
    return close;
  }

  #trim(): void {
    const stages = [...this.#closes.keys()].sort((a, b) => (a > b ? -1 : 1));
    for (const stage of stages.slice(RECENT_STAGES)) this.#closes.delete(stage);
  }
}

/** A signer of a stage's final push, once. */
function addFinalPusher(close: StageClose, signer: string): void {
  if (!close.finalPushers.includes(signer)) close.finalPushers.push(signer);
}

/**
 * Blocks before a stage's finalization in which its final pushes are looked
 * for: a final push runs right before the finalization it proves (a push of a
 * million scores fills some 200 blocks of 150,000,000 gas).
 */
const PUSH_BLOCKS = 1_000;

/**
 * How `stage` was closed, read from the chain: its finalization from
 * `fromBlock` (its end, less a margin) on, then its final pushes in the blocks
 * just before it: for a stage a watch did not see (the host was down, or
 * started later), and for `npx hardhat stage`. The cost is the finalization's
 * search and those blocks' logs, not the stage's.
 */
export async function readStageClose(
  provider: Provider,
  contract: string,
  stage: bigint,
  fromBlock: number,
): Promise<StageClose> {
  const close: StageClose = { stage, finalPushers: [] };
  const senders = new TxSenders(provider);
  const stageWord = stageTopic(stage);
  const head = await provider.getBlockNumber();
  await new LogCursor(
    provider,
    { address: contract, topics: [FINALIZE_STAGE_TOPIC] },
    fromBlock,
  ).readTo(head, async (logs) => {
    const log = logs.find((found) => found.data === stageWord);
    if (log === undefined) return false;
    const tx = log.transactionHash.toLowerCase();
    const sender = (await senders.resolve([tx])).get(tx);
    if (sender !== undefined)
      close.finalizedBy = { signer: sender.from, tx, block: log.blockNumber };
    return true;
  });
  const end = close.finalizedBy?.block ?? head;
  await readSentLogs(
    provider,
    new LogCursor(
      provider,
      { address: contract, topics: [UPDATE_SCORE_TOPIC, null, stageWord] },
      Math.max(fromBlock, end - PUSH_BLOCKS),
    ),
    ({ log, sender }) => {
      if (log.blockNumber <= end && sender?.marker?.intent === "final")
        addFinalPusher(close, sender.from);
    },
  );
  return close;
}
