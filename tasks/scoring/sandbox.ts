import {
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBResultReader,
} from "@duckdb/node-api";

import {
  DEFAULT_POLICY_MEMORY_MB,
  DEFAULT_POLICY_TIMEOUT_SECONDS,
} from "../config/constants.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { safeText } from "../output.js";

/** How far a policy may go: each bound is stated in the README with its default. */
export interface PolicyBounds {
  /** Seconds for everything the policy's SQL runs (both runs, when two). */
  timeoutSeconds: number;
  /**
   * Memory the engine's buffers may hold, in MB (DuckDB's memory_limit: past
   * it, aggregates, joins and sorts spill to temporary files). What the
   * engine allocates outside its buffers is bounded by the watch on its
   * process (see `computeStage`).
   */
  memoryMb: number;
}

export const DEFAULT_POLICY_BOUNDS: PolicyBounds = {
  timeoutSeconds: DEFAULT_POLICY_TIMEOUT_SECONDS,
  memoryMb: DEFAULT_POLICY_MEMORY_MB,
};

/** Temporary files the engine may spill to, in all. */
const MAX_TEMP_FILES = "10GB";

/** The run's deadline, shared by every query of a policy. */
export class Deadline {
  readonly #end: number;

  constructor(
    readonly seconds: number,
    /** The policy file, which a refusal names. */
    readonly policyFile: string,
  ) {
    this.#end = Date.now() + seconds * 1000;
  }

  get remainingMs(): number {
    return this.#end - Date.now();
  }
}

/**
 * A fresh in-memory engine for one run of a policy. A published policy is
 * someone else's code to a challenger: the engine attaches the index
 * read-only, then may touch no file (its temporary files go to the private
 * folder of the run), no network, no extension; its memory limit and threads
 * are set, its time zone is UTC, and the policy cannot change any of it.
 */
export class PolicySandbox {
  readonly #instance: DuckDBInstance;
  readonly #others: DuckDBConnection[] = [];

  private constructor(
    instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    readonly bounds: PolicyBounds,
  ) {
    this.#instance = instance;
  }

  static async open(
    /** The index to attach read-only as `store`; none for a check alone. */
    indexFile: string | undefined,
    bounds: PolicyBounds,
    { tempDir, threads }: { tempDir: string; threads?: number },
  ): Promise<PolicySandbox> {
    const instance = await DuckDBInstance.create(":memory:", {
      autoinstall_known_extensions: "false",
      autoload_known_extensions: "false",
      memory_limit: `${bounds.memoryMb}MB`,
      temp_directory: tempDir,
      max_temp_directory_size: MAX_TEMP_FILES,
      // Memory the engine frees (a finished aggregate's) goes back to the
      // system at once, not after the next 512 MB.
      allocator_bulk_deallocation_flush_threshold: "16MB",
      ...(threads === undefined ? {} : { threads: String(threads) }),
    });
    try {
      const connection = await instance.connect();
      if (indexFile !== undefined)
        await connection.run(
          `attach '${indexFile.replace(/'/g, "''")}' as store (read_only)`,
        );
      await connection.run("set TimeZone = 'UTC'");
      await connection.run("set enable_external_access = false");
      await connection.run("set lock_configuration = true");
      return new PolicySandbox(instance, connection, bounds);
    } catch (error) {
      instance.closeSync();
      throw error;
    }
  }

  /**
   * Runs SQL that holds the policy's own: interrupted at the deadline, and a
   * bound it meets is said as that bound. Its other errors are the engine's
   * words, which the caller places in the policy.
   */
  async runBounded(
    sql: string,
    deadline: Deadline,
  ): Promise<DuckDBResultReader> {
    return this.bounded(deadline, () => this.connection.runAndReadAll(sql));
  }

  /** An engine step (a query, binding a statement) within the deadline. */
  async bounded<T>(deadline: Deadline, step: () => Promise<T>): Promise<T> {
    const remaining = deadline.remainingMs;
    if (remaining <= 0) throw timeoutError(deadline);
    let interrupted = false;
    const timer = setTimeout(() => {
      interrupted = true;
      this.connection.interrupt();
    }, remaining);
    try {
      return await step();
    } catch (error) {
      if (interrupted) throw timeoutError(deadline);
      throw boundError(error, this.bounds, deadline.policyFile) ?? error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Another connection to the same engine, closed with it: its queries run
   * beside the first one's (the engine's settings are the same for both).
   */
  async connect(): Promise<DuckDBConnection> {
    const connection = await this.#instance.connect();
    this.#others.push(connection);
    return connection;
  }

  close(): void {
    for (const other of this.#others) other.closeSync();
    this.connection.closeSync();
    this.#instance.closeSync();
  }
}

function timeoutError(deadline: Deadline): VipError {
  return new VipError(ERRORS.SCORING.RUN.POLICY_TIMEOUT, {
    file: deadline.policyFile,
    seconds: deadline.seconds,
  });
}

/** The engine's refusal for memory or temporary space, said as the bound it met. */
function boundError(
  error: unknown,
  bounds: PolicyBounds,
  policyFile: string,
): VipError | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (!/^Out of Memory Error/i.test(message)) return undefined;
  const what = /max_temp_directory_size|temp(orary)? (directory|file)/i.test(
    message,
  )
    ? `its temporary files reached ${MAX_TEMP_FILES}`
    : `it needed more than its memory bound of ${bounds.memoryMb} MB`;
  return new VipError(ERRORS.SCORING.RUN.POLICY_OUT_OF_MEMORY, {
    file: policyFile,
    what,
    reason: safeText(message.split("\n")[0] ?? message, 160),
  });
}
