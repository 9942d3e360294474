import { createRequire } from "node:module";

import hardhatToolboxMochaEthers from "@nomicfoundation/hardhat-toolbox-mocha-ethers";
import { configVariable, defineConfig } from "hardhat/config";

import { MAINNET_VIP_MODULE_ADDRESS } from "./tasks/config/constants.js";
import vipScorePlugin from "./tasks/index.js";

// solc-js from the pinned npm package: nothing is downloaded at build time.
// Hardhat needs an absolute path.
const solcJsPath = createRequire(import.meta.url).resolve("solc/soljson.js");

// Both profiles carry the same settings: tests and Ignition deployments (which
// use `production`) must run the same bytecode.
const compiler = {
  version: "0.8.30",
  path: solcJsPath,
  settings: {
    optimizer: { enabled: true, runs: 10_000 },
    evmVersion: "cancun",
    viaIR: true,
  },
};

// Ledger support is an optional dependency: its USB module compiles against
// libusb and libudev, which the set-up script installs where it can. Without
// it, every other path works and LEDGER_ACCOUNT is refused.
const hardhatLedger = await import("@nomicfoundation/hardhat-ledger").then(
  (module) => module.default,
  () => undefined,
);
const ledgerAccount = process.env.LEDGER_ACCOUNT?.trim() || undefined;
if (ledgerAccount !== undefined && hardhatLedger === undefined) {
  const { ledgerNotInstalled } = await import("./tasks/config/ledger.js");
  throw ledgerNotInstalled();
}

export default defineConfig({
  plugins: [
    hardhatToolboxMochaEthers,
    vipScorePlugin,
    ...(hardhatLedger === undefined ? [] : [hardhatLedger]),
  ],
  solidity: {
    profiles: {
      default: compiler,
      production: compiler,
    },
  },
  test: {
    // Task tests start a node and run the CLI in child processes: seconds per
    // test, not milliseconds.
    mocha: { timeout: 180_000 },
    solidity: {
      // Bounded so the suite stays in minutes on a 2-core CI machine; raise
      // locally for deeper campaigns.
      fuzz: { runs: 256 },
      invariant: { runs: 48, depth: 40 },
    },
  },
  paths: {
    tests: {
      mocha: "test",
      solidity: "test",
    },
  },
  networks: {
    // The rollup. Every value is read when a task needs it, from the
    // environment or Hardhat's keystore (`npx hardhat keystore set
    // PRIVATE_KEY`); with LEDGER_ACCOUNT set, the Ledger signs instead.
    rollup: {
      type: "http",
      url: configVariable("JSON_RPC_URL"),
      accounts:
        ledgerAccount === undefined ? [configVariable("PRIVATE_KEY")] : [],
      ...(ledgerAccount === undefined
        ? {}
        : { ledgerAccounts: [ledgerAccount] }),
      vip: {
        rollupRpcUrl: configVariable("ROLLUP_RPC_URL"),
        l1RestUrl: configVariable("L1_REST_URL"),
        vipModuleAddress: configVariable("VIP_MODULE_ADDRESS", {
          default: MAINNET_VIP_MODULE_ADDRESS,
        }),
        rollupRestUrl: configVariable("ROLLUP_REST_URL"),
        routerUrl: configVariable("ROUTER_URL"),
        routerApiKey: configVariable("ROUTER_API_KEY"),
        // Optional: its URL often carries a token, so the keystore is the
        // place for it (`npx hardhat keystore set VIP_ALERT_WEBHOOK`).
        alertWebhook: configVariable("VIP_ALERT_WEBHOOK"),
      },
    },
  },
});
