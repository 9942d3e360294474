import type { NewTaskActionFunction } from "hardhat/types/tasks";

import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import type { RequiredOption } from "./options.js";

type ActionModule = Record<string, unknown>;

/**
 * A task's action as Hardhat's own plugins give it: imported when the task
 * runs, so `npx hardhat --help` loads none. Before it runs, each of its
 * required options is checked, in this one place: missing or blank, the task
 * is refused naming the option and what it takes; given, its value is
 * trimmed. `exported` picks the action when a module holds more than one.
 */
export function lazyAction(
  load: () => Promise<ActionModule>,
  requiredOptions: RequiredOption[] = [],
  exported = "default",
): () => Promise<{ default: NewTaskActionFunction }> {
  return async () => {
    const action = (await load())[exported] as NewTaskActionFunction;
    return {
      default: async (args, hre): Promise<unknown> => {
        checkRequired(args, requiredOptions);
        return (await action(args, hre)) as unknown;
      },
    };
  };
}

function checkRequired(
  args: Record<string, unknown>,
  requiredOptions: RequiredOption[],
): void {
  for (const { name, what } of requiredOptions) {
    const value = args[name];
    if (typeof value !== "string" || value.trim() === "")
      throw new VipError(ERRORS.CONFIG.OPTION_REQUIRED, {
        option: flagOf(name),
        what,
      });
    args[name] = value.trim();
  }
}

/**
 * An option's name as typed on the command line: `scoresDir` is
 * `--scores-dir`.
 */
function flagOf(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
