import type { Log, Provider } from "ethers";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import {
  LogCursor,
  stageTopic,
  TxSenders,
  UPDATE_SCORE_TOPIC,
} from "./contract-logs.js";
import type { PushIntent } from "./push-marker.js";

/** The latest write to an address of a stage by another signer. */
export interface ForeignWrite {
  /** Lowercase. */
  address: string;
  score: bigint;
  /** The transaction's sender, lowercase. */
  signer: string;
  /** What the push said it was (`push-marker.ts`); undefined without a marker. */
  intent?: PushIntent;
  /** The SHA-256 of the file it pushed, with a marker. */
  sha256?: string;
  tx: string;
  block: number;
}

/** An address whose final score another host wrote differently. */
export interface Disagreement {
  theirs: ForeignWrite;
  /** This host's score for it (0 when its file does not list it). */
  ours: bigint;
}

/**
 * The writes to one stage from a block on by signers other than this host:
 * for each address, the latest of them (this host's own writes do not erase
 * them). Read incrementally: each `update` reads the blocks since the last
 * one.
 *
 * This is how a host tells another host's final scores (which it must not
 * overwrite, and must not finalize over) from a stale live push (which it
 * must overwrite): by the marker each push leaves in its calldata. A final
 * score another host wrote stands as its claim even once this host wrote over
 * it, until that host writes the address again (after its operator corrected
 * it, say): two hosts that both pushed different final files then both stop.
 */
export class StageWrites {
  readonly #latest = new Map<string, ForeignWrite>();
  readonly #cursor: LogCursor;
  readonly #senders: TxSenders;
  readonly #me: string;

  constructor(
    private readonly provider: Provider,
    contract: string,
    readonly stage: bigint,
    /** The first block read: the stage's end, less a margin for clock skew. */
    readonly fromBlock: number,
    me: string,
  ) {
    this.#cursor = new LogCursor(
      provider,
      {
        address: contract,
        topics: [UPDATE_SCORE_TOPIC, null, stageTopic(stage)],
      },
      fromBlock,
    );
    this.#senders = new TxSenders(provider);
    this.#me = me.toLowerCase();
  }

  /** Reads the stage's writes through the head. */
  async update(): Promise<void> {
    const head = await this.provider.getBlockNumber();
    await this.#cursor.readTo(head, (logs) => this.#take(logs));
  }

  async #take(logs: readonly Log[]): Promise<void> {
    const senders = await this.#senders.resolve(
      logs.map((log) => log.transactionHash.toLowerCase()),
    );
    for (const log of logs) {
      const tx = log.transactionHash.toLowerCase();
      const sender = senders.get(tx);
      if (sender === undefined)
        throw new VipError(ERRORS.AUTOPILOT.WRITE_SENDER_UNKNOWN, {
          tx,
          block: log.blockNumber,
        });
      const address = `0x${(log.topics[1] ?? "").slice(26)}`;
      // This host's own writes erase nothing: a final score another host
      // wrote stays its claim until that host writes the address again.
      if (sender.from === this.#me) continue;
      this.#latest.set(address, {
        address,
        score: BigInt(log.data.slice(0, 66)),
        signer: sender.from,
        ...(sender.marker === undefined
          ? {}
          : { intent: sender.marker.intent, sha256: sender.marker.sha256 }),
        tx,
        block: log.blockNumber,
      });
    }
  }

  /**
   * Another signer's final scores (its latest write of each address) that
   * differ from this host's (`scoreOf`: undefined for an address its file does
   * not list, which counts as 0), by block.
   */
  disagreements(
    scoreOf: (address: string) => bigint | undefined,
  ): Disagreement[] {
    const found: Disagreement[] = [];
    for (const write of this.#latest.values()) {
      if (write.intent !== "final") continue;
      const ours = scoreOf(write.address) ?? 0n;
      if (ours !== write.score) found.push({ theirs: write, ours });
    }
    return found.sort((a, b) => a.theirs.block - b.theirs.block);
  }

  /** The signers whose latest writes are final scores. */
  finalWriters(): string[] {
    const signers = new Set<string>();
    for (const write of this.#latest.values())
      if (write.intent === "final") signers.add(write.signer);
    return [...signers];
  }
}
