// ESLint flat config, modelled on the shared config of Hardhat's own packages: typescript-eslint with
// type information, eslint-plugin-import for what a user's project will really have installed, and
// Prettier (run separately by `npm run lint`) for layout. Each rule below is here because it catches
// a real defect; the README ("Code style") says which and why.
import { readdirSync } from "node:fs";
import path from "node:path";

import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import { config, configs } from "typescript-eslint";

// Code that runs in a user's project: it may import only dependencies and peers.
const packageCode = ["tasks/**/*.ts", "ignition/modules/**/*.ts"];
// Code that runs only here: tests, benchmarks, the project's own config.
const projectCode = [
  "test/**/*.ts",
  "scripts/**/*.ts",
  "hardhat.config.ts",
  "eslint.config.js",
];

// The command folders (tasks/commands/<task>/), each closed to every other file.
const commandFolders = readdirSync(
  path.join(import.meta.dirname, "tasks", "commands"),
  { withFileTypes: true },
)
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const commandFolderMessage =
  "shared logic belongs in a concern folder under tasks/, not in a command's folder";

// Private members are ECMAScript's `#` fields, as in Hardhat's own packages: TypeScript's `private` is
// a compile-time promise that bracket access and plain JavaScript ignore. A private constructor (a
// class made only by its static factory) has no `#` form and stays.
const noTypeScriptPrivate = {
  selector:
    ":matches(PropertyDefinition, MethodDefinition[kind!='constructor'], TSParameterProperty)" +
    "[accessibility='private']",
  message: "use a # field or method instead of TypeScript's private",
};

export default config(
  {
    ignores: [
      "node_modules/",
      "artifacts/",
      "cache/",
      "types/",
      "dist/",
      "coverage/",
      "ignition/deployments/",
      // What `npx hardhat rehearse` (and its test) writes into the project; ignored by git too.
      "vip-rehearsal/",
    ],
  },
  js.configs.recommended,
  ...configs.recommendedTypeChecked,
  importPlugin.flatConfigs.recommended,
  importPlugin.flatConfigs.typescript,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            "eslint.config.js",
            "scripts/bench/report-rss.mjs",
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    settings: {
      "import/resolver": { typescript: true, node: true },
    },
    rules: {
      // A `!` is a promise the compiler cannot check; a wrong one is a crash far from its cause.
      "@typescript-eslint/no-non-null-assertion": "error",
      // Type-only imports vanish at build time: the run-time import graph is then what it looks like.
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-import-type-side-effects": "error",
      // `node:fs`, never `fs`: a package of the same name can never stand in for a built-in.
      "import/enforce-node-protocol-usage": ["error", "always"],
      // Dead code is misleading code.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      // A promise nobody awaits loses its error: a failed send or write would pass silently.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // A switch over a union that misses a member falls through silently.
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true },
      ],
      // A command folder holds its task's declaration and its action, which turns the task's arguments
      // into a call of a subsystem: the work lives in a folder per concern, so that the autopilot, the
      // rehearsal, a benchmark or a second task never depend on a command's internals. Nothing outside
      // a command's folder imports from tasks/commands/ (another command's folder included), except
      // the plugin object (tasks/index.ts), which assembles each folder's task.ts.
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: [
                "./tasks/!(commands)/**/*",
                "./scripts/**/*",
                "./ignition/**/*",
              ],
              from: "./tasks/commands",
              message: commandFolderMessage,
            },
            {
              target: "./tasks/*",
              from: "./tasks/commands/**/*",
              except: ["**/tasks/commands/*/task.ts"],
              message:
                "the plugin object imports a command's task.ts only; its work belongs in a concern folder",
            },
            ...commandFolders.map((name) => ({
              target: `./tasks/commands/${name}/**/*`,
              from: "./tasks/commands",
              except: [`./${name}`],
              message: commandFolderMessage,
            })),
          ],
        },
      ],
      "import/no-duplicates": "error",
      // One order everywhere, as Hardhat's packages keep it: Node's built-ins, then packages, then this
      // project's files, each group alphabetical and set apart by a blank line.
      "import/order": [
        "error",
        {
          groups: [
            "builtin",
            "external",
            ["internal", "parent", "sibling", "index"],
          ],
          "newlines-between": "always",
          alphabetize: { order: "asc", caseInsensitive: true },
        },
      ],
      "import/no-cycle": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
      // A value that is `never` there is printed only by an exhaustiveness error; printing it is the point.
      "@typescript-eslint/restrict-template-expressions": [
        "error",
        { allowNever: true },
      ],
      // Hardhat's hook and artifact-resolver interfaces are async; an implementation with nothing to
      // await is not a defect.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: packageCode,
    rules: {
      // A function longer than a screen or two hides its steps; name them instead. Hardhat's own
      // longest are under 240 lines, nearly all far shorter.
      "max-lines-per-function": ["error", { max: 120 }],
      // An error's shape is checked, never asserted: hardhat-utils' ensureError and
      // ensureNodeErrnoExceptionError, or isVipError for our own (which carry codes).
      "no-restricted-syntax": [
        "error",
        noTypeScriptPrivate,
        {
          selector:
            "TSAsExpression > TSTypeReference.typeAnnotation[typeName.name='Error']",
          message:
            "narrow with ensureError / instanceof instead of casting to Error",
        },
        {
          selector:
            "TSAsExpression > TSTypeReference.typeAnnotation" +
            "[typeName.left.name='NodeJS'][typeName.right.name='ErrnoException']",
          message:
            "narrow with ensureNodeErrnoExceptionError instead of casting",
        },
        {
          selector:
            "NewExpression[callee.name='VipError'] > TemplateLiteral:first-child",
          message:
            "an error the user meets is a descriptor of tasks/error-catalog.ts",
        },
        {
          selector:
            "NewExpression[callee.name='VipError'] > Literal:first-child",
          message:
            "an error the user meets is a descriptor of tasks/error-catalog.ts",
        },
      ],
      // A devDependency is missing in a user's project: the package would fail on its first import.
      "import/no-extraneous-dependencies": [
        "error",
        {
          devDependencies: false,
          peerDependencies: true,
          optionalDependencies: true,
        },
      ],
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      // Tests read JSON answers and files loosely on purpose; a wrong shape fails the assertion that
      // reads it. Package code keeps these rules.
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
    },
  },
  {
    files: projectCode,
    rules: {
      "no-restricted-syntax": ["error", noTypeScriptPrivate],
      "import/no-extraneous-dependencies": [
        "error",
        {
          devDependencies: true,
          peerDependencies: true,
          optionalDependencies: true,
        },
      ],
    },
  },
);
