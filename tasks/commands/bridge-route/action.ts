import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { routeRequestSchema } from "../../clients/router.js";
import { ERRORS } from "../../error-catalog.js";
import { VipError, defined } from "../../errors.js";
import { selectedNetwork } from "../../network/connect.js";
import { consoleOutput } from "../../output.js";
import { describeRoute } from "../../transfer/describe.js";
import { routerFor } from "../../transfer/router.js";

interface BridgeRouteArgs {
  fromChain?: string;
  fromDenom?: string;
  toChain?: string;
  toDenom?: string;
  amount?: string;
  json: boolean;
  opWithdraw: boolean;
}

/**
 * Asks the routing API for a route and prints it as a person reads it (or, with
 * --json, as checked).
 */
const action: NewTaskActionFunction<BridgeRouteArgs> = async (args, hre) => {
  const request = {
    source_asset_chain_id: args.fromChain,
    source_asset_denom: args.fromDenom,
    dest_asset_chain_id: args.toChain,
    dest_asset_denom: args.toDenom,
    amount_in: args.amount,
    ...(args.opWithdraw ? { is_op_withdraw: true } : {}),
  };
  const checked = routeRequestSchema.safeParse(request);
  if (!checked.success) {
    const option: Record<string, string> = {
      source_asset_chain_id: "--from-chain",
      source_asset_denom: "--from-denom",
      dest_asset_chain_id: "--to-chain",
      dest_asset_denom: "--to-denom",
      amount_in: "--amount",
    };
    const issue = defined(
      checked.error.issues[0],
      "a failed parse has at least one issue",
    );
    const name = option[String(issue.path[0])] ?? String(issue.path[0]);
    throw issue.code === "invalid_type"
      ? new VipError(ERRORS.NETWORK.TRANSFER.ROUTE_OPTION_MISSING, {
          option: name,
        })
      : new VipError(ERRORS.NETWORK.TRANSFER.ROUTE_OPTION_INVALID, {
          option: name,
          problem: issue.message,
        });
  }
  const network = selectedNetwork(hre);
  const router = await routerFor(network.name, network.config);
  const route = await router.route(checked.data);
  if (args.json) {
    consoleOutput.line(JSON.stringify(route, null, 2));
    return;
  }
  for (const line of describeRoute(route)) consoleOutput.line(line);
};

export default action;
