import type { NewTaskActionFunction } from "hardhat/types/tasks";

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
        await checkRequired(args, requiredOptions);
        return (await action(args, hre)) as unknown;
      },
    };
  };
}

async function checkRequired(
  args: Record<string, unknown>,
  requiredOptions: RequiredOption[],
): Promise<void> {
  for (const { name, what } of requiredOptions) {
    const value = args[name];
    if (typeof value !== "string" || value.trim() === "")
      throw await optionRequired(flagOf(name), what);
    args[name] = value.trim();
  }
}

/**
 * The refusal of a missing option. The error catalog is imported here, when
 * an error is made, as the actions import it: every `task.ts` imports this
 * file, and `npx hardhat --help` should not evaluate the whole catalog.
 */
async function optionRequired(option: string, what: string): Promise<Error> {
  const [{ ERRORS }, { VipError }] = await Promise.all([
    import("../error-catalog.js"),
    import("../errors.js"),
  ]);
  return new VipError(ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED, { option, what });
}

/**
 * An option's name as typed on the command line: `scoresDir` is
 * `--scores-dir`.
 */
function flagOf(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
