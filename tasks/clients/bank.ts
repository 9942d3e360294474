import { z } from "zod";

import { describeEndpoint, expectShape, requestJson } from "./http.js";

const balancesAnswer = z.object({
  balances: z.array(
    z.object({ denom: z.string(), amount: z.string().regex(/^\d+$/) }),
  ),
});

/**
 * An account's coins on any Cosmos chain's REST API (`GET
 * /cosmos/bank/v1beta1/balances/{address}`).
 */
export async function fetchBalances(
  restUrl: string,
  bech32: string,
): Promise<{ denom: string; amount: bigint }[]> {
  const path = `/cosmos/bank/v1beta1/balances/${bech32}`;
  const answer = await requestJson(restUrl, path, { method: "GET" });
  return expectShape(
    balancesAnswer,
    answer,
    `balances at ${describeEndpoint(restUrl, "/cosmos/bank/v1beta1/balances")}`,
  ).balances.map((coin) => ({
    denom: coin.denom,
    amount: BigInt(coin.amount),
  }));
}
