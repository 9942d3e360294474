import { ERRORS } from "../error-catalog.js";
import { VipError, defined } from "../errors.js";

/**
 * Move's BigDecimal carries 18 decimal places: more would be cut, so they are
 * refused.
 */
const DECIMALS = 18;
const SCALE = 10n ** BigInt(DECIMALS);

/**
 * A commission rate as the option gave it and as an integer scaled by 10^18,
 * which is what is encoded.
 */
export interface Rate {
  text: string;
  scaled: bigint;
}

/**
 * A rate as the chain accepts it: a plain decimal in [0, 1] with at most 18
 * places. Errors name the option.
 */
export function parseRate(raw: string | undefined, option: string): Rate {
  if (raw === undefined || raw.trim() === "")
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.RATE_REQUIRED, { option });
  const text = raw.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) {
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.RATE_NOT_DECIMAL, {
      option,
      value: raw,
    });
  }
  const fraction = match[2] ?? "";
  if (fraction.length > DECIMALS)
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.RATE_TOO_PRECISE, {
      option,
      value: raw,
      decimals: DECIMALS,
    });
  const scaled =
    BigInt(defined(match[1], "the pattern always captures the whole part")) *
      SCALE +
    BigInt(fraction.padEnd(DECIMALS, "0") || "0");
  if (scaled > SCALE)
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.RATE_ABOVE_ONE, {
      option,
      value: raw,
    });
  return { text, scaled };
}

/**
 * The three rates, with the one rule between them that `vip::register`
 * enforces.
 */
export function checkRates(max: Rate, maxChange: Rate, rate: Rate): void {
  if (rate.scaled > max.scaled) {
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.RATE_ABOVE_MAX, {
      rate: rate.text,
      max: max.text,
    });
  }
  if (maxChange.scaled > max.scaled) {
    throw new VipError(ERRORS.REGISTRY.PROPOSAL.MAX_CHANGE_ABOVE_MAX, {
      maxChange: maxChange.text,
      max: max.text,
    });
  }
}

/**
 * A scaled rate back as a decimal, for the read-back of what will be voted on.
 */
export function formatScaled(scaled: bigint): string {
  const whole = scaled / SCALE;
  const fraction = (scaled % SCALE)
    .toString()
    .padStart(DECIMALS, "0")
    .replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}
