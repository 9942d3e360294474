import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";

import { lazyAction } from "../../cli/lazy-action.js";
import { textOption } from "../../cli/options.js";

export default task(
  "accounts",
  "Show the signing account (0x… and init1…) and its balances; or create, recover or name one",
)
  .addFlag({
    name: "create",
    description:
      "Create a new key from fresh entropy into the keystore (its mnemonic is shown once, on a terminal)",
  })
  .addFlag({
    name: "recover",
    description:
      "Recover a key from a BIP39 mnemonic read from a hidden prompt or standard input, into the keystore",
  })
  .addOption(
    textOption(
      "ledger",
      "A Ledger account's 0x… address: shows both spellings and how to sign with it",
    ),
  )
  .addOption({
    name: "name",
    description: "The keystore entry the key goes to",
    type: ArgumentType.STRING,
    defaultValue: "PRIVATE_KEY",
  })
  .addFlag({
    name: "dev",
    description:
      "Use Hardhat's development keystore (no password) instead of the production one",
  })
  .addFlag({
    name: "force",
    description: "Overwrite an existing keystore entry",
  })
  .addOption(
    textOption(
      "operator",
      "The operator's address: says whether it is the deployer's key",
    ),
  )
  .setAction(lazyAction(() => import("./action.js")))
  .build();
