import { readFileSync } from "node:fs";

import { type Artifact, buildModule } from "@nomicfoundation/ignition-core";

/**
 * The compiled VipScore this package ships (solc 0.8.30, viaIR, 10,000 runs):
 * deployed from the artifact itself, so a project that installs the package
 * deploys the same bytecode without compiling anything. `../../artifacts/` is
 * the build output in this repository and `dist/artifacts/` in the package.
 */
const artifact = JSON.parse(
  readFileSync(
    new URL(
      "../../artifacts/contracts/VipScore.sol/VipScore.json",
      import.meta.url,
    ),
    "utf8",
  ),
) as Artifact;

/**
 * Deploys the scoring contract. `startStage` is the VIP program's current stage
 * on the base chain; the `contract:deploy` task reads it from there, or from
 * START_STAGE.
 */
export default buildModule("VipScore", (m) => {
  const startStage = m.getParameter<bigint>("startStage");
  const vipScore = m.contract("VipScore", artifact, [startStage]);
  return { vipScore };
});
