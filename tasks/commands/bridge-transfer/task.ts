import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";

import { lazyAction } from "../../cli/lazy-action.js";
import {
  journalDirOption,
  required,
  requiredAmount,
  requiredToChain,
  requiredToDenom,
  textOption,
} from "../../cli/options.js";

const fromChain = required(
  "fromChain",
  "the source chain id: the network's chain (EVM chain id in decimal)",
);

const fromDenom = required(
  "fromDenom",
  "the source denom (an ERC-20 address on an EVM chain)",
);

const to = required(
  "to",
  "the recipient on the destination chain (0x… or init1…)",
);

export default task(
  "bridge:transfer",
  "Move tokens along a route: msgs, approvals, send, track once, follow to the end; journalled and resumable",
)
  .addOption(fromChain.option)
  .addOption(fromDenom.option)
  .addOption(requiredToChain.option)
  .addOption(requiredToDenom.option)
  .addOption(requiredAmount.option)
  .addOption(to.option)
  .addOption({
    name: "slippage",
    description: "Slippage tolerance in percent",
    type: ArgumentType.STRING,
    defaultValue: "1",
  })
  .addFlag({
    name: "yes",
    description: "Sign without asking for confirmation",
  })
  .addFlag({
    name: "new",
    description:
      "Start a new transfer although the same one is journalled as finished",
  })
  .addFlag({
    name: "opWithdraw",
    description:
      "From a rollup: ask for the OPinit withdrawal (is_op_withdraw), " +
      "as Initia's wallet does, instead of a faster bridge",
  })
  .addOption(journalDirOption())
  .addOption(
    textOption(
      "pollInterval",
      "Poll the status every this many seconds (default: paced by the route's estimated duration)",
    ),
  )
  .addOption(
    textOption(
      "timeout",
      "Stop following after this many seconds (the transfer goes on; bridge:status resumes)",
    ),
  )
  .setAction(
    lazyAction(
      () => import("./action.js"),
      [
        fromChain,
        fromDenom,
        requiredToChain,
        requiredToDenom,
        requiredAmount,
        to,
      ],
    ),
  )
  .build();
