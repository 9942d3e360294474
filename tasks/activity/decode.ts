import { hexlify, Indexed, type Interface } from "ethers";

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
}

const HUGEINT_MIN = -(2n ** 127n);
const HUGEINT_MAX = 2n ** 127n - 1n;

/**
 * Decodes one log of `source` into its table's row. A value no column can
 * hold exactly (an integer beyond HUGEINT's 127 bits) is an error naming the
 * log: storing it rounded would make every score built on it wrong.
 */
export function decodeLog(
  source: PolicySource,
  iface: Interface,
  log: RpcLog,
  blockTime: bigint,
): DecodedLog {
  const where = `log ${BigInt(log.logIndex)} of transaction ${log.transactionHash} (block ${BigInt(log.blockNumber)}, source ${source.table})`;
  let decoded;
  try {
    decoded = iface.decodeEventLog(source.event, log.data, log.topics);
  } catch (error) {
    throw new VipError(
      `${where} does not decode as ${source.event.format("full")}: ${error instanceof Error ? error.message.split(" (")[0] : String(error)}`,
    );
  }
  const values = source.columns.map((column, i) => {
    const value: unknown = decoded[i];
    if (value instanceof Indexed) return (value.hash ?? "").toLowerCase();
    if (column.sql === "HUGEINT") {
      const n = value as bigint;
      if (n < HUGEINT_MIN || n > HUGEINT_MAX)
        throw new VipError(
          `${where}: ${column.name} = ${n} does not fit an exact 128-bit integer column`,
        );
      return n;
    }
    if (column.sql === "BOOLEAN") return value as boolean;
    if (column.solidity === "address") return (value as string).toLowerCase();
    if (column.solidity === "string") return value as string;
    return hexlify(value as string).toLowerCase();
  });
  return {
    blockNumber: BigInt(log.blockNumber),
    blockTime,
    txHash: log.transactionHash.toLowerCase(),
    logIndex: Number(BigInt(log.logIndex)),
    values,
  };
}
