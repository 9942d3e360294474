import {
  conditionalUnionType,
  configurationVariableSchema,
  validateUserConfigZodType,
} from "@nomicfoundation/hardhat-zod-utils";
import type { HardhatUserConfig } from "hardhat/config";
import type { HardhatUserConfigValidationError } from "hardhat/types/hooks";
import { z } from "zod";

import {
  MAX_POLICY_MEMORY_MB,
  MAX_POLICY_TIMEOUT_SECONDS,
} from "./constants.js";

const urlOrVariable = conditionalUnionType(
  [
    [
      (v) => typeof v === "string",
      z.string().url("must be a URL, such as http://127.0.0.1:26657"),
    ],
    [(v) => typeof v === "object" && v !== null, configurationVariableSchema],
  ],
  'must be a URL or configVariable("NAME")',
);

const moveAddressOrVariable = conditionalUnionType(
  [
    [
      (v) => typeof v === "string",
      z
        .string()
        .regex(
          /^0x[0-9a-fA-F]{1,64}$/,
          "must be 0x followed by 1 to 64 hex digits",
        ),
    ],
    [(v) => typeof v === "object" && v !== null, configurationVariableSchema],
  ],
  'must be a Move address or configVariable("NAME")',
);

const secretOrVariable = conditionalUnionType(
  [
    [(v) => typeof v === "string", z.string().min(1, "must not be empty")],
    [(v) => typeof v === "object" && v !== null, configurationVariableSchema],
  ],
  'must be a string or configVariable("NAME")',
);

const vipNetworkSchema = z
  .object({
    rollupRpcUrl: urlOrVariable.optional(),
    l1RestUrl: urlOrVariable.optional(),
    vipModuleAddress: moveAddressOrVariable.optional(),
    rollupRestUrl: urlOrVariable.optional(),
    routerUrl: urlOrVariable.optional(),
    routerApiKey: secretOrVariable.optional(),
    alertWebhook: urlOrVariable.optional(),
    policyTimeout: z
      .number()
      .int("must be a whole number of seconds")
      .min(1, "must be at least 1 second")
      .max(MAX_POLICY_TIMEOUT_SECONDS, "must be at most a day (86400 seconds)")
      .optional(),
    policyMemory: z
      .number()
      .int("must be a whole number of MB")
      .min(64, "must be at least 64 MB")
      .max(MAX_POLICY_MEMORY_MB, "must be at most 1048576 MB")
      .optional(),
  })
  .strict()
  .optional();

/**
 * Checks each network's `vip` block when the config is loaded; errors name the
 * network and the field.
 */
export function validateVipUserConfig(
  userConfig: HardhatUserConfig,
): HardhatUserConfigValidationError[] {
  const errors: HardhatUserConfigValidationError[] = [];
  for (const [name, network] of Object.entries(userConfig.networks ?? {})) {
    for (const error of validateUserConfigZodType(
      network.vip,
      vipNetworkSchema,
    )) {
      errors.push({
        path: ["networks", name, "vip", ...error.path],
        message: error.message,
      });
    }
  }
  return errors;
}
