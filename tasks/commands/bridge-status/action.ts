import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";

import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { optionalSeconds } from "../../cli/values.js";
import { SUCCESS_STATE } from "../../clients/router.js";
import { taskFolder } from "../../config/settings.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { Journal } from "../../journal/journal.js";
import { selectedNetwork } from "../../network/connect.js";
import { consoleOutput, safeText } from "../../output.js";
import {
  describeEnd,
  followToTheEnd,
  recordedEnd,
  trackOnce,
} from "../../transfer/follow.js";
import { recordsOf, type TransferRecord } from "../../transfer/records.js";
import { routerFor } from "../../transfer/router.js";
import { transactionsOut } from "../../transfer/step-state.js";

interface BridgeStatusArgs {
  tx: string;
  chain: string;
  journalDir?: string;
  pollInterval?: string;
  timeout?: string;
}

/**
 * Follows a transfer to its end: the journal of the transfer that sent `--tx`
 * (tracking it first if that journal says it never was), or, for a transaction
 * this tool did not send, a journal of its own.
 */
const action: NewTaskActionFunction<BridgeStatusArgs> = async (args, hre) => {
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(args.tx))
    throw new VipError(ERRORS.NETWORK.TRANSFER.TX_HASH_INVALID, {
      tx: safeText(args.tx, 80),
    });
  const hash = args.tx;
  const pollMs = optionalSeconds(args.pollInterval, "--poll-interval");
  const timeoutMs = optionalSeconds(args.timeout, "--timeout") ?? 30 * 60_000;
  const journalDir = path.join(
    taskFolder(hre.config.paths.root, "journal", args.journalDir),
    "transfers",
  );
  let journal: Journal<TransferRecord> | undefined;
  if (existsSync(journalDir)) {
    for (const name of (await readdir(journalDir)).filter((n) =>
      n.endsWith(".jsonl"),
    )) {
      const candidate = await Journal.open<TransferRecord>(
        path.join(journalDir, name),
      );
      if (
        transactionsOut(candidate.records).some(
          (out) => out.toLowerCase() === hash.toLowerCase(),
        )
      )
        journal = candidate;
    }
  }
  journal ??= await Journal.open<TransferRecord>(
    path.join(journalDir, `status-${hash.toLowerCase()}.jsonl`),
  );
  consoleOutput.line(`journal               ${journal.path}`);
  const network = selectedNetwork(hre);
  const router = await routerFor(network.name, network.config);
  const done = recordsOf(journal.records, "done").find(
    (r) => r.hash.toLowerCase() === hash.toLowerCase(),
  );
  if (done === undefined) {
    if (transactionsOut(journal.records).length > 0)
      await trackOnce(router, journal, hash, args.chain, consoleOutput);
    const route = recordsOf(journal.records, "route")[0]?.route;
    const end = await followToTheEnd(
      router,
      journal,
      hash,
      args.chain,
      {
        estimatedSeconds: route?.estimated_route_duration_seconds ?? undefined,
        pollMs,
        timeoutMs,
      },
      consoleOutput,
    );
    if (end.outcome !== "success")
      throw new VipError(ERRORS.NETWORK.ROUTER.TRANSFER_FAILED, {
        hash,
        end: describeEnd(end),
      });
  } else {
    consoleOutput.line(`status                ${done.state} (recorded)`);
    if (done.state !== SUCCESS_STATE)
      throw new VipError(ERRORS.NETWORK.ROUTER.TRANSFER_FAILED, {
        hash,
        end: describeEnd(recordedEnd(done)),
      });
  }
  consoleOutput.line(`done                  ${hash}: ${SUCCESS_STATE}`);
};

export default action;
