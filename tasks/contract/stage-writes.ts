import type { Provider } from "ethers";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import {
  LogCursor,
  readSentLogs,
  type SentLog,
  stageTopic,
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
  tx: string;
  block: number;
}

/** Another host's final push: the file it claims the stage holds. */
export interface FinalClaim {
  signer: string;
  /** The SHA-256 of its final file (its latest final push's marker). */
  sha256: string;
  tx: string;
  block: number;
}

/** Another host claims a final file other than this host's. */
export interface Disagreement {
  /** The other signers' claims, each of another file. */
  claims: FinalClaim[];
  /**
   * The addresses whose final score such a signer wrote differently from
   * this host's file (0 where its file does not list them), by block; empty
   * when the files differ only where the other host has written nothing yet.
   */
  addresses: { theirs: ForeignWrite; ours: bigint }[];
}

/**
 * The writes to one stage from a block on, read incrementally (each `update`
 * reads the blocks since the last one): for each other signer, its latest
 * final push (its claim: the SHA-256 its marker names), and for each address,
 * the latest write by a signer other than this host; and every file any final
 * push claimed, this host's own included.
 *
 * This is how a host tells another host's final scores (which it must not
 * overwrite, and must not finalize over) from a stale live push (which it
 * must overwrite): by the marker each push leaves in its calldata. Two hosts
 * whose final files differ both stop; once the operator corrects one, its
 * next final push claims the same file as the other, and they agree.
 */
export class StageWrites {
  readonly #latest = new Map<string, ForeignWrite>();
  readonly #claims = new Map<string, FinalClaim>();
  readonly #claimed = new Set<string>();
  readonly #cursor: LogCursor;
  readonly #me: string;

  readonly #provider: Provider;

  constructor(
    provider: Provider,
    contract: string,
    readonly stage: bigint,
    /** The first block read: the stage's end, less a margin for clock skew. */
    readonly fromBlock: number,
    me: string,
  ) {
    this.#provider = provider;
    this.#cursor = new LogCursor(
      provider,
      {
        address: contract,
        topics: [UPDATE_SCORE_TOPIC, null, stageTopic(stage)],
      },
      fromBlock,
    );
    this.#me = me.toLowerCase();
  }

  /** Reads the stage's writes through the head. */
  async update(): Promise<void> {
    await readSentLogs(this.#provider, this.#cursor, (sent) =>
      this.#take(sent),
    );
  }

  #take({ log, tx, sender }: SentLog): void {
    if (sender === undefined)
      throw new VipError(ERRORS.AUTOPILOT.TWO_HOSTS.WRITE_SENDER_UNKNOWN, {
        tx,
        block: log.blockNumber,
      });
    const { marker } = sender;
    if (marker?.intent === "final") this.#claimed.add(marker.sha256);
    // This host's own writes erase nothing: a final score another host wrote
    // stays what it claims until that host pushes again.
    if (sender.from === this.#me) return;
    if (marker?.intent === "final")
      this.#claims.set(sender.from, {
        signer: sender.from,
        sha256: marker.sha256,
        tx,
        block: log.blockNumber,
      });
    const address = `0x${(log.topics[1] ?? "").slice(26)}`;
    this.#latest.set(address, {
      address,
      score: BigInt(log.data.slice(0, 66)),
      signer: sender.from,
      ...(marker === undefined ? {} : { intent: marker.intent }),
      tx,
      block: log.blockNumber,
    });
  }

  /**
   * Whether another signer's latest final push claims a file other than
   * `sha256` (this host's), and where their scores differ: its final writes
   * that differ from this host's (`scoreOf`: undefined for an address its file
   * does not list, which counts as 0). Undefined when no other host claims
   * another file.
   */
  disagreement(
    sha256: string,
    scoreOf: (address: string) => bigint | undefined,
  ): Disagreement | undefined {
    const claims = [...this.#claims.values()].filter(
      (claim) => claim.sha256 !== sha256,
    );
    if (claims.length === 0) return undefined;
    const signers = new Set(claims.map((claim) => claim.signer));
    const addresses: Disagreement["addresses"] = [];
    for (const write of this.#latest.values()) {
      if (write.intent !== "final" || !signers.has(write.signer)) continue;
      const ours = scoreOf(write.address) ?? 0n;
      if (ours !== write.score) addresses.push({ theirs: write, ours });
    }
    addresses.sort((a, b) => a.theirs.block - b.theirs.block);
    return { claims, addresses };
  }

  /** Whether a final push (of any signer) already claims the file `sha256`. */
  claimed(sha256: string): boolean {
    return this.#claimed.has(sha256);
  }
}
