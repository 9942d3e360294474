import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

/**
 * Deploys the scoring contract. `startStage` is the VIP program's current stage on the base chain;
 * the `deploy` task reads it from there, or from START_STAGE.
 */
export default buildModule("VipScore", (m) => {
  const startStage = m.getParameter<bigint>("startStage");
  const vipScore = m.contract("VipScore", [startStage]);
  return { vipScore };
});
