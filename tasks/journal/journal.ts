import { existsSync } from "node:fs";
import { mkdir, open, readFile, rename } from "node:fs/promises";
import path from "node:path";

import type {
  ConfirmedRecord as TransactionConfirmed,
  TransactionRecord,
} from "./transaction-records.js";

/** The first record: what this journal is the journal of. */
interface StartRecord {
  type: "start";
  chainId: string;
  contract: string;
  stage: string;
  signer: string;
  file: string;
  sha256: string;
  entries: number;
  startBlock: number;
  at: string;
  /** Whether the file was pushed as live or as final scores (absent before markers). */
  intent?: "live" | "final";
}

/**
 * A batch as decided: file entries [start, end), and the gas limit it is sent
 * with.
 */
export interface BatchRecord {
  type: "batch";
  batch: number;
  start: number;
  end: number;
  gasLimit: string;
}

/** A record of a batch's transaction: the batch it is about, by number. */
type BatchTransactionRecord = TransactionRecord & { batch: number };

export type ConfirmedRecord = TransactionConfirmed & { batch: number };

/**
 * The push's proof: how many scores differ from the file (-1: the proof
 * failed); when the chain was proved to hold the file at one block, that block
 * and the stage's write count there (the token a fenced finalization passes).
 */
interface VerifiedRecord {
  type: "verified";
  differences: number;
  at: string;
  block?: number;
  writeCount?: string;
}

export type JournalRecord =
  StartRecord | BatchRecord | BatchTransactionRecord | VerifiedRecord;

/**
 * Where the journal of one contract's stage lives:
 * `<dir>/chain-<id>/<contract>/stage-<n>.jsonl`.
 */
export function journalPath(
  dir: string,
  chainId: bigint,
  contract: string,
  stage: bigint,
): string {
  return path.join(
    dir,
    `chain-${chainId}`,
    contract.toLowerCase(),
    `stage-${stage}.jsonl`,
  );
}

/**
 * Where the journal of one stage's finalization lives, beside the stage's score
 * journal.
 */
export function finalizeJournalPath(
  dir: string,
  chainId: bigint,
  contract: string,
  stage: bigint,
): string {
  return journalPath(dir, chainId, contract, stage).replace(
    /\.jsonl$/,
    ".finalize.jsonl",
  );
}

/**
 * Where the journal of one allow-list change of one address lives, in the
 * contract's folder beside its stages' journals:
 * `<dir>/chain-<id>/<contract>/allowlist-<add|remove>-<address>.jsonl`. Every
 * run of that change appends to it.
 */
export function allowListJournalPath(
  dir: string,
  chainId: bigint,
  contract: string,
  change: "add" | "remove",
  address: string,
): string {
  return path.join(
    dir,
    `chain-${chainId}`,
    contract.toLowerCase(),
    `allowlist-${change}-${address.toLowerCase()}.jsonl`,
  );
}

/**
 * An append-only log of JSON lines, synced to disk after every record, so a run
 * killed at any moment leaves every record it completed. A torn last line (the
 * kill came mid-write) is ignored when read.
 */
export class Journal<R extends { type: string } = JournalRecord> {
  readonly #file: string;
  #queue: Promise<void> = Promise.resolve();

  private constructor(
    file: string,
    readonly records: R[],
  ) {
    this.#file = file;
  }

  get path(): string {
    return this.#file;
  }

  /**
   * Opens (or starts) the journal in `file`; `read` turns each stored line's
   * record into this version's (`currentRecord` for the journals of
   * transactions), by default taken as written.
   */
  static async open<R extends { type: string } = JournalRecord>(
    file: string,
    read: (stored: { type: string } & Record<string, unknown>) => R = (
      stored,
    ) => stored as unknown as R,
  ): Promise<Journal<R>> {
    await mkdir(path.dirname(file), { recursive: true });
    const records: R[] = [];
    if (existsSync(file)) {
      for (const line of (await readFile(file, "utf8")).split("\n")) {
        if (line.trim() === "") continue;
        let stored: { type: string } & Record<string, unknown>;
        try {
          stored = JSON.parse(line) as typeof stored;
        } catch {
          break; // a record torn by a kill: everything before it is whole
        }
        records.push(read(stored));
      }
    }
    return new Journal<R>(file, records);
  }

  /**
   * Moves this journal aside (`<name>.<time>.jsonl`) so the stage can start
   * over; returns the new name.
   */
  async archive(): Promise<string> {
    const archived = this.#file.replace(
      /\.jsonl$/,
      `.${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`,
    );
    await rename(this.#file, archived);
    this.records.length = 0;
    return archived;
  }

  /**
   * Appends and syncs records (one write, one sync); appends are serialized in
   * call order.
   */
  append(...records: R[]): Promise<void> {
    this.records.push(...records);
    const text = records
      .map((record) => JSON.stringify(record) + "\n")
      .join("");
    const write = async () => {
      const handle = await open(this.#file, "a");
      try {
        await handle.write(text);
        await handle.datasync();
      } finally {
        await handle.close();
      }
    };
    this.#queue = this.#queue.then(write, write);
    return this.#queue;
  }

  async flush(): Promise<void> {
    await this.#queue;
  }

  /** The journal's first record, which says what it is the journal of. */
  get start(): Extract<R, { type: "start" }> | undefined {
    return this.records.find(
      (r): r is Extract<R, { type: "start" }> => r.type === "start",
    );
  }
}
