import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { consoleOutput } from "../../output.js";
import { writeNewPolicy } from "../../policy/new-policy.js";

interface ScoresNewPolicyArgs {
  template: string;
  out: string;
  name?: string;
  fromStage?: string;
}

const action: NewTaskActionFunction<ScoresNewPolicyArgs> = async (args) => {
  await writeNewPolicy(args, consoleOutput);
};

export default action;
