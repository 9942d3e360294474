import type { ConfigHooks } from "hardhat/types/hooks";

import { resolveVipUserConfig } from "../config/resolve.js";
import { validateVipUserConfig } from "../config/validate.js";

export default async (): Promise<Partial<ConfigHooks>> => ({
  validateUserConfig: async (userConfig) => validateVipUserConfig(userConfig),
  resolveUserConfig: async (userConfig, resolve, next) =>
    resolveVipUserConfig(userConfig, await next(userConfig, resolve), resolve),
});
