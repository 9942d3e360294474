// Writes docs/tasks/<task>.md for every task the plugin declares, and
// docs/tasks/README.md listing them, from the task definitions themselves
// (tasks/commands/<name>/task.ts, assembled by tasks/index.ts); `--check`
// exits non-zero when a page is not what the definitions make.
// Run as `npm run docs:tasks`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { camelToKebabCase } from "@nomicfoundation/hardhat-utils/string";
import {
  ArgumentType,
  type OptionDefinition,
  type PositionalArgumentDefinition,
} from "hardhat/types/arguments";
import {
  TaskDefinitionType,
  type NewTaskDefinition,
} from "hardhat/types/tasks";

import {
  DOCS_DIR,
  type GeneratedPage,
  isMainModule,
  writeOrCheck,
} from "./generated-docs.js";
import vipScorePlugin from "../tasks/index.js";

export const TASKS_DOCS_DIR = path.join(DOCS_DIR, "tasks");

const COMMANDS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "tasks",
  "commands",
);

/** Where each task is explained in prose, beside its reference page. */
const GUIDES: Record<string, string> = {
  version: "[Onboarding](../onboarding.md#version-and-chain-id)",
  "chain-id": "[Onboarding](../onboarding.md#version-and-chain-id)",
  accounts: "[Onboarding](../onboarding.md)",
  "contract:deploy": "[Onboarding](../onboarding.md#contractdeploy)",
  "allowlist:add":
    "[Onboarding](../onboarding.md#allowlistadd-and-allowlistremove)",
  "allowlist:remove":
    "[Onboarding](../onboarding.md#allowlistadd-and-allowlistremove)",
  "registry:entry": "[Onboarding](../onboarding.md)",
  "registry:check": "[Onboarding](../onboarding.md)",
  "proposal:whitelist": "[Onboarding](../onboarding.md)",
  stage: "[Operating a stage](../operating-a-stage.md#stage)",
  "scores:update": "[Operating a stage](../operating-a-stage.md#scoresupdate)",
  "scores:verify": "[Operating a stage](../operating-a-stage.md#scoresverify)",
  "stage:finalize":
    "[Operating a stage](../operating-a-stage.md#stagefinalize)",
  "stage:autopilot": "[The stage autopilot in production](../autopilot.md)",
  "stage:correct":
    "[When a finalized stage is wrong](../correcting-a-stage.md)",
  "scores:new-policy":
    "[Scoring policies](../scoring-policies.md#starting-and-checking-a-policy-scoresnew-policy-and-scorescheck)",
  "scores:check":
    "[Scoring policies](../scoring-policies.md#starting-and-checking-a-policy-scoresnew-policy-and-scorescheck)",
  "scores:index": "[Computing scores](../computing-scores.md#scoresindex)",
  "scores:compute": "[Computing scores](../computing-scores.md#scorescompute)",
  "scores:audit": "[Computing scores](../computing-scores.md#scoresaudit)",
  "scores:compare":
    "[Scoring policies](../scoring-policies.md#preview-a-change-scorescompare)",
  "scores:explain":
    "[Explain and report](../explain-and-report.md#scoresexplain-one-addresss-score-and-where-it-came-from)",
  "scores:report":
    "[Explain and report](../explain-and-report.md#scoresreport-a-static-site-of-the-stages-for-the-challenge-period)",
  "bridge:route": "[Moving tokens](../moving-tokens.md)",
  "bridge:transfer": "[Moving tokens](../moving-tokens.md)",
  "bridge:status": "[Moving tokens](../moving-tokens.md)",
  rehearse: "[Getting started](../getting-started.md#the-rehearsal)",
};

/** The tasks the plugin declares, in its order. */
export function pluginTasks(): NewTaskDefinition[] {
  return (vipScorePlugin.tasks ?? []).filter(
    (task): task is NewTaskDefinition =>
      task.type === TaskDefinitionType.NEW_TASK,
  );
}

/** A task's name as typed: `scores:update`. */
function taskName(task: NewTaskDefinition): string {
  return task.id.join(" ");
}

/** Its page's file name: `scores-update.md`. */
export function taskPageName(task: NewTaskDefinition): string {
  return `${task.id.join("-").replace(/:/g, "-")}.md`;
}

/** The command folder whose task.ts declares the task. */
function declaringFile(name: string): string {
  const folder = readdirSync(COMMANDS_DIR).find((entry) => {
    try {
      return readFileSync(
        path.join(COMMANDS_DIR, entry, "task.ts"),
        "utf8",
      ).includes(`"${name}"`);
    } catch {
      return false;
    }
  });
  if (folder === undefined)
    throw new Error(`no tasks/commands/*/task.ts declares ${name}`);
  return `tasks/commands/${folder}/task.ts`;
}

/** Text outside code spans, with what Markdown would read as markup escaped. */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, index) =>
      index % 2 === 1 ? part : part.replace(/[\\<>*_[\]]/g, "\\$&"),
    )
    .join("");
}

/** Its description, made a sentence. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

const REQUIRED = /^Required: /;

function typeName(type: ArgumentType): string {
  if (type === ArgumentType.STRING_WITHOUT_DEFAULT) return "STRING";
  if (type === ArgumentType.FILE_WITHOUT_DEFAULT) return "FILE";
  return type;
}

function flagOf(name: string): string {
  return `--${camelToKebabCase(name)}`;
}

function formatDefault(value: unknown): string {
  if (typeof value === "bigint") return `${value.toString()}n`;
  return JSON.stringify(value) ?? String(value);
}

/** An option's words on its page: how it is typed, its type and default, what it does. */
function optionLine(option: OptionDefinition): string {
  const flag = `**\`${flagOf(option.name)}\`**`;
  if (option.type === ArgumentType.FLAG)
    return `- ${flag} flag (off unless given). ${prose(sentence(option.description))}`;
  const type = `\`${typeName(option.type)}\``;
  if (REQUIRED.test(option.description)) {
    const what = option.description.replace(REQUIRED, "");
    return `- ${flag} ${type}, required. ${prose(sentence(capitalized(what)))}`;
  }
  const fallback =
    option.defaultValue === undefined
      ? "optional"
      : `default \`${formatDefault(option.defaultValue)}\``;
  return `- ${flag} ${type}, ${fallback}. ${prose(sentence(option.description))}`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function argumentLine(argument: PositionalArgumentDefinition): string {
  const kind = argument.isVariadic ? "one or more" : "one";
  const fallback =
    argument.defaultValue === undefined
      ? "required"
      : `default \`${formatDefault(argument.defaultValue)}\``;
  return `- **\`<${argument.name}>\`** \`${typeName(argument.type)}\`, ${kind}, ${fallback}. ${prose(sentence(argument.description))}`;
}

/** The options `--help` shows (none is hidden today), in declared order. */
function shownOptions(task: NewTaskDefinition): OptionDefinition[] {
  return Object.values(task.options).filter((option) => option.hidden !== true);
}

/** The command line: required options bare, the others in brackets, as declared. */
export function usageLine(task: NewTaskDefinition): string {
  const options = shownOptions(task).map((option) => {
    if (option.type === ArgumentType.FLAG) return `[${flagOf(option.name)}]`;
    const typed = `${flagOf(option.name)} <${typeName(option.type)}>`;
    return REQUIRED.test(option.description) ? typed : `[${typed}]`;
  });
  const argumentsOf = task.positionalArguments.map((argument) => {
    const name = `<${argument.name}>${argument.isVariadic ? "..." : ""}`;
    return argument.defaultValue === undefined ? name : `[${name}]`;
  });
  return ["npx hardhat", taskName(task), ...options, ...argumentsOf].join(" ");
}

/** docs/tasks/<task>.md; `source` is the file that declares the task. */
export function renderTaskPage(
  task: NewTaskDefinition,
  source = declaringFile(taskName(task)),
): string {
  const name = taskName(task);
  const options = shownOptions(task);
  const guide = GUIDES[name];
  return [
    `# \`${name}\``,
    "",
    prose(sentence(task.description)),
    "",
    "```sh",
    usageLine(task),
    "```",
    "",
    "Hardhat's global options (`--network <name>` among them) go before or after the task's name.",
    "",
    "## Options",
    "",
    ...(options.length === 0 ? ["None."] : options.map(optionLine)),
    "",
    ...(task.positionalArguments.length === 0
      ? []
      : [
          "## Arguments",
          "",
          ...task.positionalArguments.map(argumentLine),
          "",
        ]),
    "## See also",
    "",
    ...(guide === undefined ? [] : [`- How it is used: ${guide}`]),
    `- Declared in \`${source}\`; \`npx hardhat ${name} --help\` prints the same options.`,
    "- [Every task](README.md); [every error code](../errors.md).",
    "",
    `<!-- Generated from the task's definition by \`npm run docs:tasks\`; a test fails when it is out of date. -->`,
    "",
  ].join("\n");
}

/** docs/tasks/README.md: every task, linked to its page. */
export function renderTaskIndex(tasks: readonly NewTaskDefinition[]): string {
  return [
    "# Tasks",
    "",
    "One page per task the plugin declares, generated from its `task.ts` by `npm run docs:tasks`;",
    "a test fails when a page is out of date. Each page gives the task's options with their types and",
    "defaults, and a usage line.",
    "",
    ...tasks.map(
      (task) =>
        `- [\`${taskName(task)}\`](${taskPageName(task)}): ${prose(sentence(task.description))}`,
    ),
    "",
  ].join("\n");
}

/** Every page of docs/tasks/ as the task definitions make it. */
export function renderTaskPages(
  tasks: readonly NewTaskDefinition[] = pluginTasks(),
): GeneratedPage[] {
  return [
    ...tasks.map((task) => ({
      file: path.join(TASKS_DOCS_DIR, taskPageName(task)),
      text: renderTaskPage(task),
    })),
    {
      file: path.join(TASKS_DOCS_DIR, "README.md"),
      text: renderTaskIndex(tasks),
    },
  ];
}

if (isMainModule(import.meta.url))
  writeOrCheck(renderTaskPages(), "npm run docs:tasks", TASKS_DOCS_DIR);
