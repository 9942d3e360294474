import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { storeInKeystore } from "../../accounts/keystore.js";
import {
  accountFromMnemonic,
  newAccount,
  readStdin,
} from "../../accounts/mnemonic.js";
import { showAccounts } from "../../accounts/show-accounts.js";
import { optionalVipUrl } from "../../config/settings.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError } from "../../errors.js";
import { connectAnyNetwork } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { accountAddresses } from "../../signer/addresses.js";
import { operatorSigner } from "../../signer/signer.js";

interface AccountsArgs {
  create: boolean;
  recover: boolean;
  ledger?: string;
  name: string;
  dev: boolean;
  force: boolean;
  operator?: string;
}

const action: NewTaskActionFunction<AccountsArgs> = async (args, hre) => {
  const modes = [args.create, args.recover, args.ledger !== undefined].filter(
    Boolean,
  ).length;
  if (modes > 1)
    throw new VipError(ERRORS.CONTRACT.ACCOUNTS.ACCOUNT_MODES_EXCLUSIVE);
  const out = consoleOutput;

  if (args.create) {
    // The mnemonic is the key: it is shown once, and only to a person at a
    // terminal, never into a pipe or a log.
    if (process.stdout.isTTY !== true) {
      throw new VipError(ERRORS.CONTRACT.ACCOUNTS.CREATE_NEEDS_TERMINAL);
    }
    const { phrase, account } = newAccount();
    await storeInKeystore(hre, args.name, account.privateKey, {
      dev: args.dev,
      force: args.force,
    });
    const addresses = accountAddresses(account.address, "new account");
    out.line(
      `new account ${addresses.hex} (${addresses.bech32}), ` +
        `stored in the keystore as ${args.name}`,
    );
    out.warn(
      "write these 24 words down, offline, now: they are the only backup of " +
        "this key and are not shown again or stored anywhere",
    );
    process.stdout.write(`\n  ${phrase}\n\n`);
    return;
  }
  if (args.recover) {
    const phrase =
      process.stdin.isTTY === true
        ? await hre.interruptions.requestSecretInput(
            "vip",
            "Mnemonic (BIP39, words separated by spaces)",
          )
        : await readStdin();
    const account = accountFromMnemonic(phrase);
    await storeInKeystore(hre, args.name, account.privateKey, {
      dev: args.dev,
      force: args.force,
    });
    const addresses = accountAddresses(account.address, "recovered account");
    out.line(
      `recovered ${addresses.hex} (${addresses.bech32}) at m/44'/60'/0'/0/0, ` +
        `stored in the keystore as ${args.name}`,
    );
    return;
  }
  if (args.ledger !== undefined) {
    const addresses = accountAddresses(args.ledger, "--ledger");
    out.line(`Ledger account ${addresses.hex} (${addresses.bech32})`);
    out.line(
      `sign with it: set LEDGER_ACCOUNT=${addresses.hex} ` +
        "(the Ethereum app open; the key never leaves the device)",
    );
    return;
  }

  const connection = await connectAnyNetwork(hre);
  const signer = await operatorSigner(connection);
  await showAccounts(
    {
      signer,
      provider: connection.ethers.provider,
      l1RestUrl: await optionalVipUrl(
        connection.networkName,
        connection.networkConfig,
        "l1RestUrl",
      ),
      rollupRestUrl: await optionalVipUrl(
        connection.networkName,
        connection.networkConfig,
        "rollupRestUrl",
      ),
      operator:
        args.operator === undefined
          ? undefined
          : accountAddresses(args.operator, "--operator"),
    },
    out,
  );
};

export default action;
