import type { RouterClient } from "../clients/router.js";
import { checkHookSequence, signOpHook } from "../cosmos/op-hook.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { HookSigner } from "./plan.js";
import type { Journal } from "../journal/journal.js";
import { field, type Output } from "../output.js";
import { recordsOf, type TransferRecord } from "./records.js";
import { transactionsOut } from "./step-state.js";
import { accountAddresses } from "../signer/addresses.js";
import type { OperatorSigner } from "../signer/signer.js";

export interface HookContext {
  router: RouterClient;
  journal: Journal<TransferRecord>;
  signer: OperatorSigner;
  recipient: string;
  restUrl: (chainId: string) => Promise<string>;
  out: Output;
}

/**
 * The op hook of a route, signed once: `/op-hook` is asked for it with the
 * route's assets, the signer as the source address and the recipient (as
 * init1…) as the destination; the destination account signs it, so the
 * recipient must be the signer's own account. It is journalled before msgs, so
 * a restart passes the same hook.
 */
export function journalledHookSigner(context: HookContext): HookSigner {
  return async (route) => {
    const { journal, signer, out } = context;
    const recorded = recordsOf(journal.records, "hook")[0];
    if (recorded !== undefined) return recorded.signedOpHook;
    const recipient = accountAddresses(context.recipient, "--to");
    if (recipient.bech32 !== signer.bech32) {
      throw new VipError(ERRORS.NETWORK.TRANSFER.HOOK_RECIPIENT_NOT_SIGNER, {
        recipient: context.recipient,
        hex: signer.hex,
        bech32: signer.bech32,
      });
    }
    const sourceIsEvm = /^\d+$/.test(route.source_asset_chain_id);
    const hook = await context.router.opHook({
      source_address: sourceIsEvm ? signer.hex : signer.bech32,
      source_asset_chain_id: route.source_asset_chain_id,
      source_asset_denom: route.source_asset_denom,
      dest_address: recipient.bech32,
      dest_asset_chain_id: route.dest_asset_chain_id,
      dest_asset_denom: route.dest_asset_denom,
    });
    const signed = await signOpHook({
      hook,
      account: signer,
      restUrl: await context.restUrl(hook.chain_id),
      sourceChainId: route.source_asset_chain_id,
    });
    for (const description of signed.descriptions)
      out.line(field("op hook", `${description}, on ${hook.chain_id}`));
    out.line(
      field(
        "op hook signed",
        `by ${signer.bech32} on ${hook.chain_id}: account ${signed.accountNumber}, sequence ${signed.sequence}`,
      ),
    );
    out.warn(
      `${signer.bech32} must send nothing else on ${hook.chain_id} until this transfer lands: ` +
        `the op hook runs at its sequence ${signed.sequence}, ` +
        "and any other transaction from it first makes the hook fail",
    );
    await journal.append({
      type: "hook",
      chainId: hook.chain_id,
      signer: signer.bech32,
      accountNumber: signed.accountNumber.toString(),
      sequence: signed.sequence.toString(),
      baseSequence: signed.baseSequence.toString(),
      signedOpHook: signed.signedOpHook,
    });
    return signed.signedOpHook;
  };
}

/**
 * Before the transfer's first broadcast: the hook account's sequence must be
 * where it was when the hook was signed. Once a transaction of the transfer is
 * out (a step sent or confirmed, earlier versions' journals read alike), the
 * check is past.
 */
export function hookSequenceGuard(
  journal: Journal<TransferRecord>,
  restUrl: (chainId: string) => Promise<string>,
): () => Promise<void> {
  return async () => {
    const hook = recordsOf(journal.records, "hook")[0];
    if (hook === undefined || transactionsOut(journal.records).length > 0)
      return;
    await checkHookSequence(
      await restUrl(hook.chainId),
      hook.signer,
      hook.chainId,
      BigInt(hook.baseSequence),
    );
  };
}
