import { ArgumentType } from "hardhat/types/arguments";

/** A text option without a default: undefined when not given. */
export interface TextOption {
  name: string;
  description: string;
  type: ArgumentType.STRING_WITHOUT_DEFAULT;
  defaultValue: undefined;
}

/**
 * An option a task cannot run without, declared once: its `--help` line says
 * "Required", and `lazyAction` refuses the task without it, before the action
 * is even loaded, in the words declared here.
 */
export interface RequiredOption {
  name: string;
  /** What it takes, as `--help` and the refusal say it. */
  what: string;
  option: TextOption;
}

export function textOption(name: string, description: string): TextOption {
  return {
    name,
    description,
    type: ArgumentType.STRING_WITHOUT_DEFAULT,
    defaultValue: undefined,
  };
}

/**
 * A required text option. Hardhat's options all have defaults and its usage
 * line brackets them, so the description says "Required".
 */
export function required(name: string, what: string): RequiredOption {
  return { name, what, option: textOption(name, `Required: ${what}`) };
}

export const contractOption = textOption(
  "contract",
  "The VipScore address (default: the address recorded by `contract:deploy` for this chain)",
);

export const deploymentIdOption = textOption(
  "deploymentId",
  "The Ignition deployment id (default: chain-<chainId>)",
);

export const requiredStage = required(
  "stage",
  "the stage number to operate on, the contract's open stage (npx hardhat stage --network <name> shows it)",
);

export const policyTimeoutOption = textOption(
  "policyTimeout",
  "Seconds the scoring policy may run, both runs together (default: the network's vip.policyTimeout, else 300)",
);

export const policyMemoryOption = textOption(
  "policyMemory",
  "MB of memory the scoring policy's engine may hold before it spills to " +
    "temporary files (default: the network's vip.policyMemory, else 2048)",
);

/** Where the activity index is kept; `when` says when it matters. */
export function dataDirOption(when = ""): TextOption {
  return textOption(
    "dataDir",
    `${when}where the index is kept (default: vip-data/ in the project)`,
  );
}

/** Where journals are kept; `also` names what else is kept there. */
export function journalDirOption(also = ""): TextOption {
  return textOption(
    "journalDir",
    `Where journals${also} are kept (default: vip-journal/ in the project)`,
  );
}

/** Where tokens go and how many: what bridge:route and bridge:transfer both take. */
export const requiredToChain = required("toChain", "the destination chain id");
export const requiredToDenom = required("toDenom", "the destination denom");
export const requiredAmount = required("amount", "the amount in base units");

/**
 * What a scoring command runs over (`scores:compute`, `scores:explain`,
 * `scores:audit`): a stage, or a trial window; exactly one of the two.
 */
export const scoringStageOption = textOption(
  "stage",
  "The stage to score: any stage the base chain's program has started (its window " +
    "is read from the base chain; `npx hardhat stage` shows the open one). Or give --window",
);

export const windowOption = textOption(
  "window",
  "A trial window instead of a stage: <start>,<end> (ISO 8601, UTC unless it says " +
    "otherwise, or unix seconds), or last-14d / last-6h (whole UTC days or hours before " +
    "the current one); the base chain is not asked, and the file is never pushed",
);

export const stageNumberOption = textOption(
  "stageNumber",
  "With --window: the value of the stage table's `stage` column, and the policy in force " +
    "for that stage (default: null, and the policy with the highest @from-stage)",
);

/** The policy a stage is scored under (`scores:compute`, `scores:explain`). */
export const requiredStagePolicy = required(
  "policy",
  "a policy file (.sql) or a folder of them (stage N uses the highest @from-stage <= N)",
);
