import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/**
 * An optional duration in seconds (decimals allowed) as milliseconds; anything
 * else names the option.
 */
export function optionalSeconds(
  value: string | undefined,
  option: string,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || Number(value) <= 0)
    throw new VipError(ERRORS.CONFIG.OPTIONS.SECONDS_INVALID, {
      option,
      value,
    });
  return Number(value) * 1000;
}
