import { createRequire } from "node:module";

import hardhatToolboxMochaEthers from "@nomicfoundation/hardhat-toolbox-mocha-ethers";
import { defineConfig } from "hardhat/config";

import vipScorePlugin from "./tasks/index.js";

// solc-js from the pinned npm package: nothing is downloaded at build time. Hardhat needs an absolute path.
const solcJsPath = createRequire(import.meta.url).resolve("solc/soljson.js");

// Both profiles carry the same settings: tests and Ignition deployments (which use `production`)
// must run the same bytecode.
const compiler = {
  version: "0.8.30",
  path: solcJsPath,
  settings: {
    optimizer: { enabled: true, runs: 10_000 },
    evmVersion: "cancun",
    viaIR: true,
  },
};

export default defineConfig({
  plugins: [hardhatToolboxMochaEthers, vipScorePlugin],
  solidity: {
    profiles: {
      default: compiler,
      production: compiler,
    },
  },
  test: {
    solidity: {
      // Bounded so the suite stays in minutes on a 2-core CI machine; raise locally for deeper campaigns.
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
    hardhatMainnet: {
      type: "edr-simulated",
      chainType: "l1",
    },
  },
});
