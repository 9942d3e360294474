import { configVariable } from "hardhat/config";
import type {
  ConfigurationVariableResolver,
  HardhatConfig,
  HardhatUserConfig,
} from "hardhat/types/config";

import {
  DEFAULT_POLICY_MEMORY_MB,
  DEFAULT_POLICY_TIMEOUT_SECONDS,
  MAINNET_VIP_MODULE_ADDRESS,
} from "./constants.js";

/**
 * Adds each network's resolved `vip` settings. Values stay lazy: nothing is
 * read until a task needs it.
 */
export function resolveVipUserConfig(
  userConfig: HardhatUserConfig,
  resolvedConfig: HardhatConfig,
  resolve: ConfigurationVariableResolver,
): HardhatConfig {
  for (const [name, network] of Object.entries(resolvedConfig.networks)) {
    const vip = userConfig.networks?.[name]?.vip;
    network.vip = {
      configured: vip !== undefined,
      rollupRpcUrl:
        vip?.rollupRpcUrl === undefined ? undefined : resolve(vip.rollupRpcUrl),
      l1RestUrl:
        vip?.l1RestUrl === undefined ? undefined : resolve(vip.l1RestUrl),
      rollupRestUrl:
        vip?.rollupRestUrl === undefined
          ? undefined
          : resolve(vip.rollupRestUrl),
      routerUrl:
        vip?.routerUrl === undefined ? undefined : resolve(vip.routerUrl),
      routerApiKey:
        vip?.routerApiKey === undefined ? undefined : resolve(vip.routerApiKey),
      alertWebhook:
        vip?.alertWebhook === undefined ? undefined : resolve(vip.alertWebhook),
      policyTimeout: vip?.policyTimeout ?? DEFAULT_POLICY_TIMEOUT_SECONDS,
      policyMemory: vip?.policyMemory ?? DEFAULT_POLICY_MEMORY_MB,
      vipModuleAddress: resolve(
        vip?.vipModuleAddress ??
          configVariable("VIP_MODULE_ADDRESS", {
            default: MAINNET_VIP_MODULE_ADDRESS,
          }),
      ),
    };
  }
  return resolvedConfig;
}
