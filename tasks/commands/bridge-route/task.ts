import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import { required } from "../../cli/options.js";

const fromChain = required(
  "fromChain",
  "the source chain id (an EVM chain id in decimal, or a Cosmos chain id)",
);

const fromDenom = required(
  "fromDenom",
  "the source denom (e.g. uinit, or an ERC-20 address on an EVM chain)",
);

const toChain = required("toChain", "the destination chain id");

const toDenom = required("toDenom", "the destination denom");

const amount = required("amount", "the amount in base units");

export default task(
  "bridge:route",
  "Ask the routing API for a route and print it: amounts, hops, transactions, duration, fees, warnings, op hook",
)
  .addOption(fromChain.option)
  .addOption(fromDenom.option)
  .addOption(toChain.option)
  .addOption(toDenom.option)
  .addOption(amount.option)
  .addFlag({
    name: "json",
    description: "Print the checked response as JSON",
  })
  .addFlag({
    name: "opWithdraw",
    description:
      "From a rollup: ask for the OPinit withdrawal (is_op_withdraw), as Initia's wallet does, instead of a faster bridge",
  })
  .setAction(
    lazyAction(
      () => import("./action.js"),
      [fromChain, fromDenom, toChain, toDenom, amount],
    ),
  )
  .build();
