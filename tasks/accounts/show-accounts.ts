import { formatEther, type Provider } from "ethers";

import { fetchBalances } from "../clients/bank.js";
import { reasonOf } from "../errors.js";
import { field, type Output } from "../output.js";
import type { AccountAddresses } from "../signer/addresses.js";
import type { OperatorSigner } from "../signer/signer.js";

export interface AccountsContext {
  signer: OperatorSigner;
  provider: Provider;
  l1RestUrl?: string;
  rollupRestUrl?: string;
  operator?: AccountAddresses;
}

/**
 * The account the network signs with, in both spellings, with its balances
 * where they can be read.
 */
export async function showAccounts(
  context: AccountsContext,
  out: Output,
): Promise<void> {
  const { signer } = context;
  out.line(field("deployer", `${signer.hex} (${signer.bech32})`));
  out.line(
    field(
      "signs with",
      signer.kind === "ledger" ? "a Ledger" : `the key in ${signer.source}`,
    ),
  );
  out.line(
    field(
      "rollup balance",
      `${formatEther(await context.provider.getBalance(signer.hex))} (native, EVM)`,
    ),
  );
  for (const [label, url] of [
    ["rollup coins", context.rollupRestUrl],
    ["base chain coins", context.l1RestUrl],
  ] as const) {
    if (url === undefined) continue;
    try {
      const coins = await fetchBalances(url, signer.bech32);
      out.line(
        field(
          label,
          coins.length === 0
            ? "none"
            : coins.map((c) => `${c.amount}${c.denom}`).join(", "),
        ),
      );
    } catch (error) {
      out.warn(`${label}: ${reasonOf(error, "with code")}`);
    }
  }
  if (context.operator !== undefined) {
    const same = context.operator.hex === signer.hex;
    out.line(
      field("operator", `${context.operator.hex} (${context.operator.bech32})`),
    );
    out.line(
      same
        ? "the deployer and the operator are the same key: one key receives " +
            "the operator rewards and operates the contract"
        : "the deployer and the operator are different keys",
    );
  }
}
