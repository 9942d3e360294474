import { ensureError } from "@nomicfoundation/hardhat-utils/error";

import { fetchBalances } from "../clients/bank.js";
import { gasPrices, type GasPrice, simulateTx } from "../clients/cosmos-tx.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, defined, messageOf } from "../errors.js";
import type { CheckedMsg } from "./amino.js";
import { simulationTxBytes } from "./sign.js";
import type { CosmosFee } from "./types.js";

/**
 * Gas limit over the simulated use: simulation runs the same messages, but
 * state can move before inclusion.
 */
const GAS_MARGIN_PERCENT = 140n;

/** The fee `price` asks for `gas`, rounded up to a whole base unit. */
export function feeFor(price: GasPrice, gas: bigint): bigint {
  const [whole, fraction = ""] = price.amount.split(".");
  const scale = 10n ** BigInt(fraction.length);
  return (
    (gas *
      BigInt(defined(whole, "split always yields a first part") + fraction) +
      scale -
      1n) /
    scale
  );
}

/**
 * The fee for a transaction: its gas simulated on the chain (a message the
 * chain would refuse fails here, with the chain's reason, before anything is
 * signed) with a margin, priced at the chain's gas price in the denom the
 * transaction moves if the chain takes it, else its first; refused when the
 * signer cannot pay it.
 */
export async function estimateFee(
  restUrl: string,
  chainId: string,
  msgs: CheckedMsg[],
  sequence: bigint,
  signer: string,
): Promise<CosmosFee> {
  let used: bigint;
  try {
    used = await simulateTx(restUrl, simulationTxBytes(msgs, sequence));
  } catch (error) {
    ensureError(error);
    throw new VipError(ERRORS.NETWORK.COSMOS_TX.SIMULATION_REFUSED, {
      chainId,
      reason: messageOf(error),
    });
  }
  const gas = (used * GAS_MARGIN_PERCENT) / 100n;
  const prices = (await gasPrices(restUrl)).filter(
    (p) => feeFor(p, 1_000_000n) > 0n,
  );
  if (prices.length === 0) return { amount: [], gas: gas.toString() };
  const moved = movedCoins(msgs);
  const price =
    prices.find((p) => moved.has(p.denom)) ??
    defined(prices[0], "prices is not empty here");
  const fee = feeFor(price, gas);
  const balance =
    (await fetchBalances(restUrl, signer)).find((c) => c.denom === price.denom)
      ?.amount ?? 0n;
  const needed = fee + (moved.get(price.denom) ?? 0n);
  if (balance < needed) {
    throw new VipError(ERRORS.NETWORK.COSMOS_TX.INSUFFICIENT_FUNDS, {
      signer,
      balance,
      denom: price.denom,
      chainId,
      needed,
      fee,
      gas,
      moved: needed > fee ? ` and ${needed - fee} moved` : "",
    });
  }
  return {
    amount: [{ denom: price.denom, amount: fee.toString() }],
    gas: gas.toString(),
  };
}

/** The coins the messages move out of the signer's account, by denom. */
function movedCoins(msgs: CheckedMsg[]): Map<string, bigint> {
  const moved = new Map<string, bigint>();
  for (const msg of msgs) {
    const coins = [msg.full.amount, msg.full.token]
      .flat()
      .filter(
        (c): c is { denom: string; amount: string } =>
          typeof c === "object" && c !== null && "denom" in c,
      );
    for (const coin of coins)
      moved.set(
        coin.denom,
        (moved.get(coin.denom) ?? 0n) + BigInt(coin.amount),
      );
  }
  return moved;
}
