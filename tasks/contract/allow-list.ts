import { getAddress, isAddress, type Signer, ZeroAddress } from "ethers";

import type { VipScore } from "../../types/ethers-contracts/index.js";
import { ERRORS } from "../error-catalog.js";
import { defined, VipError } from "../errors.js";
import { counted, field, formatNumber, type Output } from "../output.js";
import { estimateSendAndConfirm } from "./confirm.js";

export type AllowListChange = "add" | "remove";

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
 * Adds `address` to the contract's allow list or removes it, signed by
 * `signer`, after checking by call everything the contract would refuse, so a
 * refusal names its fix and sends nothing. Both are idempotent on chain (the
 * state is read first), so a run stopped at any moment is simply run again.
 */
export async function changeAllowList(
  score: VipScore,
  signer: Signer,
  change: AllowListChange,
  address: string,
  network: string,
  out: Output,
): Promise<void> {
  const contract = await score.getAddress();
  const from = await signer.getAddress();
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

  if (change === "add" && listed) {
    out.line(
      field("already allowed", `${address} on ${contract}: nothing was sent`),
    );
    return;
  }
  if (change === "remove" && !listed) {
    out.line(
      field("not listed", `${address} on ${contract}: nothing was sent`),
    );
    return;
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

  const provider = defined(
    signer.provider,
    "the signer comes from a network connection, with its provider",
  );
  const what =
    change === "add"
      ? `addAllowList(${address})`
      : `removeAllowList(${address})`;
  const receipt = await estimateSendAndConfirm(
    what,
    provider,
    from,
    () =>
      change === "add"
        ? score.addAllowList.estimateGas(address)
        : score.removeAllowList.estimateGas(address),
    (overrides) =>
      change === "add"
        ? score.addAllowList(address, overrides)
        : score.removeAllowList(address, overrides),
  );
  out.line(
    field(
      change === "add" ? "allowed" : "removed",
      `${address} on ${contract} in tx ${receipt.hash}, ` +
        `block ${receipt.blockNumber}, gas ${formatNumber(receipt.gasUsed)}`,
    ),
  );
  out.line(
    field(
      "allow list",
      counted(await score.allowListSize(), "address", "addresses"),
    ),
  );
}
