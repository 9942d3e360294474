import {
  getAddress,
  isAddress,
  type Provider,
  type Signer,
  type TransactionReceipt,
  ZeroAddress,
} from "ethers";

import { sendFailed } from "./confirm.js";
import {
  contractCall,
  openSend,
  type ReceiptTimings,
  resumeSend,
  type SendErrors,
  sendJournalled,
} from "./journalled-send.js";
import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { defined, VipError } from "../errors.js";
import { allowListJournalPath } from "../journal/journal.js";
import { counted, field, formatNumber, type Output } from "../output.js";

export type AllowListChange = "add" | "remove";

interface AllowListOptions extends ReceiptTimings {
  /** The `--network` it runs on: refusals name complete commands for it. */
  network: string;
  /** The journals' folder (the finalization's): the change is journalled there. */
  journalDir: string;
}

/** `--address` checked before the network is touched. */
export function parseAllowListAddress(rawAddress: string): string {
  if (!isAddress(rawAddress.trim()))
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.NOT_AN_ADDRESS, {
      option: "--address",
      value: rawAddress,
    });
  const address = getAddress(rawAddress.trim());
  if (address === ZeroAddress)
    throw new VipError(ERRORS.CONTRACT.ALLOW_LIST.ZERO_ADDRESS);
  return address;
}

/**
 * The change's errors: the send's failures as before journals (the catalog's
 * CALLS entries), the journal's own (ALLOW_LIST) naming the call and the
 * journal.
 */
function allowListErrors(what: string): SendErrors {
  return {
    noncePending: (values) =>
      new VipError(ERRORS.CONTRACT.ALLOW_LIST.CHANGE_NONCE_PENDING, values),
    sendFailed: (error) => sendFailed(what, error),
    dropped: ({ hash, journal }) =>
      new VipError(ERRORS.CONTRACT.ALLOW_LIST.CHANGE_DROPPED, {
        what,
        hash,
        journal,
      }),
    notMined: (values) =>
      new VipError(ERRORS.CONTRACT.ALLOW_LIST.CHANGE_NOT_MINED, {
        what,
        ...values,
      }),
    // A revert mined: `Tx failed`, as before journals.
    txFailed: (values) => new VipError(ERRORS.CONTRACT.CALLS.TX_FAILED, values),
  };
}

/**
 * Adds `address` to the contract's allow list or removes it, signed by
 * `signer`, at most once per run of the command, journalled as a finalization
 * is (journalled-send.ts, in
 * `<journalDir>/chain-<id>/<contract>/allowlist-<change>-<address>.jsonl`, its
 * `sending` naming the signer): a run killed between the broadcast and the
 * receipt finds its transaction again (by hash, else by the nonce journalled
 * before it) and follows it instead of sending a second one. A change the
 * journal leaves done is reported as already made, with its transaction,
 * while the allow list still shows it; anything else is sent after checking
 * by call everything the contract would refuse, so a refusal names its fix and
 * sends nothing, and a change the allow list already shows sends nothing.
 */
export async function changeAllowList(
  score: VipScore,
  signer: Signer,
  change: AllowListChange,
  address: string,
  options: AllowListOptions,
  out: Output,
): Promise<void> {
  const contract = await score.getAddress();
  const from = await signer.getAddress();
  const provider: Provider = defined(
    signer.provider,
    "the signer comes from a network connection, with its provider",
  );
  const { chainId } = await provider.getNetwork();
  const call = contractCall(
    contract,
    change === "add" ? score.addAllowList : score.removeAllowList,
    address,
  );
  const run = await openSend(
    allowListJournalPath(
      options.journalDir,
      chainId,
      contract,
      change,
      address,
    ),
    {
      provider,
      from,
      call,
      timings: options,
      errors: allowListErrors(call.name),
      journalsSigner: true,
    },
  );
  const earlier = await resumeSend(run);
  const reported = { score, change, address, contract, out };
  if (earlier.state === "followed")
    return report(reported, earlier.receipt, true);
  // A change journalled done may have been undone since (a removal after an
  // addition, a development chain started afresh): the allow list says.
  if (
    earlier.state === "done" &&
    (await score.allowList(address)) === (change === "add")
  ) {
    const { hash, blockNumber } = earlier.confirmed;
    out.line(
      unchanged(
        change,
        `${address} on ${contract}, by the earlier tx ${hash} ` +
          `(block ${blockNumber}, found by its journal)`,
      ),
    );
    return;
  }
  if (earlier.state === "reverted")
    out.warn(
      `${call.name} ${earlier.confirmed.hash} of an earlier run reverted ` +
        `(journal ${run.journal.path}): the allow list is checked again`,
    );
  if (!(await mayChange(score, from, change, address, options.network, out)))
    return;
  await report(reported, await sendJournalled(run), false);
}

/**
 * Reads the allow list and refuses what the contract would refuse (a signer
 * not on it, removing the last address); false, with the reason printed, when
 * the list already shows the change, so nothing is to be sent.
 */
async function mayChange(
  score: VipScore,
  from: string,
  change: AllowListChange,
  address: string,
  network: string,
  out: Output,
): Promise<boolean> {
  const contract = await score.getAddress();
  const [signerAllowed, listed, size] = await Promise.all([
    score.allowList(from),
    score.allowList(address),
    score.allowListSize(),
  ]);
  if (!signerAllowed)
    throw new VipError(
      ERRORS.CONTRACT.ALLOW_LIST.SIGNER_CANNOT_CHANGE_ALLOW_LIST,
      {
        signer: from,
        contract,
      },
    );

  if (listed === (change === "add")) {
    out.line(unchanged(change, `${address} on ${contract}`));
    return false;
  }
  if (change === "remove" && size === 1n)
    throw new VipError(ERRORS.CONTRACT.ALLOW_LIST.LAST_ALLOWED, {
      address,
      contract,
      network,
    });
  if (change === "remove" && address === from)
    out.warn(
      `the signer ${from} removes itself: it can no longer write scores or ` +
        `finalize stages on ${contract}`,
    );
  return true;
}

/** The line of a change the allow list already shows: nothing was sent. */
function unchanged(change: AllowListChange, what: string): string {
  return field(
    change === "add" ? "already allowed" : "not listed",
    `${what}: nothing was sent`,
  );
}

/** What a change's report names. */
interface Reported {
  score: VipScore;
  change: AllowListChange;
  address: string;
  contract: string;
  out: Output;
}

/**
 * The change's transaction (`resumed`: sent by an earlier run, found by its
 * journal), and the allow list's size after it.
 */
async function report(
  { score, change, address, contract, out }: Reported,
  mined: Pick<TransactionReceipt, "hash" | "blockNumber" | "gasUsed">,
  resumed: boolean,
): Promise<void> {
  const how = resumed ? " (sent by an earlier run, found by its journal)" : "";
  out.line(
    field(
      change === "add" ? "allowed" : "removed",
      `${address} on ${contract} in tx ${mined.hash}, ` +
        `block ${mined.blockNumber}, gas ${formatNumber(mined.gasUsed)}${how}`,
    ),
  );
  out.line(
    field(
      "allow list",
      counted(await score.allowListSize(), "address", "addresses"),
    ),
  );
}
