import { Indexed, Interface } from "ethers/abi";
import { hexlify } from "ethers/utils";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { PolicySource } from "../policy/parse.js";

/** A parameter's value as its column holds it. */
export type Value = bigint | boolean | string;

/**
 * A log as its source's table stores it: the log's place (its transaction's
 * index in the block as the node gives it, and its own index within that
 * transaction, from 0), then one value per parameter.
 */
export interface DecodedLog {
  blockNumber: bigint;
  blockTime: bigint;
  txHash: string;
  txIndex: number;
  logIndex: number;
  values: Value[];
}

/**
 * One source's decoded logs column by column, as DuckDB's appender takes
 * them: no object per log, which a million logs would make the garbage
 * collector's work.
 */
export class LogColumns {
  readonly blockNumber: bigint[] = [];
  readonly blockTime: bigint[] = [];
  readonly txHash: string[] = [];
  readonly txIndex: number[] = [];
  readonly logIndex: number[] = [];
  /** One array per parameter, in the event's order. */
  readonly values: Value[][];

  constructor(parameters: number) {
    this.values = Array.from({ length: parameters }, () => []);
  }

  get length(): number {
    return this.logIndex.length;
  }

  push(row: DecodedLog): void {
    this.append(
      row.blockNumber,
      row.blockTime,
      row.txHash,
      row.txIndex,
      row.logIndex,
      row.values,
    );
  }

  /** Adds one log's row from its parts (no row object: the index's path). */
  append(
    blockNumber: bigint,
    blockTime: bigint,
    txHash: string,
    txIndex: number,
    logIndex: number,
    values: readonly Value[],
  ): void {
    this.blockNumber.push(blockNumber);
    this.blockTime.push(blockTime);
    this.txHash.push(txHash);
    this.txIndex.push(txIndex);
    this.logIndex.push(logIndex);
    for (let i = 0; i < values.length; i++)
      this.values[i]?.push(values[i] as Value);
  }
}

/** A log as `eth_getLogs` answers it (hex quantities). */
export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  /** The transaction's index in its block (minievm counts from 1, Ethereum from 0). */
  transactionIndex: string;
  /**
   * Within the block (Ethereum, hardhat node, minievm from v1.3) or within the
   * transaction (minievm through v1.2): the index stores it within the
   * transaction either way (see `log-places.ts`).
   */
  logIndex: string;
  removed?: boolean;
  /** Present where the node adds it (geth since 1.16); saves a block request. */
  blockTimestamp?: string;
}

const HUGEINT_MIN = -(2n ** 127n);
const HUGEINT_MAX = 2n ** 127n - 1n;

/**
 * Reads one parameter from a log's topics or its data (lowercase hex, checked
 * by the caller); undefined: let ethers decide.
 */
type Reader = (topics: string[], data: string) => Value | undefined;
/** Reads a static type from one 32-byte word (64 lowercase hex digits). */
type WordReader = (word: string) => Value | undefined;

/**
 * Decodes the logs of one source into its table's rows. Parameters of static
 * types (address, bool, intN, uintN, bytesN, and any indexed one) are read
 * straight from their 32-byte words, as ethers' ABI coder reads them (integers
 * masked to their width, addresses refused when the word has more than 20
 * bytes); a log with a dynamic non-indexed parameter, or one whose shape is
 * off, goes through ethers itself. A value no column can hold exactly (an
 * integer beyond HUGEINT's 127 bits) is an error naming the log: storing it
 * rounded would make every score built on it wrong.
 */
export class LogDecoder {
  readonly #iface: Interface;
  readonly #readers: Reader[] | undefined;
  readonly #topicCount: number;
  readonly #dataLength: number;
  /** Columns whose values may fall outside HUGEINT (wider than 127 bits). */
  readonly #checkRange: boolean[];
  /** One log's values, reused from log to log. */
  readonly #scratch: Value[];
  /** The last transactionIndex read, as text and as a number. */
  #lastTxIndex = { text: "", value: 0 };

  readonly #source: PolicySource;

  /** `fast: false` decodes every log with ethers (tests compare the two). */
  constructor(
    source: PolicySource,
    { fast: useFastPath = true }: { fast?: boolean } = {},
  ) {
    this.#source = source;
    this.#iface = new Interface([source.event]);
    let topic = 1;
    let word = 0;
    const readers: Reader[] = [];
    let fast = true;
    for (const input of source.event.inputs) {
      if (input.indexed === true) {
        const at = topic++;
        const read = isStatic(input.type)
          ? wordReader(input.type)
          : (word: string) => `0x${word}`;
        readers.push((topics) => {
          const value = topics[at];
          if (value === undefined) return undefined;
          const word = LOWER_WORD.test(value)
            ? value.slice(2)
            : WORD.test(value)
              ? value.slice(2).toLowerCase()
              : undefined;
          return word === undefined ? undefined : read(word);
        });
      } else if (isStatic(input.type)) {
        const at = 2 + 64 * word++;
        const read = wordReader(input.type);
        readers.push((_, data) => read(data.slice(at, at + 64)));
      } else fast = false;
    }
    this.#readers = fast && useFastPath ? readers : undefined;
    this.#topicCount = topic;
    this.#dataLength = 2 + 64 * word;
    this.#checkRange = source.columns.map(
      (column, i) =>
        column.sql === "HUGEINT" &&
        Number(/\d+$/.exec(source.event.inputs[i]?.type ?? "")?.[0] ?? 256) >
          127,
    );
    this.#scratch = new Array<Value>(source.columns.length);
  }

  /**
   * One log as a row (tests; the index appends to columns). `offset`: the
   * logIndex of its transaction's first log, as the node numbers them.
   */
  decode(log: RpcLog, blockTime: bigint, offset = 0): DecodedLog {
    return {
      blockNumber: BigInt(log.blockNumber),
      blockTime,
      txHash: log.transactionHash.toLowerCase(),
      txIndex: this.#txIndexOf(log),
      logIndex: this.#logIndexOf(log, offset),
      values: [...this.#valuesOf(log)],
    };
  }

  /**
   * Appends one log of block `blockNumber` to `columns`, its index counted
   * from its transaction's first log (`offset`, checked by the caller).
   */
  decodeInto(
    columns: LogColumns,
    log: RpcLog,
    blockNumber: bigint,
    blockTime: bigint,
    offset = 0,
  ): void {
    columns.append(
      blockNumber,
      blockTime,
      log.transactionHash.toLowerCase(),
      this.#txIndexOf(log),
      this.#logIndexOf(log, offset),
      this.#valuesOf(log),
    );
  }

  /** The log's index within its transaction: the node's, less `offset`. */
  #logIndexOf(log: RpcLog, offset: number): number {
    const index = hexQuantity(log.logIndex);
    if (index === undefined)
      throw new VipError(ERRORS.INDEXER.LOGS.LOG_INDEX_NOT_HEX, {
        logIndex: log.logIndex,
        place: this.#placeOf(log),
      });
    if (index < offset)
      throw new VipError(ERRORS.INDEXER.LOGS.LOG_BEFORE_FIRST, {
        index,
        place: this.#placeOf(log),
        offset,
      });
    return index - offset;
  }

  /**
   * The index of the log's transaction in its block, as the node gives it;
   * the last one read is kept (an answer's logs come a transaction at a
   * time).
   */
  #txIndexOf(log: RpcLog): number {
    if (log.transactionIndex === this.#lastTxIndex.text)
      return this.#lastTxIndex.value;
    const index = hexQuantity(log.transactionIndex);
    if (index === undefined)
      throw new VipError(ERRORS.INDEXER.LOGS.TX_INDEX_NOT_HEX, {
        logIndex: log.logIndex,
        place: this.#placeOf(log),
        txIndex: String(log.transactionIndex),
      });
    this.#lastTxIndex = { text: log.transactionIndex, value: index };
    return index;
  }

  /** The log's values, in `scratch` (valid until the next call). */
  #valuesOf(log: RpcLog): Value[] {
    const values = this.#fast(log) ?? this.#withEthers(log);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (
        this.#checkRange[i] === true &&
        typeof value === "bigint" &&
        (value < HUGEINT_MIN || value > HUGEINT_MAX)
      )
        throw new VipError(ERRORS.INDEXER.LOGS.VALUE_TOO_WIDE, {
          where: this.#where(log),
          column: String(this.#source.columns[i]?.name),
          value,
        });
    }
    return values;
  }

  #fast(log: RpcLog): Value[] | undefined {
    if (
      this.#readers === undefined ||
      log.topics.length !== this.#topicCount ||
      log.data.length !== this.#dataLength
    )
      return undefined;
    // Nodes answer lowercase hex: checked in one pass, lowered only if not.
    const data = LOWER_HEX.test(log.data)
      ? log.data
      : HEX.test(log.data)
        ? log.data.toLowerCase()
        : undefined;
    if (data === undefined) return undefined;
    const values = this.#scratch;
    for (let i = 0; i < this.#readers.length; i++) {
      const value = (this.#readers[i] as Reader)(log.topics, data);
      if (value === undefined) return undefined;
      values[i] = value;
    }
    return values;
  }

  #withEthers(log: RpcLog): Value[] {
    let decoded;
    try {
      decoded = this.#iface.decodeEventLog(
        this.#source.event,
        log.data,
        log.topics,
      );
    } catch (error) {
      throw new VipError(ERRORS.INDEXER.LOGS.LOG_NOT_DECODABLE, {
        where: this.#where(log),
        event: this.#source.event.format("full"),
        reason: String(
          error instanceof Error ? error.message.split(" (")[0] : error,
        ),
      });
    }
    return this.#source.columns.map((column, i): Value => {
      const value: unknown = decoded[i];
      if (value instanceof Indexed) return (value.hash ?? "").toLowerCase();
      if (column.sql === "HUGEINT") return value as bigint;
      if (column.sql === "BOOLEAN") return value as boolean;
      if (column.solidity === "address") return (value as string).toLowerCase();
      if (column.solidity === "string") return value as string;
      return hexlify(value as string).toLowerCase();
    });
  }

  #where(log: RpcLog): string {
    return (
      `log ${BigInt(log.logIndex)} of transaction ${log.transactionHash} ` +
      `(block ${BigInt(log.blockNumber)}, source ${this.#source.table})`
    );
  }

  /** The log's transaction, block and source, as an error names them. */
  #placeOf(log: RpcLog): string {
    return `${log.transactionHash} (block ${log.blockNumber}, source ${this.#source.table})`;
  }
}

/**
 * A JSON-RPC quantity (`0x` and hex digits), read strictly: `Number` refuses
 * what `parseInt` would cut short (`0x1g`); undefined if it is not one, or
 * beyond a safe integer.
 */
export function hexQuantity(text: unknown): number | undefined {
  if (typeof text !== "string" || !QUANTITY.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

const QUANTITY = /^0x[0-9a-fA-F]+$/;
const LOWER_HEX = /^0x[0-9a-f]*$/;
const HEX = /^0x[0-9a-fA-F]*$/;
const LOWER_WORD = /^0x[0-9a-f]{64}$/;
const WORD = /^0x[0-9a-fA-F]{64}$/;

function isStatic(type: string): boolean {
  return (
    type === "address" ||
    type === "bool" ||
    /^u?int\d*$/.test(type) ||
    /^bytes\d+$/.test(type)
  );
}

const ADDRESS_PADDING = "0".repeat(24);
const ZERO_WORD = "0".repeat(64);

/**
 * How ethers' coder reads a static `type` from a 32-byte word, decided once
 * per parameter: integers masked to their width (the last width/4 digits),
 * then signed by their top bit; an address refused when the word has more
 * than 20 bytes.
 */
function wordReader(type: string): WordReader {
  if (type === "address")
    return (word) =>
      word.startsWith(ADDRESS_PADDING) ? `0x${word.slice(24)}` : undefined;
  if (type === "bool") return (word) => word !== ZERO_WORD;
  const bytes = /^bytes(\d+)$/.exec(type);
  if (bytes !== null) {
    const digits = 2 * Number(bytes[1]);
    return (word) => `0x${word.slice(0, digits)}`;
  }
  const integer = /^(u?)int(\d*)$/.exec(type);
  if (integer === null) return () => undefined;
  const bits = integer[2] === "" ? 256 : Number(integer[2]);
  const from = 64 - bits / 4;
  const signed = integer[1] !== "u";
  if (!signed && bits <= 48)
    // Exact as a double: one parse, no BigInt from text.
    return (word) => BigInt(parseInt(word.slice(from), 16));
  if (!signed) return (word) => BigInt(`0x${word.slice(from)}`);
  const half = 1n << BigInt(bits - 1);
  const whole = 1n << BigInt(bits);
  return (word) => {
    const value = BigInt(`0x${word.slice(from)}`);
    return value < half ? value : value - whole;
  };
}
