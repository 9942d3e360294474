import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { writeNewPolicy } from "./run.js";
import { consoleOutput } from "../../output.js";

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
