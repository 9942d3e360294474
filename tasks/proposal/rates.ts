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
    throw new VipError(
      `${option} is required: a decimal between 0 and 1, e.g. 0.1 for 10%`,
    );
  const text = raw.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) {
    throw new VipError(
      `${option} ${raw} is not a decimal (write it as 0.05, not 5%, 5e-2 or .05)`,
    );
  }
  const fraction = match[2] ?? "";
  if (fraction.length > DECIMALS)
    throw new VipError(
      `${option} ${raw} has more than ${DECIMALS} decimal places`,
    );
  const scaled =
    BigInt(defined(match[1], "match[1]")) * SCALE +
    BigInt(fraction.padEnd(DECIMALS, "0") || "0");
  if (scaled > SCALE)
    throw new VipError(
      `${option} ${raw} is above 1 (100%): the VIP module refuses any rate above 1`,
    );
  return { text, scaled };
}

/**
 * The three rates, with the one rule between them that `vip::register`
 * enforces.
 */
export function checkRates(max: Rate, maxChange: Rate, rate: Rate): void {
  if (rate.scaled > max.scaled) {
    throw new VipError(
      `--commission-rate ${rate.text} is above --commission-max-rate ${max.text}: the VIP module refuses it`,
    );
  }
  if (maxChange.scaled > max.scaled) {
    throw new VipError(
      `--commission-max-change-rate ${maxChange.text} is above --commission-max-rate ${max.text}`,
    );
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
