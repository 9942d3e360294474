import path from "node:path";

import { HardhatError } from "@nomicfoundation/hardhat-errors";
import type {
  NetworkConfig,
  ResolvedConfigurationVariable,
} from "hardhat/types/config";

import { ERRORS } from "../error-catalog.js";
import { isVipError, VipError } from "../errors.js";

type VipSetting = "rollupRpcUrl" | "l1RestUrl" | "rollupRestUrl" | "routerUrl";

const HOW_TO_SET: Record<
  VipSetting,
  { variable: string; what: string; example: string }
> = {
  rollupRpcUrl: {
    variable: "ROLLUP_RPC_URL",
    what: "the rollup's CometBFT RPC",
    example: "http://localhost:26657",
  },
  l1RestUrl: {
    variable: "L1_REST_URL",
    what: "the base chain's REST API",
    example: "https://rest.initia.xyz",
  },
  rollupRestUrl: {
    variable: "ROLLUP_REST_URL",
    what: "the rollup's Cosmos REST API",
    example: "http://localhost:1317",
  },
  routerUrl: {
    variable: "ROUTER_URL",
    what: "the routing API",
    example: "https://router-api.initia.xyz",
  },
};

/**
 * The URL a network's `vip.<setting>` resolves to; a missing or malformed value
 * says what to set.
 */
export async function vipUrl(
  networkName: string,
  network: NetworkConfig,
  setting: VipSetting,
): Promise<string> {
  const how = HOW_TO_SET[setting];
  const advice =
    `set ${how.variable} to ${how.what} (e.g. ${how.example}) in the ` +
    `environment or with \`npx hardhat keystore set ${how.variable}\`, or set ` +
    `networks.${networkName}.vip.${setting} in hardhat.config.ts`;
  const value = network.vip?.[setting];
  if (value === undefined) {
    throw new VipError(ERRORS.CONFIG.SETTINGS.NETWORK_SETTING_MISSING, {
      network: networkName,
      setting,
      advice,
    });
  }
  const what = `vip.${setting} of network "${networkName}"`;
  const url = await readVariable(value, what, advice, true);
  // `new URL` accepts "localhost:26657" (scheme "localhost:"); only http and
  // https reach a node.
  if (!/^https?:$/.test(new URL(url).protocol)) {
    throw new VipError(ERRORS.CONFIG.SETTINGS.SETTING_NOT_HTTP, {
      what,
      advice,
    });
  }
  return url;
}

/**
 * Like `vipUrl`, but undefined when the network has no such setting or its
 * variable is not set; a value that is set but malformed still fails.
 */
export async function optionalVipUrl(
  networkName: string,
  network: NetworkConfig,
  setting: VipSetting,
): Promise<string | undefined> {
  try {
    return await vipUrl(networkName, network, setting);
  } catch (error) {
    if (
      isVipError(error, ERRORS.CONFIG.SETTINGS.NETWORK_SETTING_MISSING) ||
      isVipError(error, ERRORS.CONFIG.SETTINGS.SETTING_NOT_SET)
    )
      return undefined;
    throw error;
  }
}

/**
 * The VIP module address a network's `vip.vipModuleAddress` resolves to
 * (default: mainnet's).
 */
async function vipModuleAddress(
  networkName: string,
  network: NetworkConfig,
): Promise<string> {
  const advice =
    "set VIP_MODULE_ADDRESS to the VIP module's 0x address on the base chain";
  const address = await readVariable(
    network.vip.vipModuleAddress,
    `vip.vipModuleAddress of network "${networkName}"`,
    advice,
    false,
  );
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(address)) {
    throw new VipError(ERRORS.CONFIG.SETTINGS.MODULE_ADDRESS_INVALID, {
      network: networkName,
      advice,
    });
  }
  return address;
}

/**
 * Where a network reaches the VIP program: the base chain's REST API and the
 * VIP module's address.
 */
export interface BaseChain {
  restUrl: string;
  moduleAddress: string;
}

/**
 * The base chain a network's `vip` block names, each part checked as `vipUrl`
 * and `vipModuleAddress` check it.
 */
export async function baseChain(
  networkName: string,
  network: NetworkConfig,
): Promise<BaseChain> {
  return {
    restUrl: await vipUrl(networkName, network, "l1RestUrl"),
    moduleAddress: await vipModuleAddress(networkName, network),
  };
}

/**
 * The folders the tasks keep their files in, in the project unless an option
 * names another.
 */
const FOLDERS = {
  data: "vip-data",
  journal: "vip-journal",
  report: "vip-report",
} as const;

/**
 * A task's folder: `given` (its option) when there is one, else `vip-data/`
 * (the activity index), `vip-journal/` (journals, the autopilot's lock and
 * status) or `vip-report/` (the rehearsal's report) in the project `root`.
 */
export function taskFolder(
  root: string,
  kind: keyof typeof FOLDERS,
  given?: string,
): string {
  return given ?? path.join(root, FOLDERS[kind]);
}

async function readVariable(
  variable: ResolvedConfigurationVariable,
  what: string,
  advice: string,
  isUrl: boolean,
): Promise<string> {
  try {
    return isUrl ? await variable.getUrl() : await variable.get();
  } catch (error) {
    // Hardhat's ENV_VAR_NOT_FOUND is a variable set nowhere; anything else is
    // a value that failed its check.
    const descriptor = HardhatError.isHardhatError(
      error,
      HardhatError.ERRORS.CORE.GENERAL.ENV_VAR_NOT_FOUND,
    )
      ? ERRORS.CONFIG.SETTINGS.SETTING_NOT_SET
      : isUrl
        ? ERRORS.CONFIG.SETTINGS.SETTING_NOT_URL
        : ERRORS.CONFIG.SETTINGS.SETTING_INVALID;
    throw new VipError(descriptor, { what, advice }, error);
  }
}

/**
 * The routing API key a network's `vip.routerApiKey` resolves to, or undefined
 * when none is configured or its variable is not set (the API then applies its
 * stricter anonymous rate limit). Never printed.
 */
export async function optionalRouterApiKey(
  networkName: string,
  network: NetworkConfig,
): Promise<string | undefined> {
  return optionalSecret(networkName, network, "routerApiKey", "ROUTER_API_KEY");
}

/**
 * The alert webhook's URL a network's `vip.alertWebhook` resolves to (from the
 * keystore or the environment, as every configuration variable), or undefined
 * when none is configured or its variable is not set. Its path often holds a
 * token: never printed whole.
 */
export async function optionalAlertWebhook(
  networkName: string,
  network: NetworkConfig,
): Promise<string | undefined> {
  return optionalSecret(
    networkName,
    network,
    "alertWebhook",
    "VIP_ALERT_WEBHOOK",
  );
}

async function optionalSecret(
  networkName: string,
  network: NetworkConfig,
  setting: "routerApiKey" | "alertWebhook",
  variableName: string,
): Promise<string | undefined> {
  const variable = network.vip?.[setting];
  if (variable === undefined) return undefined;
  const advice =
    `set ${variableName} with \`npx hardhat keystore set ${variableName}\`, ` +
    "or leave it unset";
  try {
    const value = (
      await readVariable(
        variable,
        `vip.${setting} of network "${networkName}"`,
        advice,
        false,
      )
    ).trim();
    return value === "" ? undefined : value;
  } catch (error) {
    if (isVipError(error, ERRORS.CONFIG.SETTINGS.SETTING_NOT_SET))
      return undefined;
    throw error;
  }
}
