import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  required,
  requiredAmount,
  requiredToChain,
  requiredToDenom,
} from "../../cli/options.js";

const fromChain = required(
  "fromChain",
  "the source chain id (an EVM chain id in decimal, or a Cosmos chain id)",
);

const fromDenom = required(
  "fromDenom",
  "the source denom (e.g. uinit, or an ERC-20 address on an EVM chain)",
);

export default task(
  "bridge:route",
  "Ask the routing API for a route and print it: amounts, hops, transactions, duration, fees, warnings, op hook",
)
  .addOption(fromChain.option)
  .addOption(fromDenom.option)
  .addOption(requiredToChain.option)
  .addOption(requiredToDenom.option)
  .addOption(requiredAmount.option)
  .addFlag({
    name: "json",
    description: "Print the checked response as JSON",
  })
  .addFlag({
    name: "opWithdraw",
    description:
      "From a rollup: ask for the OPinit withdrawal (is_op_withdraw), " +
      "as Initia's wallet does, instead of a faster bridge",
  })
  .setAction(
    lazyAction(
      () => import("./action.js"),
      [fromChain, fromDenom, requiredToChain, requiredToDenom, requiredAmount],
    ),
  )
  .build();
