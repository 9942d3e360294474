import { task } from "hardhat/config";

import { lazyAction } from "../../cli/lazy-action.js";
import { required, textOption } from "../../cli/options.js";

const template = required(
  "template",
  "the family of the cookbook to start from (docs/policies.md): volume-leverage-tiers, " +
    "points-while-holding, time-weighted-lending, per-second-market-budget, rank-pots, " +
    "budget-share-by-points or nft-mint-trade-booster",
);

const out = required(
  "out",
  "the new policy file to write (never overwritten), e.g. policies/12-my-policy.sql",
);

export default task(
  "scores:new-policy",
  "Start a scoring policy from one of the cookbook's proven examples: a copy with your name and first stage",
)
  .addOption(template.option)
  .addOption(out.option)
  .addOption(
    textOption(
      "name",
      "The policy's @policy name (default: --out's file name without .sql)",
    ),
  )
  .addOption(
    textOption(
      "fromStage",
      "The first stage the policy applies to, its @from-stage (default: 1)",
    ),
  )
  .setAction(lazyAction(() => import("./action.js"), [template, out]))
  .build();
