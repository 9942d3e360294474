import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { hexQuantity, type RpcLog } from "./decode.js";

/**
 * A log's `logIndex` is numbered within its transaction by minievm through
 * v1.2.18 (`log.Index = uint(idx)` per receipt) and within its block from
 * v1.3, as Ethereum and hardhat node number it; the same log's index changes
 * when the node is upgraded. The index stores it within the transaction
 * (0 for the transaction's first log), the one numbering both can give:
 * stored = raw − offset, where the offset is the logIndex of the
 * transaction's first log (0 under per-transaction numbering).
 *
 * An `eth_getLogs` answer holds only the logs the filter matches, so a
 * transaction's first log in the answer is not always its first log. A
 * transaction whose smallest logIndex in the answer is 0 has offset 0 under
 * both numberings; any other needs its receipt (`receipt.logs[0].logIndex` is
 * the offset under both), unless the answer itself shows per-transaction
 * numbering in its block: a later transaction whose smallest logIndex is not
 * above an earlier one's largest, which per-block numbering never gives.
 * The evidence is taken block by block: a node numbers every block of one
 * answer alike, but nothing is lost by not assuming it.
 */

/** A transaction of one answer: its place, and its logs' raw logIndex range. */
interface AnswerTransaction {
  hash: string;
  /** As the logs give them (hex). */
  blockNumber: string;
  blockHash: string;
  txIndex: number;
  /** As the first log gives it: later logs are compared as text first. */
  txIndexHex: string;
  first: number;
  last: number;
}

/** A transaction whose receipt gives the offset of its logs' indices. */
export interface ReceiptNeed {
  /** As the answer's logs spell it. */
  hash: string;
  block: bigint;
  blockHash: string;
}

/** What the index reads of a receipt: its block, and its logs' raw indices. */
export interface TxReceipt {
  blockHash: string;
  logIndices: string[];
}

/**
 * The transactions of an answer (logs already without `removed` ones) whose
 * receipts are needed: none when every transaction's smallest logIndex is 0
 * (the common case, and the benchmark's); else those whose smallest is
 * above 0, in blocks that do not show per-transaction numbering.
 */
export function receiptsNeeded(logs: RpcLog[]): ReceiptNeed[] {
  if (eachTransactionStartsAtZero(logs)) return [];
  const transactions = answerTransactions(logs);
  const perTransaction = blocksNumberedPerTransaction(transactions);
  const offset: AnswerTransaction[] = [];
  for (const transaction of transactions.values())
    if (transaction.first > 0 && !perTransaction.has(transaction.blockNumber))
      offset.push(transaction);
  return offset.map((t) => ({
    hash: t.hash,
    block: BigInt(t.blockNumber),
    blockHash: t.blockHash,
  }));
}

/**
 * True when each run of logs of one transaction begins with logIndex `0x0`:
 * every transaction has offset 0, and no index need be read here (the
 * decoder reads them strictly). Most answers, whatever the numbering: a
 * filter on a contract's events usually matches its transactions' first log.
 * False is not a finding, only a reason to look closer.
 */
function eachTransactionStartsAtZero(logs: RpcLog[]): boolean {
  let hash = "";
  for (const log of logs) {
    if (log.transactionHash === hash) continue;
    hash = log.transactionHash;
    if (log.logIndex !== "0x0") return false;
  }
  return true;
}

/**
 * Groups an answer's logs by transaction. Every log's indices are read
 * strictly; a transaction seen at two places in one answer is an error.
 */
function answerTransactions(logs: RpcLog[]): Map<string, AnswerTransaction> {
  const transactions = new Map<string, AnswerTransaction>();
  // A transaction's logs come together in an answer: each is looked up once.
  let current: AnswerTransaction | undefined;
  for (const log of logs) {
    const raw = hexQuantity(log.logIndex);
    if (raw === undefined)
      throw new VipError(ERRORS.INDEXER.LOGS.LOG_INDEX_NOT_HEX, {
        logIndex: log.logIndex,
        place: `${log.transactionHash} (block ${log.blockNumber})`,
      });
    if (current?.hash !== log.transactionHash)
      current = transactions.get(log.transactionHash);
    if (current === undefined) {
      current = newTransaction(log, raw);
      transactions.set(current.hash, current);
    } else if (
      current.blockNumber !== log.blockNumber ||
      current.blockHash !== log.blockHash ||
      (current.txIndexHex !== log.transactionIndex &&
        current.txIndex !== hexQuantity(log.transactionIndex))
    )
      throw new VipError(ERRORS.INDEXER.NODE.TX_AT_TWO_PLACES, {
        hash: log.transactionHash,
        block: current.blockNumber,
        index: current.txIndex,
        otherBlock: log.blockNumber,
        otherHash: log.blockHash,
        otherIndex: log.transactionIndex,
      });
    if (raw < current.first) current.first = raw;
    if (raw > current.last) current.last = raw;
  }
  return transactions;
}

function newTransaction(log: RpcLog, raw: number): AnswerTransaction {
  const txIndex = hexQuantity(log.transactionIndex);
  if (txIndex === undefined)
    throw new VipError(ERRORS.INDEXER.LOGS.TX_INDEX_NOT_HEX, {
      logIndex: log.logIndex,
      place: `${log.transactionHash} (block ${log.blockNumber})`,
      txIndex: String(log.transactionIndex),
    });
  return {
    hash: log.transactionHash,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    txIndex,
    txIndexHex: log.transactionIndex,
    first: raw,
    last: raw,
  };
}

/**
 * The blocks (as the logs spell their numbers) in which a transaction's
 * smallest logIndex is not above the largest of a transaction before it:
 * per-block numbering never gives that. Two transactions at one index of a
 * block are an error.
 */
function blocksNumberedPerTransaction(
  transactions: Map<string, AnswerTransaction>,
): Set<string> {
  const byBlock = new Map<string, AnswerTransaction[]>();
  for (const t of transactions.values()) {
    const block = byBlock.get(t.blockNumber);
    if (block === undefined) byBlock.set(t.blockNumber, [t]);
    else block.push(t);
  }
  const perTransaction = new Set<string>();
  for (const [block, list] of byBlock) {
    list.sort((a, b) => a.txIndex - b.txIndex);
    let largest = -1;
    list.forEach((t, i) => {
      const before = list[i - 1];
      if (before !== undefined && before.txIndex === t.txIndex)
        throw new VipError(ERRORS.INDEXER.NODE.TXS_AT_ONE_INDEX, {
          first: before.hash,
          second: t.hash,
          index: t.txIndex,
          block,
        });
      if (t.first <= largest) perTransaction.add(block);
      if (t.last > largest) largest = t.last;
    });
  }
  return perTransaction;
}

/**
 * Each needed transaction's offset, from its receipt (`receipts[i]` for
 * `needs[i]`, undefined where the node has none), checked against every log
 * of it in the answer: the receipt is of the log's block, and holds each log
 * at its place (`receipt.logs[raw − offset]` has logIndex raw). Anything else
 * is a reorganization between the two reads, or a node whose receipts and
 * logs disagree: an error naming the transaction and the block.
 */
export function receiptOffsets(
  logs: RpcLog[],
  needs: ReceiptNeed[],
  receipts: (TxReceipt | undefined)[],
): Map<string, number> {
  const offsets = new Map<string, number>();
  const byHash = new Map<string, { need: ReceiptNeed; receipt: TxReceipt }>();
  needs.forEach((need, i) => {
    const receipt = receipts[i];
    const where = `transaction ${need.hash} (block ${need.block})`;
    if (receipt === undefined)
      throw new VipError(ERRORS.INDEXER.NODE.NO_RECEIPT, { where });
    if (receipt.blockHash.toLowerCase() !== need.blockHash.toLowerCase())
      throw new VipError(ERRORS.INDEXER.NODE.RECEIPT_OF_OTHER_BLOCK, {
        where,
        receiptBlock: receipt.blockHash,
        logsBlock: need.blockHash,
      });
    const offset = hexQuantity(receipt.logIndices[0]);
    if (offset === undefined)
      throw new VipError(ERRORS.INDEXER.NODE.RECEIPT_FIRST_LOG, {
        where,
        problem:
          receipt.logIndices.length === 0
            ? "has no logs"
            : `numbers its first log "${receipt.logIndices[0]}"`,
      });
    offsets.set(need.hash, offset);
    byHash.set(need.hash, { need, receipt });
  });
  if (byHash.size > 0) checkPlaces(logs, byHash, offsets);
  return offsets;
}

/** Every log of a transaction read from its receipt is where the receipt has it. */
function checkPlaces(
  logs: RpcLog[],
  byHash: Map<string, { need: ReceiptNeed; receipt: TxReceipt }>,
  offsets: Map<string, number>,
): void {
  for (const log of logs) {
    const found = byHash.get(log.transactionHash);
    const offset = offsets.get(log.transactionHash);
    if (found === undefined || offset === undefined) continue;
    const raw = hexQuantity(log.logIndex) ?? -1;
    const place = raw - offset;
    if (hexQuantity(found.receipt.logIndices[place]) !== raw)
      throw new VipError(ERRORS.INDEXER.NODE.LOG_NOT_IN_RECEIPT, {
        index: raw,
        hash: log.transactionHash,
        block: found.need.block,
        place,
        offset,
      });
  }
}
