import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { optionalSeconds } from "../../cli/values.js";
import { taskFolder } from "../../config/settings.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { Journal } from "../../journal/journal.js";
import { connect } from "../../network/connect.js";
import { consoleOutput, field } from "../../output.js";
import { accountAddresses } from "../../signer/addresses.js";
import { announceSigner, operatorSigner } from "../../signer/signer.js";
import { cosmosEndpoints } from "../../transfer/chains.js";
import {
  recordsOf,
  transferJournalPath,
  underWay,
  type TransferIntent,
  type TransferRecord,
} from "../../transfer/records.js";
import { runTransfer } from "../../transfer/resumable-transfer.js";
import { routerFor } from "../../transfer/router.js";

interface BridgeTransferArgs {
  fromChain: string;
  fromDenom: string;
  toChain: string;
  toDenom: string;
  amount: string;
  to: string;
  slippage: string;
  yes: boolean;
  new: boolean;
  journalDir?: string;
  pollInterval?: string;
  timeout?: string;
  opWithdraw: boolean;
}

const action: NewTaskActionFunction<BridgeTransferArgs> = async (args, hre) => {
  const amount = args.amount;
  if (!/^\d+$/.test(amount) || BigInt(amount) === 0n)
    throw new VipError(ERRORS.NETWORK.TRANSFER.AMOUNT_INVALID, { amount });
  if (!/^\d+(\.\d+)?$/.test(args.slippage) || Number(args.slippage) > 100)
    throw new VipError(ERRORS.NETWORK.TRANSFER.SLIPPAGE_INVALID, {
      slippage: args.slippage,
    });
  const recipient = args.to;
  const pollMs = optionalSeconds(args.pollInterval, "--poll-interval");
  const timeoutMs = optionalSeconds(args.timeout, "--timeout");
  accountAddresses(recipient, "--to");

  const connection = await connect(hre);
  const signer = await operatorSigner(connection);
  announceSigner(consoleOutput, signer);
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  const intent: TransferIntent = {
    fromChain: args.fromChain,
    fromDenom: args.fromDenom,
    toChain: args.toChain,
    toDenom: args.toDenom,
    amount,
    recipient,
    signer: signer.hex,
    ...(args.opWithdraw ? { opWithdraw: true as const } : {}),
  };
  const journalDir = taskFolder(
    hre.config.paths.root,
    "journal",
    args.journalDir,
  );
  const journal = await Journal.open<TransferRecord>(
    transferJournalPath(journalDir, intent),
  );
  if (journal.start !== undefined && args.new) {
    if (
      recordsOf(journal.records, "done").length === 0 &&
      underWay(journal.records)
    ) {
      throw new VipError(ERRORS.NETWORK.TRANSFER.TRANSFER_IN_PROGRESS, {
        journal: journal.path,
      });
    }
    consoleOutput.line(
      `the earlier transfer's journal is kept as ${await journal.archive()}`,
    );
  }

  const confirm = async (lines: string[]) => {
    for (const line of lines) consoleOutput.line(line);
    if (args.yes) return true;
    if (process.stdin.isTTY !== true)
      throw new VipError(ERRORS.NETWORK.TRANSFER.NOT_CONFIRMED_NO_TERMINAL);
    const answer = await hre.interruptions.requestInput(
      "vip",
      "Sign and send these? (y/N)",
    );
    return /^y(es)?$/i.test(answer.trim());
  };
  const router = await routerFor(
    connection.networkName,
    connection.networkConfig,
  );
  const restUrl = cosmosEndpoints(
    connection.networkName,
    connection.networkConfig,
    router,
    (chain, url) =>
      consoleOutput.line(
        field(
          "REST endpoint",
          `${url} for ${chain}, from the router's chain list (its node info says ${chain})`,
        ),
      ),
  );
  await runTransfer(
    intent,
    {
      slippagePercent: args.slippage,
      pollMs,
      timeoutMs,
    },
    {
      router,
      journal,
      signer,
      provider: connection.ethers.provider,
      chainId,
      restUrl,
      out: consoleOutput,
      confirm,
    },
  );
};

export default action;
