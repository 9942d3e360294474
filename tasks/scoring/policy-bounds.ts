import type { NetworkConfig } from "hardhat/types/config";

import {
  MAX_POLICY_MEMORY_MB,
  MAX_POLICY_TIMEOUT_SECONDS,
} from "../config/constants.js";
import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { safeText } from "../output.js";
import { DEFAULT_POLICY_BOUNDS, type PolicyBounds } from "./sandbox.js";

/** The options that raise or lower a policy's bounds, as a command takes them. */
export interface PolicyBoundOptions {
  policyTimeout?: string;
  policyMemory?: string;
}

/**
 * A policy's bounds: each from its option when given, else from the
 * network's `vip.policyTimeout` / `vip.policyMemory`, else the default.
 */
export function policyBounds(
  options: PolicyBoundOptions,
  network: NetworkConfig,
): PolicyBounds {
  return {
    timeoutSeconds:
      wholeNumber(options.policyTimeout, "--policy-timeout", "seconds", [
        1,
        MAX_POLICY_TIMEOUT_SECONDS,
      ]) ??
      network.vip?.policyTimeout ??
      DEFAULT_POLICY_BOUNDS.timeoutSeconds,
    memoryMb:
      wholeNumber(options.policyMemory, "--policy-memory", "MB", [
        64,
        MAX_POLICY_MEMORY_MB,
      ]) ??
      network.vip?.policyMemory ??
      DEFAULT_POLICY_BOUNDS.memoryMb,
  };
}

function wholeNumber(
  text: string | undefined,
  option: string,
  unit: string,
  [least, most]: [number, number],
): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < least || value > most)
    throw new VipError(ERRORS.SCORING.RUN.BOUND_OPTION_INVALID, {
      option,
      value: safeText(text, 40),
      unit,
      least,
      most,
    });
  return value;
}
