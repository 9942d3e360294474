import { json } from "./server.js";
import { defined } from "../errors.js";

export type Balances = Record<string, { denom: string; amount: string }[]>;

/**
 * `GET /cosmos/bank/v1beta1/balances/{address}` of a Cosmos chain, from
 * `balances`; undefined for other paths.
 */
export function answerBankQuery(balances: Balances, url: URL) {
  if (!url.pathname.startsWith("/cosmos/bank/v1beta1/balances/"))
    return undefined;
  const coins =
    balances[
      defined(url.pathname.split("/").pop(), "a split has a last part")
    ] ?? [];
  return json({
    balances: coins,
    pagination: { next_key: null, total: String(coins.length) },
  });
}
