import path from "node:path";

import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { VipError } from "../../errors.js";
import { Journal } from "../../journal/journal.js";
import { connect } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { accountAddresses } from "../../signer/addresses.js";
import { announceSigner, operatorSigner } from "../../signer/signer.js";
import { recordsOf, transferJournalPath, type TransferIntent, type TransferRecord } from "../../transfer/records.js";
import { routerFor } from "../../transfer/router.js";
import { runTransfer } from "./run.js";

interface BridgeTransferArgs {
  fromChain?: string;
  fromDenom?: string;
  toChain?: string;
  toDenom?: string;
  amount?: string;
  to?: string;
  slippage: string;
  yes: boolean;
  new: boolean;
  journalDir?: string;
  pollInterval?: string;
  timeout?: string;
}

const action: NewTaskActionFunction<BridgeTransferArgs> = async (args, hre) => {
  const required = (value: string | undefined, option: string) => {
    if (value === undefined || value.trim() === "") throw new VipError(`${option} is required`);
    return value.trim();
  };
  const amount = required(args.amount, "--amount");
  if (!/^\d+$/.test(amount) || BigInt(amount) === 0n) throw new VipError(`--amount ${amount} is not an amount in base units (a whole number above 0)`);
  if (!/^\d+(\.\d+)?$/.test(args.slippage) || Number(args.slippage) > 100) throw new VipError(`--slippage ${args.slippage} is not a percentage between 0 and 100`);
  const recipient = required(args.to, "--to");
  accountAddresses(recipient, "--to");

  const connection = await connect(hre);
  const signer = await operatorSigner(connection);
  announceSigner(consoleOutput, signer);
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  const intent: TransferIntent = {
    fromChain: required(args.fromChain, "--from-chain"),
    fromDenom: required(args.fromDenom, "--from-denom"),
    toChain: required(args.toChain, "--to-chain"),
    toDenom: required(args.toDenom, "--to-denom"),
    amount,
    recipient,
    signer: signer.hex,
  };
  const journalDir = args.journalDir ?? path.join(hre.config.paths.root, "vip-journal");
  const journal = await Journal.open<TransferRecord>(transferJournalPath(journalDir, intent));
  if (journal.start !== undefined && args.new) {
    if (recordsOf(journal.records, "done").length === 0 && recordsOf(journal.records, "sending").length > 0) {
      throw new VipError(`the same transfer is still in progress (journal ${journal.path}): run the command without --new to finish it first`);
    }
    consoleOutput.line(`the earlier transfer's journal is kept as ${await journal.archive()}`);
  }

  const confirm = async (lines: string[]) => {
    for (const line of lines) consoleOutput.line(line);
    if (args.yes) return true;
    if (process.stdin.isTTY !== true) throw new VipError("not confirmed: standard input is not a terminal, so pass --yes to sign and send; nothing was sent");
    const answer = await hre.interruptions.requestInput("vip", "Sign and send these? (y/N)");
    return /^y(es)?$/i.test(answer.trim());
  };
  await runTransfer(
    intent,
    {
      slippagePercent: args.slippage,
      pollMs: args.pollInterval === undefined ? undefined : Number(args.pollInterval) * 1000,
      timeoutMs: args.timeout === undefined ? undefined : Number(args.timeout) * 1000,
    },
    {
      router: await routerFor(connection.networkName, connection.networkConfig),
      journal,
      signer,
      provider: connection.ethers.provider,
      chainId,
      out: consoleOutput,
      confirm,
    },
  );
};

export default action;
