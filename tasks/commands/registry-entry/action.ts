import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { fetchAbciInfo, fetchCosmosChainId } from "../../clients/cometbft.js";
import { fetchBridgeInfo } from "../../clients/rollup-rest.js";
import { vipUrl } from "../../config/settings.js";
import { connectReadOnly } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import {
  readRegistryInput,
  runRegistryEntry,
} from "../../registry/make-entry.js";

interface RegistryEntryArgs {
  registry: string;
  input: string;
  force: boolean;
}

const action: NewTaskActionFunction<RegistryEntryArgs> = async (args, hre) => {
  const input = await readRegistryInput(args.input);
  const connection = await connectReadOnly(hre);
  const rpcUrl = await vipUrl(
    connection.networkName,
    connection.networkConfig,
    "rollupRpcUrl",
  );
  const restUrl = await vipUrl(
    connection.networkName,
    connection.networkConfig,
    "rollupRestUrl",
  );
  const [chainId, abci, bridge, evmChainId] = await Promise.all([
    fetchCosmosChainId(rpcUrl),
    fetchAbciInfo(rpcUrl),
    fetchBridgeInfo(restUrl),
    connection.provider
      .request({ method: "eth_chainId" })
      .then((hex) => BigInt(hex as string)),
  ]);
  const facts = {
    chainId,
    evmChainId,
    bridgeId: bridge.bridgeId,
    version: abci.version,
  };
  await runRegistryEntry(
    args.registry,
    input,
    facts,
    args.force,
    consoleOutput,
  );
};

export default action;
