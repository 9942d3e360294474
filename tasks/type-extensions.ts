import "hardhat/types/config";
import type {
  ConfigurationVariable,
  ResolvedConfigurationVariable,
} from "hardhat/types/config";

/** What the plugin adds to a network's config, under `vip`. */
export interface VipNetworkUserConfig {
  /**
   * The rollup's CometBFT RPC endpoint (abci_info, status), e.g.
   * `configVariable("ROLLUP_RPC_URL")`.
   */
  rollupRpcUrl?: string | ConfigurationVariable;
  /** The base chain's REST endpoint, e.g. `configVariable("L1_REST_URL")`. */
  l1RestUrl?: string | ConfigurationVariable;
  /** The VIP module's address on the base chain; defaults to mainnet's. */
  vipModuleAddress?: string | ConfigurationVariable;
  /**
   * The rollup's Cosmos REST endpoint (bridge info, balances, accounts), e.g.
   * `configVariable("ROLLUP_REST_URL")`.
   */
  rollupRestUrl?: string | ConfigurationVariable;
  /** The routing API's base URL, e.g. `configVariable("ROUTER_URL")`. */
  routerUrl?: string | ConfigurationVariable;
  /**
   * The routing API's key, sent as the `authorization` header; optional, never
   * printed.
   */
  routerApiKey?: string | ConfigurationVariable;
  /**
   * Where `stage:autopilot` posts its alerts, e.g.
   * `configVariable("VIP_ALERT_WEBHOOK")`: a URL whose path often holds a
   * token, so the keystore is the place for it. Optional.
   */
  alertWebhook?: string | ConfigurationVariable;
  /**
   * Seconds a scoring policy may run (scores:compute, scores:audit,
   * stage:autopilot); 300 unless set. `--policy-timeout` overrides it.
   */
  policyTimeout?: number;
  /**
   * Memory the policy's engine may hold, in MB; 2048 unless set.
   * `--policy-memory` overrides it.
   */
  policyMemory?: number;
}

export interface VipNetworkConfig {
  /**
   * Whether the user's config gave this network a `vip` block: only those
   * networks are the plugin's to touch.
   */
  configured: boolean;
  rollupRpcUrl?: ResolvedConfigurationVariable;
  l1RestUrl?: ResolvedConfigurationVariable;
  vipModuleAddress: ResolvedConfigurationVariable;
  rollupRestUrl?: ResolvedConfigurationVariable;
  routerUrl?: ResolvedConfigurationVariable;
  routerApiKey?: ResolvedConfigurationVariable;
  alertWebhook?: ResolvedConfigurationVariable;
  policyTimeout: number;
  policyMemory: number;
}

declare module "hardhat/types/config" {
  interface HttpNetworkUserConfig {
    vip?: VipNetworkUserConfig;
  }
  interface EdrNetworkUserConfig {
    vip?: VipNetworkUserConfig;
  }
  interface HttpNetworkConfig {
    vip: VipNetworkConfig;
  }
  interface EdrNetworkConfig {
    vip: VipNetworkConfig;
  }
}
