import { hexlify, Indexed, Interface } from "ethers";

import { VipError } from "../errors.js";
import type { PolicySource } from "../policy/parse.js";

/** A log as its source's table stores it: the log's place, then one value per parameter. */
export interface DecodedLog {
  blockNumber: bigint;
  blockTime: bigint;
  txHash: string;
  logIndex: number;
  values: (bigint | boolean | string)[];
}

/** A log as `eth_getLogs` answers it (hex quantities). */
export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
  /** Present where the node adds it (geth since 1.16); saves a block request. */
  blockTimestamp?: string;
}

const HUGEINT_MIN = -(2n ** 127n);
const HUGEINT_MAX = 2n ** 127n - 1n;

type Value = DecodedLog["values"][number];
/** Reads one parameter from a log's topics or data words; undefined: let ethers decide. */
type Reader = (topics: string[], data: string) => Value | undefined;

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
  private readonly iface: Interface;
  private readonly readers: Reader[] | undefined;
  private readonly topicCount: number;
  private readonly dataLength: number;

  /** `fast: false` decodes every log with ethers (tests compare the two). */
  constructor(
    private readonly source: PolicySource,
    { fast: useFastPath = true }: { fast?: boolean } = {},
  ) {
    this.iface = new Interface([source.event]);
    let topic = 1;
    let word = 0;
    const readers: Reader[] = [];
    let fast = true;
    for (const input of source.event.inputs) {
      if (input.indexed === true) {
        const at = topic++;
        const dynamic = !isStatic(input.type);
        readers.push((topics) => {
          const value = topics[at];
          if (value === undefined || !/^0x[0-9a-fA-F]{64}$/.test(value))
            return undefined;
          const word = value.slice(2).toLowerCase();
          return dynamic ? `0x${word}` : readWord(input.type, word);
        });
      } else if (isStatic(input.type)) {
        const at = word++;
        readers.push((_, data) =>
          readWord(input.type, data.slice(2 + 64 * at, 2 + 64 * (at + 1))),
        );
      } else fast = false;
    }
    this.readers = fast && useFastPath ? readers : undefined;
    this.topicCount = topic;
    this.dataLength = 2 + 64 * word;
  }

  decode(log: RpcLog, blockTime: bigint): DecodedLog {
    const values = this.fast(log) ?? this.withEthers(log);
    this.source.columns.forEach((column, i) => {
      const value = values[i];
      if (
        column.sql === "HUGEINT" &&
        typeof value === "bigint" &&
        (value < HUGEINT_MIN || value > HUGEINT_MAX)
      )
        throw new VipError(
          `${this.where(log)}: ${column.name} = ${value} does not fit an exact 128-bit integer column`,
        );
    });
    return {
      blockNumber: BigInt(log.blockNumber),
      blockTime,
      txHash: log.transactionHash.toLowerCase(),
      logIndex: Number(BigInt(log.logIndex)),
      values,
    };
  }

  private fast(log: RpcLog): Value[] | undefined {
    if (
      this.readers === undefined ||
      log.topics.length !== this.topicCount ||
      log.data.length !== this.dataLength ||
      !/^0x[0-9a-fA-F]*$/.test(log.data)
    )
      return undefined;
    const data = log.data.toLowerCase();
    const values: Value[] = [];
    for (const read of this.readers) {
      const value = read(log.topics, data);
      if (value === undefined) return undefined;
      values.push(value);
    }
    return values;
  }

  private withEthers(log: RpcLog): Value[] {
    let decoded;
    try {
      decoded = this.iface.decodeEventLog(
        this.source.event,
        log.data,
        log.topics,
      );
    } catch (error) {
      throw new VipError(
        `${this.where(log)} does not decode as ${this.source.event.format("full")}: ${error instanceof Error ? error.message.split(" (")[0] : String(error)}`,
      );
    }
    return this.source.columns.map((column, i): Value => {
      const value: unknown = decoded[i];
      if (value instanceof Indexed) return (value.hash ?? "").toLowerCase();
      if (column.sql === "HUGEINT") return value as bigint;
      if (column.sql === "BOOLEAN") return value as boolean;
      if (column.solidity === "address") return (value as string).toLowerCase();
      if (column.solidity === "string") return value as string;
      return hexlify(value as string).toLowerCase();
    });
  }

  private where(log: RpcLog): string {
    return `log ${BigInt(log.logIndex)} of transaction ${log.transactionHash} (block ${BigInt(log.blockNumber)}, source ${this.source.table})`;
  }
}

function isStatic(type: string): boolean {
  return (
    type === "address" ||
    type === "bool" ||
    /^u?int\d*$/.test(type) ||
    /^bytes\d+$/.test(type)
  );
}

const ADDRESS_PADDING = "0".repeat(24);

/**
 * One 32-byte word (64 lowercase hex digits, checked by the caller) as
 * ethers' coder reads `type` from it.
 */
function readWord(type: string, word: string): Value | undefined {
  if (type === "address")
    return word.startsWith(ADDRESS_PADDING) ? `0x${word.slice(24)}` : undefined;
  if (type === "bool") return BigInt(`0x${word}`) !== 0n;
  const bytes = /^bytes(\d+)$/.exec(type);
  if (bytes !== null) return `0x${word.slice(0, 2 * Number(bytes[1]))}`;
  const integer = /^(u?)int(\d*)$/.exec(type);
  if (integer === null) return undefined;
  const bits = BigInt(integer[2] === "" ? 256 : Number(integer[2]));
  const value = BigInt(`0x${word}`) & ((1n << bits) - 1n);
  return integer[1] === "u" || value < 1n << (bits - 1n)
    ? value
    : value - (1n << bits);
}
