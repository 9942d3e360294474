import { isAddress } from "ethers";

import type {
  MsgsRequest,
  MsgsTx,
  Route,
  SignedOpHook,
} from "../clients/router.js";
import { checkMsg } from "../cosmos/amino.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { accountAddresses } from "../signer/addresses.js";

/**
 * A route and what `msgs` needs with it. A route that requires an op hook
 * carries the signed hook, so a msgs request for it cannot be built without
 * one: the type leaves no path around rule 1 of the spec.
 */
export type RouteForMsgs =
  | { route: Route & { required_op_hook?: false | undefined } }
  | { route: Route & { required_op_hook: true }; hook: SignedOpHook };

/**
 * Signs the op hook of a route that requires one (tasks/cosmos/op-hook.ts does
 * the signing).
 */
export type HookSigner = (
  route: Route & { required_op_hook: true },
) => Promise<SignedOpHook>;

/**
 * Pairs a route with its signed hook when it needs one: the only way to a msgs
 * request.
 */
export async function withHook(
  route: Route,
  signHook: HookSigner,
): Promise<RouteForMsgs> {
  if (route.required_op_hook !== true)
    return { route: route as Route & { required_op_hook?: false } };
  const needsHook = route as Route & { required_op_hook: true };
  return { route: needsHook, hook: await signHook(needsHook) };
}

/**
 * One address per `required_chain_addresses` entry, in order: the recipient on
 * the destination chain, the signer elsewhere (its 0x… on EVM chains, its
 * init1… on Initia chains: the same key).
 */
export function addressList(
  route: Route,
  signer: { hex: string; bech32: string },
  recipient: string,
): string[] {
  if (route.required_chain_addresses == null) {
    throw new VipError(ERRORS.NETWORK.TRANSFER.NO_REQUIRED_ADDRESSES);
  }
  return route.required_chain_addresses.map((chainId) => {
    const evm = /^\d+$/.test(chainId);
    if (chainId === route.dest_asset_chain_id) {
      if (evm && !isAddress(recipient))
        throw new VipError(ERRORS.NETWORK.TRANSFER.RECIPIENT_NOT_EVM, {
          recipient,
          chainId,
        });
      return evm
        ? accountAddresses(recipient, "--to").hex
        : accountAddresses(recipient, "--to").bech32;
    }
    return evm ? signer.hex : signer.bech32;
  });
}

/**
 * The msgs request: the route's assets and operations verbatim, the addresses,
 * the slippage, the hook if any.
 */
export function msgsRequest(
  prepared: RouteForMsgs,
  addresses: string[],
  slippagePercent: string,
): MsgsRequest {
  const { route } = prepared;
  return {
    source_asset_denom: route.source_asset_denom,
    source_asset_chain_id: route.source_asset_chain_id,
    dest_asset_denom: route.dest_asset_denom,
    dest_asset_chain_id: route.dest_asset_chain_id,
    amount_in: route.amount_in,
    amount_out: route.amount_out,
    operations: route.operations,
    address_list: addresses,
    slippage_tolerance_percent: slippagePercent,
    ...("hook" in prepared ? { signed_op_hook: prepared.hook } : {}),
  };
}

/**
 * Checks every transaction before any is signed: an EVM transaction must be for
 * the connected chain and signed by the signer's 0x…; a Cosmos one must be
 * signed by the signer's init1… and hold only messages this tool can sign
 * exactly. Anything else is refused with nothing sent.
 */
export function checkTransactions(
  txs: MsgsTx[],
  chainId: bigint,
  signer: { hex: string; bech32: string },
): void {
  for (const [i, tx] of txs.entries()) {
    if ("cosmos_tx" in tx) {
      const cosmos = tx.cosmos_tx;
      if (cosmos.signer_address !== signer.bech32) {
        throw new VipError(ERRORS.NETWORK.TRANSFER.COSMOS_TX_SIGNER_MISMATCH, {
          n: i + 1,
          chainId: cosmos.chain_id,
          expected: cosmos.signer_address,
          signer: signer.bech32,
        });
      }
      cosmos.msgs.forEach((msg, j) =>
        checkMsg(
          msg,
          `transaction ${i + 1} on ${cosmos.chain_id}, message ${j + 1}`,
        ),
      );
      continue;
    }
    if (!("evm_tx" in tx))
      throw new VipError(ERRORS.NETWORK.TRANSFER.TX_KIND_UNKNOWN, { n: i + 1 });
    const evm = tx.evm_tx;
    if (evm.chain_id !== chainId.toString()) {
      throw new VipError(ERRORS.NETWORK.TRANSFER.TX_WRONG_CHAIN, {
        n: i + 1,
        txChain: evm.chain_id,
        chainId,
      });
    }
    if (evm.signer_address.toLowerCase() !== signer.hex.toLowerCase()) {
      throw new VipError(ERRORS.NETWORK.TRANSFER.EVM_TX_SIGNER_MISMATCH, {
        n: i + 1,
        expected: evm.signer_address,
        signer: signer.hex,
      });
    }
  }
}
