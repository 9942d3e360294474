import { HardhatError } from "@nomicfoundation/hardhat-errors";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { ResolvedConfigurationVariable } from "hardhat/types/config";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { Connection } from "../network/connect.js";
import type { Output } from "../output.js";
import { type AccountAddresses, accountAddresses } from "./addresses.js";
import { checkPrivateKey } from "./private-key.js";

/** The account a task signs with, in both spellings, and how it signs. */
export interface OperatorSigner extends AccountAddresses {
  /**
   * Signs EVM transactions and EIP-191 messages (`signMessage`), with a key or
   * on a Ledger.
   */
  signer: HardhatEthersSigner;
  /**
   * Where the key comes from: the configuration variable's name, or `Ledger`.
   */
  source: string;
  kind: "key" | "ledger";
}

/**
 * The network's signer, after checking how it is configured: every configured
 * private key is checked before Hardhat parses it (see checkPrivateKey), so a
 * malformed key is refused by its variable's name, and never becomes some other
 * account.
 */
export async function operatorSigner(
  connection: Connection,
): Promise<OperatorSigner> {
  const config = connection.networkConfig as {
    accounts?: unknown;
    ledgerAccounts?: string[];
  };
  const variables = Array.isArray(config.accounts)
    ? (config.accounts as ResolvedConfigurationVariable[])
    : [];
  for (const [index, variable] of variables.entries()) {
    const name =
      (variable as { name?: string }).name ??
      `networks.${connection.networkName}.accounts[${index}]`;
    let raw: string;
    try {
      raw = await variable.get();
    } catch (error) {
      if (
        HardhatError.isHardhatError(
          error,
          HardhatError.ERRORS.CORE.GENERAL.ENV_VAR_NOT_FOUND,
        )
      ) {
        throw new VipError(ERRORS.CONTRACT.ACCOUNTS.KEY_NOT_SET, {
          network: connection.networkName,
          variable: name,
        });
      }
      throw error;
    }
    checkPrivateKey(raw, name);
  }
  const signers = await connection.ethers.getSigners();
  const signer = signers[0];
  if (signer === undefined) {
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.NO_ACCOUNT, {
      network: connection.networkName,
    });
  }
  const ledger = (config.ledgerAccounts ?? []).some(
    (account) => account.toLowerCase() === signer.address.toLowerCase(),
  );
  const firstVariable = variables[0] as { name?: string } | undefined;
  return {
    ...accountAddresses(signer.address, "signer"),
    signer,
    kind: ledger ? "ledger" : "key",
    source: ledger
      ? "Ledger"
      : (firstVariable?.name ??
        `the accounts of network "${connection.networkName}"`),
  };
}

/**
 * The line every signing task prints before it sends: who signs, in both
 * spellings, and how.
 */
export function announceSigner(output: Output, signer: OperatorSigner): void {
  const how = signer.kind === "ledger" ? "Ledger" : signer.source;
  output.line(`${"signer".padEnd(22)}${signer.hex} (${signer.bech32}, ${how})`);
}
