/**
 * Every error a user can meet, by category, as Hardhat's own `ERRORS`
 * (hardhat-errors' descriptors): a stable number, printed as `VIP-E<number>`;
 * the message template, whose `{name}`s the thrower fills; what causes it and
 * what to do, which docs/errors.md lists (generated from this file by
 * `npm run errors:doc`, checked by a test). A number is never reused, never
 * renumbered: operators search for it.
 */
export interface ErrorDescriptor {
  /** Unique, within its category's range (see `ERROR_CATEGORIES`). */
  readonly number: number;
  /** One line, or a few; `{name}` is filled from the error's values. */
  readonly message: string;
  /** What makes this happen, for docs/errors.md. */
  readonly cause: string;
  /** What the user does about it, for docs/errors.md. */
  readonly fix: string;
}

/** Each category's title and range of numbers. */
export const ERROR_CATEGORIES = {
  CONFIG: {
    title: "Configuration and options",
    min: 1000,
    max: 1999,
    sub: {
      SETTINGS: "Network settings",
      OPTIONS: "Task options",
      TOOLS: "Optional packages and the node's CLI",
    },
  },
  CONTRACT: {
    title: "Contract, signer and accounts",
    min: 2000,
    max: 2999,
    sub: {
      ACCOUNTS: "Addresses, keys and accounts",
      DEPLOYMENT: "Deployment: which contract, from which stage",
      CALLS: "Calls and transactions",
      STAGES: "The contract's stages",
      ALLOW_LIST: "The allow list",
      FINALIZE: "Finalization",
    },
  },
  SCORES: {
    title: "Score files and the push",
    min: 3000,
    max: 3999,
    sub: {
      FILE: "Score files",
      PUSH: "The push",
      RESUME: "Resuming a push",
      READ_BACK: "Reading scores back",
    },
  },
  INDEXER: {
    title: "The rollup's log index",
    min: 4000,
    max: 4999,
    sub: {
      LOGS: "Decoding logs",
      NODE: "The node's blocks and receipts",
      INDEX: "The index's files",
      BATCH: "Batched requests",
    },
  },
  SCORING: {
    title: "Policies and stage scoring",
    min: 5000,
    max: 5999,
    sub: {
      POLICY_FILES: "Policy files and their headers",
      ADMISSION: "Admission: what a policy may do",
      RUN: "Running a policy: the index, the bounds and the engine",
      RESULTS: "Scores, manifests, audits and trials",
      NEW_POLICY: "Starting a policy: scores:new-policy",
    },
  },
  AUTOPILOT: {
    title: "Stages and the autopilot",
    min: 6000,
    max: 6999,
    sub: {
      SETUP: "Starting the autopilot",
      PASSES: "A stage's passes: live, final and finalized",
      TWO_HOSTS: "Two hosts",
      CORRECTION: "Correcting a stage",
    },
  },
  NETWORK: {
    title: "Nodes, APIs, the bridge and Cosmos transactions",
    min: 7000,
    max: 7999,
    sub: {
      HTTP: "Nodes and APIs reached over HTTP",
      PROGRAM: "The VIP program on the base chain",
      ROUTER: "The routing API",
      TRANSFER: "Planning and running a transfer",
      EVM_TX: "EVM transactions of a transfer",
      COSMOS_TX: "Cosmos transactions of a transfer",
      ROUTE_MESSAGES: "Messages of a route, checked before they are signed",
      TASK_NETWORK: "The --network a task runs on",
      GOVERNANCE: "The base chain's governance",
    },
  },
  REGISTRY: {
    title: "Registry entry and proposal",
    min: 8000,
    max: 8999,
    sub: {
      ENTRY: "The registry entry",
      PROPOSAL: "The whitelist proposal",
    },
  },
  REHEARSE: {
    title: "Rehearsal and stand-ins",
    min: 9000,
    max: 9999,
    sub: {
      GENERAL: "The rehearsal",
    },
  },
  REPORT: {
    title: "What users and challengers see: explain and report",
    min: 10000,
    max: 10999,
    sub: {
      SITE: "The report's site",
      COMPARE: "Comparing two policies",
    },
  },
} as const;

/** The parts of a template, joined, as one literal type. */
type Joined<Parts extends readonly string[]> = Parts extends readonly [
  infer Head extends string,
  ...infer Tail extends readonly string[],
]
  ? `${Head}${Joined<Tail>}`
  : "";

/**
 * A long template written in parts, one a line. Unlike `"a" + "b"` (typed
 * `string`), the result keeps its literal type, so the `{name}`s it holds
 * stay typed params of the error.
 */
function joined<const Parts extends readonly string[]>(
  ...parts: Parts
): Joined<Parts> {
  return parts.join("") as Joined<Parts>;
}

const RERUN =
  "Run scores:index again; if it recurs at the same block, index from another node of the rollup.";
const DISAGREE =
  "The node answered a transaction's logs and its receipt differently: " +
  "a reorganization between the two reads, " +
  "or a node whose receipts and logs disagree.";

const NOTHING_WRITTEN =
  "Nothing was written: the command stopped before any file.";
const RAISE_TIME =
  "If the policy is right and only slow, raise the bound: --policy-timeout <seconds>, " +
  "or vip.policyTimeout in the network's config.";
const RAISE_MEMORY =
  "If the policy is right and only large, raise the bound: --policy-memory <MB>, " +
  "or vip.policyMemory in the network's config.";

/** A stage's end, as every blocking reason of a due stage starts. */
const ENDED = "stage {stage} ended at {endedAt} on the base chain's clock";

const SET_REST_URL =
  "set L1_REST_URL or ROLLUP_REST_URL to its REST API; nothing was sent";
const RUN_AGAIN_NEW = "Run again with --new to start the transfer anew";

export const ERRORS = {
  CONFIG: {
    SETTINGS: {
      NETWORK_SETTING_MISSING: {
        number: 1001,
        message: 'network "{network}" has no vip.{setting}: {advice}',
        cause:
          "The task needs an endpoint that the network's vip block does not " +
          "configure.",
        fix:
          "Set the variable the message names (in the environment or the keystore), " +
          "or set the field in hardhat.config.ts.",
      },
      SETTING_NOT_SET: {
        number: 1002,
        message: "{what} is not set: {advice}",
        cause:
          "The configuration variable behind a vip setting is set neither in the " +
          "keystore nor in the environment.",
        fix:
          "Set the variable the message names, with `npx hardhat keystore set " +
          "<NAME>` or in the environment.",
      },
      SETTING_NOT_URL: {
        number: 1003,
        message: "{what} is not a valid URL: {advice}",
        cause:
          "The configuration variable behind a vip URL setting holds something that " +
          "is not a URL.",
        fix:
          "Set the variable again to the endpoint's full URL, e.g. " +
          "http://localhost:26657.",
      },
      SETTING_NOT_HTTP: {
        number: 1004,
        message:
          "{what} is not a valid URL (it needs http:// or https://): {advice}",
        cause:
          "A vip URL setting has a scheme other than http or https (e.g. " +
          "`localhost:26657`).",
        fix: "Write the URL with its scheme: http://localhost:26657 or https://….",
      },
      SETTING_INVALID: {
        number: 1005,
        message: "{what} is not valid: {advice}",
        cause:
          "The configuration variable behind a vip setting failed its check when it " +
          "was read.",
        fix: "Set the variable again to a value of the kind the message asks for.",
      },
      MODULE_ADDRESS_INVALID: {
        number: 1006,
        message: joined(
          'vip.vipModuleAddress of network "{network}" is not a Move address (0x + ',
          "1 to 64 hex digits): {advice}",
        ),
        cause:
          "VIP_MODULE_ADDRESS (or vip.vipModuleAddress) is not 0x followed by 1 to " +
          "64 hex digits.",
        fix: "Set VIP_MODULE_ADDRESS to the VIP module's 0x address on the base chain.",
      },
      NETWORK_URL_NOT_SET: {
        number: 1036,
        message: 'network "{network}" needs {variable}, {what}: {advice}',
        cause:
          "The network's url is a configuration variable that is set neither in the " +
          "environment nor in the keystore.",
        fix:
          "Set the variable the message names in the environment or with " +
          "`npx hardhat keystore set <NAME>`.",
      },
      NETWORK_URL_INVALID: {
        number: 1037,
        message:
          'network "{network}"\'s url is not a valid URL (not shown here: it may hold a key)',
        cause:
          "The network's url, or the variable it is read from, is not an http(s) URL: a scheme is missing, say.",
        fix: "Give the full URL, as http://host:8545 or https://host/path.",
      },
    },
    OPTIONS: {
      OPTION_REQUIRED: {
        number: 1010,
        message: "--{option} is required: {what}",
        cause:
          "A task was run without one of its required options, or with a blank " +
          "value.",
        fix: "Run the task again with the option the message names.",
      },
      SECONDS_INVALID: {
        number: 1011,
        message: "{option} {value} is not a number of seconds above 0",
        cause:
          "A duration option was given something other than a positive number of " +
          "seconds.",
        fix: "Give the option a number of seconds above 0, e.g. 30 or 1.5.",
      },
      SCORE_TARGET_MISSING: {
        number: 1033,
        message:
          "{task} needs --stage <n> or --window <start>,<end>: {problem}; nothing was read",
        cause:
          "A scoring command runs over one stage of the program (--stage) or one window of " +
          "your choosing (--window): neither or both were given.",
        fix:
          "Give --stage 12 for a stage, or --window 2026-11-01,2026-11-15 (ISO 8601 UTC or " +
          "unix seconds; last-14d, last-6h) for a trial.",
      },
      WINDOW_INVALID: {
        number: 1034,
        message: "--window {value}: {problem}; nothing was read",
        cause:
          "--window is `<start>,<end>` (each ISO 8601, UTC unless it says otherwise, or unix " +
          "seconds; start before end) or `last-<n>d` / `last-<n>h`.",
        fix:
          "Write it as 2026-11-01T00:00:00Z,2026-11-15T00:00:00Z, as 1793491200,1794700800, " +
          "or as last-14d (the 14 whole UTC days before today).",
      },
      STAGE_NUMBER_WITHOUT_WINDOW: {
        number: 1035,
        message:
          "--stage-number {value} goes with --window only (with --stage, the stage is the number); nothing was read",
        cause:
          "--stage-number sets the `stage` column of a trial window, and picks the policy " +
          "in force for that stage.",
        fix: "Drop --stage-number, or use --window instead of --stage.",
      },
    },
    TOOLS: {
      LEDGER_NOT_INSTALLED: {
        number: 1020,
        message: joined(
          "LEDGER_ACCOUNT is set, but Ledger support is not installed: install ",
          "libusb-1.0-0-dev and libudev-dev (sudo apt-get install libusb-1.0-0-dev ",
          "libudev-dev), then run the install command again",
        ),
        cause:
          "LEDGER_ACCOUNT asks for a Ledger signer, but the optional hardhat-ledger " +
          "could not be loaded.",
        fix:
          "Install libusb-1.0-0-dev and libudev-dev, then install the project's " +
          "dependencies again.",
      },
      NODE_CLI_FAILED: {
        number: 1030,
        message: "`{executable} version` failed: {reason}",
        cause:
          "The node CLI found on PATH could not be run, or failed when asked for " +
          "its version.",
        fix: "Check that the CLI on PATH runs (`minitiad version`), or reinstall it.",
      },
      NODE_CLI_SILENT: {
        number: 1031,
        message: "`{executable} version` failed: it printed nothing",
        cause:
          "The node CLI found on PATH printed nothing when asked for its version.",
        fix: "Check that the program on PATH is minitiad, or reinstall it.",
      },
      NODE_CLI_VERSION_MISMATCH: {
        number: 1032,
        message: joined(
          "{cli} on PATH ({path}) is {local}, but the rollup runs {version}: ",
          "install {cli} {version}",
        ),
        cause:
          "The node CLI on PATH is of another version than the rollup: it can sign " +
          "transactions the chain rejects.",
        fix: "Install the node CLI of the version the rollup runs.",
      },
    },
  },
  CONTRACT: {
    ACCOUNTS: {
      NOT_AN_ADDRESS: {
        number: 2001,
        message:
          "{option} {value} is not an address (0x followed by 40 hex digits)",
        cause: "An option that takes an EVM address was given something else.",
        fix: "Give the 0x address, 40 hex digits (EIP-55 checksummed if mixed case).",
      },
      ADDRESS_BAD_BECH32: {
        number: 2060,
        message: joined(
          '{what}: "{address}" is not a valid init1… address (bad bech32 checksum ',
          "or length)",
        ),
        cause: "An init1… address has a bad checksum or length.",
        fix: "Copy the address again, whole.",
      },
      ADDRESS_NOT_ACCOUNT: {
        number: 2061,
        message: joined(
          '{what}: "{address}" is a {bytes}-byte module or contract address, not a ',
          "20-byte account",
        ),
        cause:
          "An init1… address of 32 bytes (a module or contract) was given where an " +
          "account is needed.",
        fix: "Give the account's 20-byte address.",
      },
      ADDRESS_INVALID: {
        number: 2062,
        message: joined(
          '{what}: "{address}" is neither a 0x… address (40 hex digits, valid ',
          "EIP-55 checksum) nor an init1… address",
        ),
        cause:
          "An address is neither a valid 0x… address nor an init1… address.",
        fix: "Give the address as 0x… (40 hex digits) or init1….",
      },
      INSUFFICIENT_FUNDS: {
        number: 2063,
        message: joined(
          "the signer {signer} cannot pay for {what}: its balance is {balance} ",
          "({balanceWei} wei), the cost is up to {cost} ({costWei} wei). Fund it ",
          "and run the same command again; nothing was sent",
        ),
        cause:
          "The signer's balance is below the transaction's highest possible cost.",
        fix: "Fund the signer on the rollup, then run the same command again.",
      },
      KEY_NOT_HEX: {
        number: 2064,
        message: joined(
          "{variable}: the private key contains {count} {characters} not a hex ",
          "digit ({kinds}); a private key is 64 hex digits, optionally after 0x. ",
          "Set it again without them (`npx hardhat keystore set {variable} ",
          "--force`)",
        ),
        cause:
          "The configured private key holds characters other than hex digits (often " +
          "whitespace).",
        fix:
          "Set the key again without them, with `npx hardhat keystore set <NAME> " +
          "--force`.",
      },
      KEY_LENGTH: {
        number: 2065,
        message: joined(
          "{variable}: the private key has {digits} hex digits; a private key has ",
          "exactly 64 (32 bytes). Set it again (`npx hardhat keystore set ",
          "{variable} --force`)",
        ),
        cause: "The configured private key is not 64 hex digits long.",
        fix:
          "Set the key again, whole, with `npx hardhat keystore set <NAME> " +
          "--force`.",
      },
      KEY_OUT_OF_RANGE: {
        number: 2066,
        message: joined(
          "{variable}: the private key is outside the secp256k1 range (it must be ",
          "at least 1 and below the curve's order n); no account has this key. Set ",
          "the right one",
        ),
        cause:
          "The configured private key is 0 or not below secp256k1's order: no " +
          "account has it.",
        fix: "Set the right key.",
      },
      KEY_NOT_SET: {
        number: 2067,
        message: joined(
          'network "{network}" has no key to sign with: {variable} is not set. Set ',
          "it with `npx hardhat keystore set {variable}` (or in the environment), ",
          "or set LEDGER_ACCOUNT to sign with a Ledger",
        ),
        cause:
          "The network's accounts name a configuration variable that is set " +
          "nowhere.",
        fix:
          "Set the variable in the keystore or the environment, or set " +
          "LEDGER_ACCOUNT.",
      },
      NO_ACCOUNT: {
        number: 2068,
        message: joined(
          'network "{network}" has no account to sign with: set PRIVATE_KEY (in the ',
          "environment or with `npx hardhat keystore set PRIVATE_KEY`), or ",
          "LEDGER_ACCOUNT to sign with a Ledger",
        ),
        cause: "The network has no account configured to sign with.",
        fix: "Set PRIVATE_KEY (environment or keystore), or LEDGER_ACCOUNT.",
      },
      KEYSTORE_REFUSED: {
        number: 2070,
        message: joined(
          "the keystore refused {name} (see its message above): an existing key ",
          "needs --force, and a name must be letters, digits and _",
        ),
        cause:
          "hardhat-keystore's `keystore set` refused the key: it exists, or its " +
          "name is not allowed.",
        fix:
          "Pass --force to replace an existing key, or choose a name of letters, " +
          "digits and _.",
      },
      KEYSTORE_NOT_ASKED: {
        number: 2071,
        message:
          "the keystore did not ask for {name}'s value; nothing was stored",
        cause:
          "hardhat-keystore's `keystore set` finished without asking for the " +
          "secret.",
        fix:
          "Check the keystore's messages above (its password, the key's name), then " +
          "run again.",
      },
      MNEMONIC_WORD_COUNT: {
        number: 2072,
        message: joined(
          "the mnemonic has {count} words; a BIP39 mnemonic has 12, 15, 18, 21 or ",
          "24",
        ),
        cause:
          "The mnemonic given to --recover has a word count no BIP39 mnemonic has.",
        fix: "Give the whole mnemonic, words separated by spaces.",
      },
      MNEMONIC_UNKNOWN_WORDS: {
        number: 2073,
        message: joined(
          "{count} word(s) of the mnemonic are not in the BIP39 English word list ",
          "(they are not shown)",
        ),
        cause:
          "Words of the mnemonic are not in the BIP39 English word list (typos).",
        fix: "Check the spelling of each word against the BIP39 list.",
      },
      MNEMONIC_CHECKSUM: {
        number: 2074,
        message: joined(
          "the mnemonic's checksum does not match: a word is wrong or out of order ",
          "(the words are not shown)",
        ),
        cause:
          "The mnemonic's words are all valid, but its checksum does not match.",
        fix: "Check each word and their order.",
      },
      ACCOUNT_MODES_EXCLUSIVE: {
        number: 2075,
        message:
          "--create, --recover and --ledger exclude each other: pick one",
        cause:
          "The accounts task was given more than one of --create, --recover and " +
          "--ledger.",
        fix: "Run it with one of them.",
      },
      CREATE_NEEDS_TERMINAL: {
        number: 2076,
        message: joined(
          "--create shows the new mnemonic once, on a terminal only; standard ",
          "output is not a terminal. Run it in a terminal",
        ),
        cause:
          "accounts --create was run with its output piped or redirected: the " +
          "mnemonic must not land in a file.",
        fix: "Run it in a terminal.",
      },
    },
    DEPLOYMENT: {
      NO_DEPLOYMENT: {
        number: 2002,
        message: joined(
          "no VipScore deployment found for chain {chainId} ",
          "({dir}/deployed_addresses.json): run `npx hardhat contract:deploy ",
          "--network {network}` first, or pass --contract <address>",
        ),
        cause:
          "No --contract was given and Ignition recorded no VipScore deployment for " +
          "the chain.",
        fix: "Deploy the contract with contract:deploy, or name it with --contract.",
      },
      NO_CODE: {
        number: 2003,
        message: joined(
          'no contract code at {address} (from {source}) on network "{network}" ',
          "(chain {chainId}): was the chain reset, or is this the wrong network?",
        ),
        cause:
          "The address (from --contract or a deployment journal) holds no code on " +
          "the network, e.g. after a chain reset.",
        fix: "Check --network and --contract; deploy again if the chain was reset.",
      },
      NO_PACKAGED_ARTIFACT: {
        number: 2004,
        message: joined(
          "no artifact named {name}: the VipScore module deploys from its packaged ",
          "artifact",
        ),
        cause:
          "Ignition asked for an artifact by name; the plugin deploys only from the " +
          "artifact it ships.",
        fix: "Report it: the Ignition module should never look an artifact up by name.",
      },
      DEPLOYMENT_RECORD_UNREADABLE: {
        number: 2005,
        message: joined(
          "Ignition's record of the deployment, {file}, cannot be read: {reason}. ",
          "Restore it (from a copy, or the deployment's journal.jsonl beside it), or ",
          "name the contract with --contract <address> where the task takes it",
        ),
        cause:
          "deployed_addresses.json is not JSON, or does not hold an address for " +
          "the VipScore deployment (edited by hand, or cut short when a disk filled).",
        fix:
          "Restore the file, or name the contract with --contract; nothing was " +
          "sent.",
      },
      DEPLOY_FAILED: {
        number: 2080,
        message: "the deployment failed: {reason}",
        cause: "Ignition failed to deploy the scoring contract.",
        fix: "Read the reason; run the same command again to resume the deployment.",
      },
      DEPLOY_INCOMPLETE: {
        number: 2081,
        message: "the deployment failed: {problems}",
        cause:
          "Ignition's deployment did not complete: validation, reconciliation or " +
          "execution problems, listed.",
        fix: "Fix the problems listed; run the same command again to resume.",
      },
      START_STAGE_MISMATCH: {
        number: 2082,
        message: joined(
          "the deployment in {journal} was started with start stage {journalled}, ",
          "but {from} is {given}: drop {from} to resume it, or pass --deployment-id ",
          "<new id> to deploy another contract",
        ),
        cause:
          "An interrupted deployment is resumed with another start stage than it " +
          "started with.",
        fix:
          "Drop the start stage to resume, or deploy another contract with " +
          "--deployment-id.",
      },
      START_STAGE_ZERO: {
        number: 2083,
        message: joined(
          "the base chain reports VIP stage 0, which no contract can start at: pass ",
          "--start-stage <N> (or set START_STAGE)",
        ),
        cause:
          "No start stage was given and the base chain's VIP program is at stage 0.",
        fix: "Pass --start-stage <N> or set START_STAGE.",
      },
      START_STAGE_INVALID: {
        number: 2084,
        message: joined(
          '{from} "{value}" is not a stage number (a whole number from 1 to 2^64 - ',
          "1)",
        ),
        cause: "--start-stage or START_STAGE is not a stage number.",
        fix: "Give a whole number from 1 to 2^64 - 1.",
      },
      SUPERSEDED: {
        number: 2085,
        message: joined(
          "{contract} was replaced by {by} from stage {fromStage} (stage:correct, {at}): ",
          "nothing is written to it any more. The tasks use the new contract by default; ",
          "or pass --contract {by}",
        ),
        cause:
          "A correction (stage:correct) replaced this contract; its record in " +
          "ignition/vip-contracts.json says so, and writes to the old contract are refused.",
        fix: "Use the new contract: drop --contract/--deployment-id, or name the new one.",
      },
      CONTRACTS_RECORD_INVALID: {
        number: 2086,
        message: joined(
          "{file} is not a record of this tool's contracts ({reason}): fix it or move it ",
          "aside; nothing was sent",
        ),
        cause:
          "ignition/vip-contracts.json, which stage:correct writes to say which contract is " +
          "current, could not be read as JSON of its shape.",
        fix:
          "Restore it from vip-contracts.json.bak beside it (written before each change). Do not " +
          "delete it: without it the replaced contract is the default again.",
      },
    },
    CALLS: {
      REFUSED_REVERT: {
        number: 2010,
        message:
          "{what} was refused by the node, nothing was sent: {revert}({args})",
        cause:
          "Estimating the transaction failed because the contract reverts with the " +
          "named error.",
        fix:
          "Read the contract error (e.g. StageFinalized) and fix what it names; " +
          "nothing was sent.",
      },
      REFUSED: {
        number: 2011,
        message: "{what} was refused by the node, nothing was sent: {reason}",
        cause:
          "The node refused to estimate the transaction, for a reason other than a " +
          "contract revert.",
        fix:
          "Read the node's reason; check the node and the signer, then run the " +
          "command again.",
      },
      SEND_REVERTED: {
        number: 2012,
        message: "{what} failed when sent: {revert}({args})",
        cause:
          "Sending the transaction failed with the named contract error; it may " +
          "have reached the node.",
        fix:
          "Read the contract error and fix what it names, then run the same command " +
          "again.",
      },
      SEND_FAILED: {
        number: 2013,
        message: "{what} failed when sent: {reason}",
        cause:
          "Sending the transaction failed (the node or the connection); it may have " +
          "reached the node.",
        fix: "Check the node, then run the same command again.",
      },
      TX_REVERTED: {
        number: 2014,
        message: "Tx failed {hash}: {revert}({args})",
        cause:
          "The transaction was mined but reverted with the named contract error.",
        fix:
          "Read the contract error and fix what it names, then run the command " +
          "again.",
      },
      TX_FAILED: {
        number: 2015,
        message: "Tx failed {hash}{why}",
        cause:
          "The transaction's receipt does not report success: it ran out of gas, or " +
          "the contract refused it in its block (the message names the error the " +
          "transaction gives when replayed on the state after its block).",
        fix:
          "Look the transaction up on the rollup's explorer, then run the command " +
          "again.",
      },
      NO_PROVIDER: {
        number: 2030,
        message: "the scoring contract has no provider to read through",
        cause: "The contract object was bound to a runner without a provider.",
        fix: "Report it: tasks bind the contract to the network's provider.",
      },
      SHORT_SCORE_PAGE: {
        number: 2031,
        message:
          "getScores returned {bytes} bytes, too few for its {entries} entries",
        cause:
          "The node answered a getScores call with return data shorter than its own " +
          "length word says.",
        fix:
          "Check the node (and that the address is a VipScore), then run the " +
          "command again.",
      },
    },
    STAGES: {
      STAGE_BEFORE_START: {
        number: 2021,
        message: joined(
          "stage {stage} precedes the contract's start stage {initStage}; the open ",
          "stage is {open}",
        ),
        cause:
          "--stage names a stage before the one the contract was deployed to start " +
          "at.",
        fix: "Check --stage: `npx hardhat stage` shows the open stage.",
      },
      STAGE_FINALIZED: {
        number: 2022,
        message:
          "stage {stage} is already finalized; the contract's open stage is {open}",
        cause: "--stage names a stage the contract has already finalized.",
        fix: "Check --stage: operate on the contract's open stage.",
      },
      STAGE_NOT_OPEN: {
        number: 2023,
        message: joined(
          "stage {stage} is not open yet: the contract's open stage is {open}. ",
          "Check --stage: npx hardhat stage --network {network} shows the ",
          "contract's open stage beside the base chain's",
        ),
        cause: "--stage names a stage after the contract's open stage.",
        fix:
          "Check --stage against `npx hardhat stage`; do not finalize stages to " +
          "reach a mistyped one.",
      },
      STAGE_NOT_NUMBER: {
        number: 2024,
        message:
          "--stage {value} is not a stage number (a positive whole number)",
        cause: "--stage was given something other than a whole number.",
        fix: "Give --stage a whole number, e.g. --stage 15.",
      },
      STAGE_OUT_OF_RANGE: {
        number: 2025,
        message:
          "--stage {value} is out of range: stages run from 1 to 2^64 - 1",
        cause: "--stage is 0 or does not fit a uint64.",
        fix: "Give --stage a stage number from 1 to 2^64 - 1.",
      },
      STAGE_NOT_ENDED: {
        number: 2032,
        message: joined(
          "stage {stage} has not ended on the base chain: it ends at {end}, in ",
          "{left} on the base chain's clock (the program's stage is ",
          "{programStage}). Finalizing cannot be undone and would freeze its scores ",
          "early; nothing was sent. Run the same command after its end (or let ",
          "stage:autopilot do it), or add --force to finalize it now",
        ),
        cause:
          "stage:finalize was run before the stage's end on the base chain's clock.",
        fix:
          "Run it again after the stage's end, let stage:autopilot do it, or add " +
          "--force.",
      },
    },
    ALLOW_LIST: {
      SIGNER_NOT_ALLOWED: {
        number: 2020,
        message: joined(
          "the signer {signer} is not on the allow list of {contract}: an allowed ",
          "account must add it (npx hardhat allowlist:add --address {signer} ",
          "--network {network}, signed with an allowed key)",
        ),
        cause:
          "The contract only takes scores and finalizations from allowed accounts, " +
          "and the signer is not one.",
        fix: "Add the signer with allowlist:add, signed with an allowed key.",
      },
      ZERO_ADDRESS: {
        number: 2040,
        message:
          "--address is the zero address, which the contract refuses to allow",
        cause: "allowlist:add or allowlist:remove was given the zero address.",
        fix: "Give the address of the account to allow or remove.",
      },
      SIGNER_CANNOT_CHANGE_ALLOW_LIST: {
        number: 2041,
        message: joined(
          "the signer {signer} is not on the allow list of {contract}, so it cannot ",
          "change it; nothing was sent. Sign with a key that is (the deployer's is, ",
          "from the start)",
        ),
        cause:
          "Only an allowed account can change the allow list, and the signer is not " +
          "one.",
        fix: "Sign with an allowed key (the deployer's is allowed from the start).",
      },
      LAST_ALLOWED: {
        number: 2042,
        message: joined(
          "{address} is the only address on the allow list of {contract}, which ",
          "must keep one; nothing was sent. Add its successor first: npx hardhat ",
          "allowlist:add --address <0x…> --network {network}",
        ),
        cause:
          "Removing the last allowed address would leave the contract without an " +
          "operator.",
        fix: "Add its successor with allowlist:add first, then remove it.",
      },
      CHANGE_NONCE_PENDING: {
        number: 2043,
        message: joined(
          "nonce {nonce} of {from} is pending at the node but its transaction ",
          "cannot be read: run again once it is mined (journal {journal})",
        ),
        cause:
          "An interrupted allow-list change left a nonce that is pending at the " +
          "node, but its transaction cannot be read.",
        fix:
          "Wait until it is mined, then run the same command again: the change is " +
          "not sent twice.",
      },
      CHANGE_DROPPED: {
        number: 2044,
        message: joined(
          "{what} {hash} was dropped by the node before it was mined: run again to ",
          "send it anew (journal {journal})",
        ),
        cause:
          "The node forgot the allow-list change before it was mined (dropped or " +
          "replaced).",
        fix: "Run the same command again: it checks the allow list and sends the change anew.",
      },
      CHANGE_NOT_MINED: {
        number: 2045,
        message: joined(
          "{what} {hash} was not mined within {seconds} s: run again to resume (it ",
          "is not sent twice; journal {journal})",
        ),
        cause: "The allow-list change stayed unmined past the receipt timeout.",
        fix: "Run the same command again: it waits for the same transaction.",
      },
    },
    FINALIZE: {
      NONCE_PENDING: {
        number: 2050,
        message: joined(
          "nonce {nonce} of {from} is pending at the node but its transaction ",
          "cannot be read: run again once it is mined (journal {journal})",
        ),
        cause:
          "An interrupted finalization left a nonce that is pending at the node, " +
          "but its transaction cannot be read.",
        fix:
          "Wait until it is mined, then run the same command again: it is not sent " +
          "twice.",
      },
      FINALIZE_SEND_REVERTED: {
        number: 2051,
        message: joined(
          "finalizeStage({stage}) failed when sent: {revert}({args}). Run again: ",
          "the journal {journal} finds it if it reached the node",
        ),
        cause: "Sending finalizeStage failed with the named contract error.",
        fix: "Fix what the contract error names, then run the same command again.",
      },
      FINALIZE_SEND_FAILED: {
        number: 2052,
        message: joined(
          "finalizeStage({stage}) failed when sent: {reason}. Run again: the ",
          "journal {journal} finds it if it reached the node",
        ),
        cause:
          "Sending finalizeStage failed (the node or the connection), and it was " +
          "not found at the node.",
        fix:
          "Run the same command again: the journal finds the transaction if it " +
          "reached the node.",
      },
      FINALIZE_DROPPED: {
        number: 2053,
        message: joined(
          "finalizeStage({stage}) {hash} was dropped by the node before it was ",
          "mined: run again to send it anew",
        ),
        cause:
          "The node forgot the finalization before it was mined (dropped or " +
          "replaced).",
        fix: "Run the same command again: it sends the finalization anew.",
      },
      FINALIZE_TX_FAILED: {
        number: 2054,
        message: "Tx failed {hash} (finalizeStage({stage})){why}",
        cause:
          "The finalization was mined, but its receipt does not report success (the " +
          "message names the contract's error when a replay on the state after its " +
          "block gives one, e.g. StageFinalized when another host finalized first).",
        fix:
          "Look the transaction up on the rollup's explorer, then run the command " +
          "again.",
      },
      FINALIZE_NOT_MINED: {
        number: 2055,
        message: joined(
          "finalization {hash} was not mined within {seconds} s: run again to ",
          "resume (it is not sent twice)",
        ),
        cause: "The finalization stayed unmined past the receipt timeout.",
        fix: "Run the same command again: it waits for the same transaction.",
      },
    },
  },
  SCORES: {
    FILE: {
      FILE_UNREADABLE: {
        number: 3000,
        message:
          "cannot read the score file {file}: it does not exist or is not readable",
        cause:
          "The score file given does not exist, or this process may not read it.",
        fix: "Check the path (relative paths start at the project root) and the file's permissions.",
      },
      INVALID_FILE: {
        number: 3001,
        message: "{file} has {count} problem(s); nothing was sent:\n{problems}",
        cause:
          "The score file failed validation: a missing column, a malformed address or checksum, " +
          "a score that is not a whole uint64, a duplicate address, or no scores at all. " +
          "The whole file is checked before anything is sent.",
        fix: "Correct the lines listed (file:line: problem) and run the command again.",
      },
    },
    PUSH: {
      CHAIN_DIFFERS: {
        number: 3002,
        message:
          "stage {stage} on chain differs from {file} in {count} score(s):\n{differences}",
        cause:
          "Reading the stage's scores back found addresses whose score on chain is not the " +
          "file's, or that the chain lacks or the file lacks.",
        fix:
          "Push the file again with scores:update (it resends what differs), or check whether " +
          "someone else wrote to the stage; compare with scores:verify.",
      },
      NO_LATEST_BLOCK: {
        number: 3003,
        message: "the node returned no latest block",
        cause:
          "The node answered the request for its latest block with nothing.",
        fix: "Check that the network's node is synced and serving blocks, then run again.",
      },
      ENTRY_OVER_GAS_LIMIT: {
        number: 3004,
        message:
          "line {line} alone needs {gas} gas, over the {target} a transaction may use here",
        cause:
          "By the contract's cost model, one entry's update needs more gas than a batch may " +
          "use on this chain (its block gas limit is unusually low).",
        fix: "Push to a chain whose block gas limit allows it, or raise the rollup's gas limit.",
      },
      GAS_MODEL_UNCALIBRATED: {
        number: 3005,
        message: joined(
          "the node estimates {estimated} gas for {lines} though {planned} was planned: ",
          "the gas model does not fit this chain",
        ),
        cause:
          "The first batch was planned four times from the contract's cost model, and each " +
          "time the node estimated more gas than planned: this chain charges gas differently.",
        fix: "Report the chain and the numbers; meanwhile a smaller --batch-size may get through.",
      },
      RESEND_OVER_GAS_LIMIT: {
        number: 3006,
        message: joined(
          "{batch} needs {estimated} gas by the node's estimate, over the {limit} one ",
          "transaction may use: the gas model does not fit this chain",
        ),
        cause:
          "A batch sent again (dropped, or out of gas) is estimated by the node above what one " +
          "transaction may use: the cost model undersized it for this chain.",
        fix: "Run again with a smaller --batch-size; the journal keeps what was confirmed.",
      },
      BATCH_REVERTED: {
        number: 3007,
        message: "Tx failed {hash} ({batch}){why}",
        cause:
          "A batch was mined with a failed receipt and the node does not estimate it above " +
          "the gas it was sent with (a batch that ran short of gas is sent again with the " +
          "estimate instead): the contract refused it in its block, or refuses it now (the " +
          "stage was finalized meanwhile, or the signer was removed from the allow list). The " +
          "message names the contract's error when the batch replayed on the state after its " +
          "block gives one.",
        fix:
          "Look the transaction up in an explorer, check the stage is still open and the " +
          "signer allowed, then run the same command again to resume.",
      },
      SEND_REFUSED: {
        number: 3008,
        message: "batch {batch} was refused when sent: {reason}",
        cause:
          "The node refused the batch's transaction outright (a revert in its checks, too low " +
          "a balance, a fee it does not accept).",
        fix: "Act on the reason shown (fund the signer, check the stage), then run again.",
      },
      SEND_FAILED: {
        number: 3009,
        message: joined(
          "batch {batch} could not be sent after {attempts} attempts ({reason}): ",
          "run the same command again to resume",
        ),
        cause:
          "Sending a batch failed six times in a row on a transient error (the node was " +
          "unreachable or overloaded), and its nonce shows it never arrived.",
        fix: "Check the node, then run the same command again: the journal resumes the push.",
      },
      NOT_MINED: {
        number: 3010,
        message:
          "{hash} ({batch}) was not mined within {seconds} s: run the same command again to resume",
        cause:
          "A batch's transaction stayed unmined past the receipt timeout (a stalled chain, or " +
          "a fee too low to be picked).",
        fix:
          "Check the chain is producing blocks, then run the same command again: the journal " +
          "finds the transaction by its nonce.",
      },
      PUSH_STOPPED: {
        number: 3011,
        message: joined(
          "{reason}\nNothing is lost: {journal} records every batch; ",
          "run the same command again to resume.",
        ),
        cause: "The push stopped part-way, for the reason shown first.",
        fix:
          "Act on that reason, then run the same command again: the journal resumes where the " +
          "push stopped, and nothing is sent twice.",
      },
      NO_PROVIDER: {
        number: 3014,
        message: "the scoring contract has no provider to read through",
        cause:
          "The contract object given to the score reader is not connected to a node.",
        fix: "Connect the contract to a provider (a plugin bug if met through a task: report it).",
      },
      BAD_MAX_IN_FLIGHT: {
        number: 3016,
        message:
          "--max-in-flight {value} must be 0 (adaptive) or a whole number of at least 1",
        cause: "--max-in-flight was given a negative number.",
        fix: "Pass 0 (adaptive), 1 (send and wait) or more.",
      },
      BAD_BATCH_SIZE: {
        number: 3017,
        message:
          "--batch-size {value} must be 0 (as many as gas allows) or more",
        cause: "--batch-size was given a negative number.",
        fix: "Pass 0 (as many addresses as gas allows) or a positive number of addresses.",
      },
    },
    RESUME: {
      STARTED_FROM_OTHER_FILE: {
        number: 3012,
        message: joined(
          "stage {stage} of {contract} was started from another file ({file}, sha256 {sha256}…, ",
          "{entries} addresses); {done} of its batches are confirmed (journal {journal}). ",
          "Finish it with that input, or pass --replace to push this file instead ",
          "(scores it set and this file lacks stay on chain)",
        ),
        cause:
          "The stage's journal records a push of a different score file, not finished or not.",
        fix:
          "Finish that push with the same file, or pass --replace to push this one (the old " +
          "journal is archived).",
      },
      STARTED_BY_OTHER_SIGNER: {
        number: 3013,
        message: joined(
          "stage {stage} of {contract} was started from another signer ({signer}); ",
          "{done} of its batches are confirmed (journal {journal}). ",
          "Finish it with that input, or pass --replace to push this file instead ",
          "(scores it set and this file lacks stay on chain)",
        ),
        cause:
          "The stage's journal records a push of this file by another signer.",
        fix:
          "Run with the signer the journal names, or pass --replace to push from this one (the " +
          "old journal is archived).",
      },
    },
    READ_BACK: {
      READER_SHORT_ANSWER: {
        number: 3015,
        message:
          "the score reader returned {bytes} bytes for {count} addresses",
        cause:
          "The node's eth_call of the score reader returned an answer of the wrong length.",
        fix:
          "None usually needed: the stage is then read page by page instead. If the node " +
          "runs creation code in eth_call differently, report it.",
      },
    },
  },
  INDEXER: {
    LOGS: {
      LOG_INDEX_NOT_HEX: {
        number: 4001,
        message:
          'log "{logIndex}" of transaction {place}: its logIndex is not a hex quantity',
        cause:
          "The node answered a log whose logIndex is not a JSON-RPC quantity (0x and hex digits).",
        fix: "Index from a node that answers eth_getLogs as the JSON-RPC specification says.",
      },
      TX_INDEX_NOT_HEX: {
        number: 4002,
        message: joined(
          "log {logIndex} of transaction {place}: ",
          'its transactionIndex "{txIndex}" is not a hex quantity',
        ),
        cause:
          "The node answered a log whose transactionIndex is not a JSON-RPC quantity " +
          "(0x and hex digits).",
        fix: "Index from a node that answers eth_getLogs as the JSON-RPC specification says.",
      },
      LOG_BEFORE_FIRST: {
        number: 4003,
        message:
          "log {index} of transaction {place} comes before its transaction's first log ({offset})",
        cause:
          "A log's index is smaller than the index of the first log of its transaction, " +
          "as its receipt says.",
        fix: RERUN,
      },
      VALUE_TOO_WIDE: {
        number: 4004,
        message:
          "{where}: {column} = {value} does not fit an exact 128-bit integer column",
        cause:
          "An event's integer value is outside the range of DuckDB's HUGEINT, " +
          "the column the index stores it in.",
        fix:
          "Leave that event out of the policy's @source, " +
          "or index another event that carries the value.",
      },
      LOG_NOT_DECODABLE: {
        number: 4005,
        message: "{where} does not decode as {event}: {reason}",
        cause:
          "A log with the event's topic does not hold the values " +
          "the @source's event signature declares.",
        fix: "Check the @source's event signature (indexed parameters included) against the contract.",
      },
      LOG_OUTSIDE_RANGE: {
        number: 4024,
        message:
          "the node answered a log of block {number} to a request for blocks {from}–{to}",
        cause:
          "eth_getLogs answered a log of a block outside the range it was asked for.",
        fix: RERUN,
      },
    },
    NODE: {
      BLOCK_NOT_ON_NODE: {
        number: 4006,
        message: joined(
          "block {number} is not on the rollup's node ({why}): ",
          "it was pruned (evm.indexer-retain-height) or not produced yet. ",
          "Index from a node that keeps every block from the source's from-block on (an archive node)",
        ),
        cause:
          "The node does not have a block the index needs: it prunes old blocks, or is behind.",
        fix: "Index from an archive node, which keeps every block from the source's from-block on.",
      },
      RECEIPT_MALFORMED: {
        number: 4007,
        message:
          "the node's receipt of transaction {hash} has no blockHash or logs",
        cause:
          "The node answered eth_getTransactionReceipt without a blockHash or a logs list.",
        fix: "Index from a node that answers receipts as the JSON-RPC specification says.",
      },
      TX_AT_TWO_PLACES: {
        number: 4008,
        message: joined(
          "the node answered transaction {hash} at two places: block {block} index {index}, ",
          "and block {otherBlock} ({otherHash}) index {otherIndex}",
        ),
        cause:
          "One answer of eth_getLogs put the logs of one transaction in two blocks or at two indices.",
        fix: RERUN,
      },
      TXS_AT_ONE_INDEX: {
        number: 4009,
        message:
          "the node answered transactions {first} and {second} both at index {index} of block {block}",
        cause:
          "One answer of eth_getLogs put two transactions at the same index of a block.",
        fix: RERUN,
      },
      NO_RECEIPT: {
        number: 4010,
        message: joined(
          "the node has no receipt for {where}, whose logs it has just answered: ",
          "a reorganization, or a node whose receipts and logs disagree. Run scores:index again",
        ),
        cause: DISAGREE,
        fix: RERUN,
      },
      RECEIPT_OF_OTHER_BLOCK: {
        number: 4011,
        message: joined(
          "the receipt of {where} is of block {receiptBlock}, its logs of {logsBlock}: ",
          "a reorganization, or a node whose receipts and logs disagree. Run scores:index again",
        ),
        cause: DISAGREE,
        fix: RERUN,
      },
      RECEIPT_FIRST_LOG: {
        number: 4012,
        message: joined(
          "the receipt of {where} {problem}, though the node answered logs of it: ",
          "its receipts and logs disagree",
        ),
        cause:
          "A receipt has no logs, or numbers its first log with something that is not a quantity.",
        fix: RERUN,
      },
      LOG_NOT_IN_RECEIPT: {
        number: 4013,
        message: joined(
          "log {index} of transaction {hash} (block {block}) is not in its receipt at place {place} ",
          "(the receipt numbers its logs from {offset}): ",
          "a reorganization, or a node whose receipts and logs disagree. Run scores:index again",
        ),
        cause: DISAGREE,
        fix: RERUN,
      },
      BLOCK_CHANGED: {
        number: 4025,
        message:
          "block {number} changed while it was read (a reorganization): run scores:index again",
        cause:
          "A block's hash in the logs differs from its header's: the chain reorganized meanwhile.",
        fix: "Run scores:index again: the index rewinds to the last block that still matches.",
      },
      CALL_FAILED: {
        number: 4026,
        message: "{method}: {reason}",
        cause:
          "The rollup's node answered a JSON-RPC call with an error (its own words are the reason).",
        fix:
          "A range the node refuses as too wide is narrowed and a fault retried on their own; " +
          "otherwise the reason says what the node refused: check the node and the network's url.",
      },
    },
    INDEX: {
      INDEX_FORMAT_1: {
        number: 4014,
        message: joined(
          "{file} is an index of format 1, written by an earlier version of this plugin: ",
          "its logs have no tx_index, and their log_index is the node's own numbering ",
          "(within the transaction on minievm through v1.2, within the block from v1.3), ",
          "so its rows are not read beside new ones. ",
          "Run `{rebuild}` to move it aside to {aside} (kept, not deleted) ",
          "and index afresh from each source's from-block",
        ),
        cause:
          "The index was written by an earlier version of the plugin, in format 1.",
        fix: "Run scores:index with --rebuild: the old index is moved aside (kept) and indexed afresh.",
      },
      INDEX_FORMAT_OTHER: {
        number: 4015,
        message: joined(
          "{file} is an index of format {found}; this version of the plugin reads format {format}: ",
          "use the version that wrote it, ",
          "or run `{rebuild}` to move it aside to {aside} and index afresh",
        ),
        cause:
          "The index was written by another version of the plugin, in a format this one does not read.",
        fix: "Use the version that wrote it, or run scores:index with --rebuild to index afresh.",
      },
      ASIDE_TAKEN: {
        number: 4016,
        message: joined(
          "cannot move {file} aside: {taken} already exists. ",
          "Move that file elsewhere first (nothing here deletes an index)",
        ),
        cause:
          "--rebuild moves the index aside to a name that another file already has.",
        fix: "Move that file elsewhere, then run scores:index --rebuild again.",
      },
      INDEX_IN_USE: {
        number: 4017,
        message:
          "{file} is in use by another scores:index or scores:compute: wait for it to finish",
        cause:
          "Another command holds the index's lock: DuckDB lets one process write it at a time.",
        fix: "Wait for the other scores:index or scores:compute to finish, then run this one again.",
      },
      INDEX_UNOPENABLE: {
        number: 4018,
        message: "cannot open the index {file}: {reason}",
        cause:
          "DuckDB could not open or create the index file (permissions, disk, a damaged file).",
        fix: "Act on DuckDB's reason; a damaged index can be moved aside with scores:index --rebuild.",
      },
      SOURCE_NOT_IN_INDEX: {
        number: 4019,
        message: "source {table} is not in the index",
        cause:
          "The index has no cursor for a policy's @source that it was asked to read.",
        fix: "Run scores:index with the policy, which adds its sources to the index.",
      },
    },
    BATCH: {
      BATCH_HTTP_STATUS: {
        number: 4020,
        message:
          "the node answered a batch of {count} with HTTP {status}{body}",
        cause:
          "The rollup's JSON-RPC endpoint answered a batch request with an HTTP error status.",
        fix:
          "A 5xx or 429 is retried; a gateway that takes no batches is read a request at a time. " +
          "If it persists, check the endpoint.",
      },
      BATCH_REFUSED: {
        number: 4021,
        message: "the node refused a batch of {count}: {reason}",
        cause:
          "The node answered a batch request with one error for the whole batch.",
        fix: "Nothing: the reads are sent a request at a time from there on.",
      },
      BATCH_ANSWER_INCOMPLETE: {
        number: 4022,
        message: "the node's answer to a batch of {count} lacks {method} #{id}",
        cause:
          "The node's answer to a batch request has no answer for one of its calls.",
        fix: "Nothing: the batch is retried, then the reads are sent a request at a time.",
      },
      BATCH_CALL_FAILED: {
        number: 4023,
        message: "{method}: {reason}",
        cause: "One call of a batch request failed on the node.",
        fix: "Nothing: the batch is retried, then the reads are sent a request at a time.",
      },
    },
  },
  SCORING: {
    POLICY_FILES: {
      POLICY_NOT_FOUND: {
        number: 5001,
        message: "--policy {path}: no such file or folder",
        cause: "--policy names a file or folder that does not exist.",
        fix: "Give the path of a policy file (.sql) or of a folder of them.",
      },
      POLICY_FOLDER_EMPTY: {
        number: 5002,
        message: "--policy {path}: the folder holds no .sql file",
        cause: "--policy names a folder without any .sql file in it.",
        fix: "Give the folder that holds the policy files, or the path of one.",
      },
      POLICY_HEADER: {
        number: 5003,
        message: "{file}:{line}: {problem}",
        cause:
          "A header line of the policy file (-- @policy, -- @from-stage, -- @source) is not as the " +
          'docs/scoring-policies.md ("The policy file") says: the message names the line and what is wrong with it.',
        fix: "Correct that line of the policy's header as the message says.",
      },
      POLICY_HEADER_MISSING: {
        number: 5004,
        message: "{file}:{line}: {problem}",
        cause:
          "The policy file lacks a header line every policy has: @policy, @from-stage or @source.",
        fix: "Add the line the message names at the top of the file.",
      },
      POLICIES_SAME_STAGE: {
        number: 5005,
        message: joined(
          "{file} and {other} both start at stage {stage}: ",
          "give each policy its own @from-stage",
        ),
        cause: "Two policy files of --policy declare the same @from-stage.",
        fix: "Give each policy its own @from-stage: a policy is in force until the next one starts.",
      },
      NO_POLICY_FOR_STAGE: {
        number: 5006,
        message:
          "no policy applies to stage {stage}: the earliest starts at stage {earliest}",
        cause: "Every policy of --policy starts after the stage asked for.",
        fix: "Add a policy whose @from-stage is at or before the stage, or ask for a later stage.",
      },
    },
    ADMISSION: {
      POLICY_NOT_ONE_STATEMENT: {
        number: 5010,
        message:
          "{file}: a policy is exactly one SELECT; this file holds {count} statements",
        cause: "The policy file holds more than one SQL statement, or none.",
        fix: "Write the policy as one SELECT (CTEs with WITH are part of it).",
      },
      POLICY_NOT_SELECT: {
        number: 5011,
        message:
          "{file}: a policy is one SELECT, not another kind of statement",
        cause:
          "The policy's statement is not a SELECT (an INSERT, a CREATE, a PRAGMA, …).",
        fix: "Write the policy as one SELECT of address and score.",
      },
      POLICY_SQL_ERROR: {
        number: 5012,
        message: "{place}: {reason}{context}",
        cause:
          "DuckDB could not parse or bind the policy's SQL: " +
          "the message is DuckDB's, placed in the file.",
        fix: "Correct the SQL at the line the message names.",
      },
      POLICY_COLUMNS: {
        number: 5013,
        message: joined(
          "{file}: the SELECT must return exactly two columns, address and score ",
          "(it returns {columns})",
        ),
        cause:
          "The policy's SELECT returns other columns than address and score, in that order.",
        fix: "Select exactly two columns, named address and score.",
      },
      POLICY_ADDRESS_TYPE: {
        number: 5014,
        message: "{file}: address must be text (0x…), not {type}",
        cause: "The policy's address column is not VARCHAR.",
        fix: "Return the address as text, as the index stores it (0x and 40 lowercase hex digits).",
      },
      POLICY_SCORE_TYPE: {
        number: 5015,
        message:
          "{file}: score must be an integer or a DECIMAL, not {type}: cast it, e.g. (…)::HUGEINT",
        cause:
          "The policy's score column is not an exact number (an integer type or a DECIMAL).",
        fix: "Cast the score to an integer type, e.g. (…)::HUGEINT.",
      },
      POLICY_FLOATING: {
        number: 5016,
        message: joined(
          "{file}: the policy computes in floating point, so its scores would not be exact; ",
          "nothing was written:\n{constructs}",
        ),
        cause:
          "The policy computes with a floating-point type or function: its scores would not be exact.",
        fix: "Compute in integers or DECIMAL, as the message says at each place it lists.",
      },
      POLICY_REFUSED: {
        number: 5017,
        message: joined(
          "{file}: the policy is refused before it runs: only exact SQL that gives the same answer ",
          "on every machine, over its @source tables and stage, is admitted ",
          '(README, "Admitted SQL"); nothing was written:\n{constructs}',
        ),
        cause:
          "The policy uses SQL that is not admitted: not exact, not deterministic, or reading beyond " +
          "its @source tables and stage. Each construct is listed at its place, with what to write.",
        fix: 'Rewrite each listed construct as the message says (README, "Admitted SQL").',
      },
      POLICY_ORDER_DEPENDENT: {
        number: 5018,
        message: joined(
          "{file}: the policy's answer depends on the order its rows arrive in: ",
          "run again over the same logs in another order and with another thread count, ",
          "it gave other scores to {count} address(es); nothing was written:\n{differences}",
          "\nWhere the order decides:\n{constructs}",
        ),
        cause:
          "Two runs of the policy, over the same logs in another order and with another thread " +
          "count, gave different scores: a tie is broken by the order rows arrive in.",
        fix: "Break the ties the message lists explicitly (an ORDER BY that orders every row, say).",
      },
    },
    RUN: {
      INDEX_SHORT: {
        number: 5019,
        message: joined(
          "the index of source {table} ({file}:{line}) {reach}, ",
          "short of the stage's last block {last}: run scores:index first",
        ),
        cause:
          "The index does not hold the source's logs up to the stage's last block.",
        fix: "Run scores:index with the policy, then this command again.",
      },
      POLICY_TIMEOUT: {
        number: 5020,
        message: joined(
          "{file}: the policy ran past its time bound of {seconds} s and was stopped; ",
          "nothing was written. ",
          "If it is right and only slow, raise the bound: --policy-timeout <seconds>, ",
          "or vip.policyTimeout in the network's config",
        ),
        cause:
          "The policy's query ran longer than its time bound, and was interrupted.",
        fix: RAISE_TIME,
      },
      POLICY_TIMEOUT_KILLED: {
        number: 5021,
        message: joined(
          "{file}: the policy ran past its time bound of {seconds} s, could not be interrupted, ",
          "and was stopped; nothing was written. ",
          "If it is right and only slow, raise the bound: --policy-timeout <seconds>, ",
          "or vip.policyTimeout in the network's config",
        ),
        cause:
          "The policy's query ran longer than its time bound and did not stop when interrupted: " +
          "its engine's process was killed.",
        fix: RAISE_TIME,
      },
      POLICY_OUT_OF_MEMORY: {
        number: 5022,
        message: joined(
          "{file}: the policy was stopped: {what} ({reason}); nothing was written. ",
          "If it is right and only large, raise the bound: --policy-memory <MB>, ",
          "or vip.policyMemory in the network's config",
        ),
        cause:
          "The policy's query needed more memory, or more temporary space, than its bound.",
        fix: RAISE_MEMORY,
      },
      POLICY_MEMORY_KILLED: {
        number: 5023,
        message: joined(
          "{file}: the policy was stopped: ",
          "its engine held more than its memory bound of {memoryMb} MB ",
          "(and {overheadMb} MB for the process); nothing was written. ",
          "If it is right and only large, raise the bound: --policy-memory <MB>, ",
          "or vip.policyMemory in the network's config",
        ),
        cause:
          "The policy engine's process held more memory than the bound allows: it was killed.",
        fix: RAISE_MEMORY,
      },
      ENGINE_FAILED: {
        number: 5024,
        message:
          "{file}: the policy's engine failed: {reason}; nothing was written",
        cause:
          "The process that runs the policy failed with an error of its own (not a refusal).",
        fix: `${NOTHING_WRITTEN} Act on the reason; if it persists, report it with the policy.`,
      },
      ENGINE_NOT_STARTED: {
        number: 5025,
        message: "{file}: the policy's engine could not start: {reason}",
        cause: "The process that runs the policy could not be started.",
        fix: "Act on the reason (the Node.js installation, the memory or processes the host allows).",
      },
      ENGINE_STOPPED: {
        number: 5026,
        message:
          "{file}: the policy's engine stopped ({how}) before it answered{last}; nothing was written",
        cause:
          "The process that runs the policy ended without answering: a crash, or a signal.",
        fix:
          `${NOTHING_WRITTEN} Act on the engine's last words; ` +
          "if it persists, report it with the policy.",
      },
      BOUND_OPTION_INVALID: {
        number: 5027,
        message:
          '{option} "{value}" must be a whole number of {unit}, from {least} to {most}',
        cause:
          "A bound of the policy's run (its time or memory) is not a whole number in its range.",
        fix: "Give a whole number within the range the message names.",
      },
      DIGEST_FAILED: {
        number: 5028,
        message: "DuckDB did not digest {table}",
        cause:
          "DuckDB answered no digest of a source's logs, which the manifest records.",
        fix: "Run the command again; if it recurs, rebuild the index with scores:index --rebuild.",
      },
    },
    RESULTS: {
      SCORES_INVALID: {
        number: 5029,
        message:
          "{file}: {count} score(s) cannot be written; nothing was written:\n{problems}",
        cause:
          "The policy's answer has rows that are not scores " +
          "(an address that is not one, a duplicate, a score that is not one): " +
          "each is listed, with its stage and address.",
        fix: "Correct the policy so that it answers one valid score per address.",
      },
      MANIFEST_UNREADABLE: {
        number: 5030,
        message: "--manifest {file}: {reason}",
        cause:
          "The manifest given to scores:audit could not be read, or is not JSON.",
        fix: "Give the path of the manifest scores:compute wrote beside the stage's score file.",
      },
      AUDIT_DIFFERENCES: {
        number: 5031,
        message: joined(
          "{what}: {count} difference(s) between the policy's scores ",
          "and {against} (listed above)",
        ),
        cause:
          "The scores the policy computes for the stage differ from those published.",
        fix: "Read the differences listed above: the index, the policy or the published scores differ.",
      },
      TRIAL_FILE_REFUSED: {
        number: 5040,
        message: joined(
          "{file} is a trial's scores ({why}): a trial over a window of your choosing is ",
          "never pushed nor finalized; nothing was sent",
        ),
        cause:
          "scores:compute --window writes window-<start>-<end>.csv and a manifest marked " +
          '"trial": true: scores of a window the program never opened.',
        fix:
          "Compute the stage itself (scores:compute --stage N) and push stage-N.csv or " +
          "stage-N.final.csv.",
      },
      AUDIT_NOTHING_TO_COMPARE: {
        number: 5041,
        message: joined(
          "scores:audit --window has nothing to compare with: give --manifest <a published ",
          "trial manifest>, or --stage-number N to compare with the contract's stage N; nothing was read",
        ),
        cause:
          "A trial window is no stage of the contract: without a stage number or a manifest " +
          "the audit would check nothing.",
        fix: "Add --manifest or --stage-number.",
      },
      POLICIES_REFUSED: {
        number: 5042,
        message:
          "{count} of {total} policies cannot run (each refusal is printed above)",
        cause:
          "scores:check admitted each policy of --policy as a stage would; some were refused.",
        fix: "Correct each policy at the file and line its refusal names, and check again.",
      },
      POLICY_COPY_DIFFERS: {
        number: 5043,
        message: joined(
          "{file} holds another policy (sha256 {there}) than the one {stage} ran (sha256 {ran}): ",
          "a published policy is never overwritten; nothing was written",
        ),
        cause:
          "The score folder keeps a copy of each policy its stages ran, under the name the " +
          "manifests give it, so the folder alone is the set to publish. A file of that name " +
          "holds other bytes: the policy was changed in place after a stage ran under it.",
        fix:
          "Give the changed policy a file name of its own (and its own @from-stage), so each " +
          "stage's manifest names the policy it ran; or write this stage's files to a new folder.",
      },
    },
    NEW_POLICY: {
      NEW_POLICY_EXISTS: {
        number: 5100,
        message: joined(
          "{file} already exists: scores:new-policy never overwrites a file; ",
          "nothing was written",
        ),
        cause:
          "--out names a file (or folder) that is already there, perhaps a policy in force.",
        fix: "Give --out a new file name, or move the existing file away first.",
      },
      NEW_POLICY_UNKNOWN_FAMILY: {
        number: 5101,
        message:
          "--template {family} is not a family of the cookbook: the families are {families}; nothing was written",
        cause:
          "--template names one of the example policies in policies/examples/ (docs/policies.md), " +
          "by its file name without .sql.",
        fix: "Give one of the families the message lists.",
      },
      NEW_POLICY_NAME: {
        number: 5102,
        message: joined(
          '{source} "{name}" is not a policy name (letters, digits, ".", "_" or "-", ',
          "starting with a letter or digit); nothing was written",
        ),
        cause:
          "The policy's @policy name is --name, or else --out's file name without its " +
          "extension, and it holds another character.",
        fix: "Give --name my-policy (or an --out file named so).",
      },
      NEW_POLICY_FROM_STAGE: {
        number: 5103,
        message:
          "--from-stage {value} is not a stage number (1 or more, below 2^64); nothing was written",
        cause:
          "--from-stage is the first stage the new policy applies to: its @from-stage line.",
        fix: "Give the stage number, e.g. --from-stage 12 (the default is 1).",
      },
    },
  },
  AUTOPILOT: {
    SETUP: {
      SCORES_DIR_NOT_A_FOLDER: {
        number: 6000,
        message: joined(
          "--scores-dir {dir} is not a folder: ",
          "create it, or point it at the scoring job's output",
        ),
        cause:
          "The --scores-dir given to stage:autopilot does not exist, or is a file.",
        fix: "Create the folder, or give the folder the scoring job writes its score files to.",
      },
      NOT_WHOLE_SECONDS: {
        number: 6001,
        message:
          "{option} {value} is not a whole number of seconds of at least {minimum}",
        cause:
          "An interval option of stage:autopilot is not a whole number, or is below its minimum.",
        fix: "Give a whole number of seconds, e.g. --poll-interval 60 or --grace 3600.",
      },
      WEBHOOK_NOT_A_URL: {
        number: 6002,
        message:
          "{source} is not a URL: give the webhook's http:// or https:// address",
        cause:
          "The alert webhook (--webhook, vip.alertWebhook or VIP_ALERT_WEBHOOK) is not a URL.",
        fix: "Give the webhook's full address, starting with http:// or https://.",
      },
      WEBHOOK_NOT_HTTP: {
        number: 6003,
        message: "{source} must be an http:// or https:// URL",
        cause:
          "The alert webhook is a URL of another scheme than http or https.",
        fix: "Give the webhook's http:// or https:// address.",
      },
      WEBHOOK_REFUSED: {
        number: 6004,
        message: "HTTP {status}",
        cause:
          "The alert webhook answered an alert's POST with a status other than 2xx; " +
          "it is retried, then reported on stderr by the webhook's origin.",
        fix: "Check the webhook's address and the service behind it (its token, its rate limits).",
      },
      LISTEN_INVALID: {
        number: 6005,
        message: joined(
          "--listen {value} is not a port or host:port ",
          "(e.g. --listen 9464, or --listen 0.0.0.0:9464 to be reached from other hosts)",
        ),
        cause: "The --listen value is neither a port number nor host:port.",
        fix: "Give a port (it binds 127.0.0.1), or host:port such as 0.0.0.0:9464.",
      },
      LISTEN_FAILED: {
        number: 6006,
        message: "--listen {listen}: cannot listen on {host}:{port} ({reason})",
        cause:
          "The service for /healthz and /metrics could not bind its address: the port is " +
          "taken (EADDRINUSE), needs privileges (EACCES), or the host is not this machine's.",
        fix: "Choose a free port above 1023, or an address of this machine.",
      },
      LOCK_HELD: {
        number: 6007,
        message: joined(
          "another autopilot runs on {contract}: pid {pid} on host {host}, since {since} ",
          "(lock {file}). Stop it first; if it is gone (its host was lost), delete the lock file",
        ),
        cause:
          "Another stage:autopilot holds the lock of this contract: a process that still " +
          "runs on this host, or one on another host (which is never guessed about).",
        fix:
          "Stop the other autopilot first; if its host was lost for good, delete the lock file " +
          "the message names.",
      },
      LOCK_CONTENDED: {
        number: 6008,
        message:
          "could not take the autopilot lock {file}: another autopilot keeps taking it",
        cause:
          "The lock file was stale, but each time it was taken over another process " +
          "created it first: several autopilots are starting at once.",
        fix: "Run one autopilot per contract (one service unit), then start it again.",
      },
    },
    PASSES: {
      STAGE_LEFT_UNDONE: {
        number: 6009,
        message: "a due stage was left undone: {reason}",
        cause:
          "stage:autopilot --once ended with a due stage not finalized; the reason says why " +
          "(its error, with its own code, is this error's cause).",
        fix: "Act on the reason given (a missing or invalid final file, a node down), then run again.",
      },
      FINALIZE_DECLINED: {
        number: 6010,
        message: "stage {stage} was not finalized: nothing was sent",
        cause:
          "stage:finalize asked for confirmation and the answer was not yes.",
        fix: "Run stage:finalize again and answer y, or pass --yes when you are sure.",
      },
      CLOCKS_UNREACHABLE: {
        number: 6020,
        message: joined(
          "cannot tell what is due: {reason}. Retrying with backoff; check the base chain's ",
          "REST endpoint (L1_REST_URL) and the rollup's JSON-RPC (JSON_RPC_URL)",
        ),
        cause:
          "The autopilot could not read the VIP program or the base chain's time from the " +
          "base chain's REST API, or the open stage from the rollup, after its retries.",
        fix: "Check that both endpoints answer from this host; the autopilot keeps retrying.",
      },
      FINAL_FILE_INVALID: {
        number: 6021,
        message: joined(
          ENDED,
          ", but its final file is not valid, so nothing was pushed: {reason}. ",
          "Fix {file} (the grace ends at {graceEnds})",
        ),
        cause:
          "The due stage's stage-<N>.final.csv failed validation; nothing of it was sent.",
        fix: "Correct the file as the reason says; the autopilot picks it up at its next poll.",
      },
      FINAL_FILE_MISSING: {
        number: 6022,
        message: joined(
          ENDED,
          " and its final scores are missing: write {file} (address,score; the header alone ",
          "for a stage with no scores). The grace ends at {graceEnds}{late}",
        ),
        cause:
          "The stage has ended, and its stage-<N>.final.csv is not in the scores folder.",
        fix:
          "Have the scoring job write the final file (the header alone for a stage without " +
          "scores), or run the autopilot with --policy to compute it.",
      },
      FINALIZE_FAILED: {
        number: 6023,
        message: joined(
          ENDED,
          ", but pushing or finalizing it failed: {reason}.{risk} ",
          "Nothing is lost; the autopilot retries (or run it again)",
        ),
        cause:
          "Pushing the final file, reading it back, or finalizing the stage failed: the " +
          "reason gives the error (a node, the signer, scores on chain that differ).",
        fix: "Act on the reason; every send is journalled, so the next pass resumes where it stopped.",
      },
      FINAL_COMPUTE_FAILED: {
        number: 6024,
        message: joined(
          ENDED,
          ", but its final scores could not be computed from {policy}: {reason}. ",
          "Nothing is finalized; the autopilot tries again (the grace ends at {graceEnds})",
        ),
        cause:
          "With --policy, computing the due stage's final scores failed: an incomplete " +
          "index, a pruned block, an error in the policy.",
        fix: "Act on the reason (the node, the policy); the autopilot tries again at its next poll.",
      },
      FINAL_WAITS_FOR_ROLLUP: {
        number: 6025,
        message: joined(
          ENDED,
          ", but the rollup has no block at or after its end yet (its head is block {head} ",
          "at {headTime}): the final scores wait for it (the grace ends at {graceEnds})",
        ),
        cause:
          "With --policy, the stage has ended on the base chain's clock but not yet on the " +
          "rollup's: its window closes with the first block at or after the end.",
        fix: "Nothing, usually: the next block closes it. If the rollup stalls, check its node.",
      },
      LIVE_COMPUTE_FAILED: {
        number: 6026,
        message: joined(
          "the live scores of stage {stage} could not be computed from {policy}: {reason}. ",
          "Tried again at the next poll; only final scores are finalized from",
        ),
        cause:
          "With --policy, computing a running stage's live scores failed (a warning).",
        fix: "Act on the reason before the stage ends; its final scores are computed on their own.",
      },
      LIVE_PUSH_FAILED: {
        number: 6027,
        message: joined(
          "the live scores of {file} were not pushed: {reason}. ",
          "It is retried at the next poll; only the final file counts for finalizing",
        ),
        cause:
          "Reading or pushing a running stage's stage-<N>.csv failed (a warning).",
        fix: "Act on the reason; live scores are optional, only the final file is finalized.",
      },
      LIVE_WINDOW_CLOSED: {
        number: 6031,
        message: joined(
          "the live push of stage {stage} stopped before a batch: the stage ends at {endsAt} ",
          "on the base chain's clock, and live pushes stop {margin} before the end",
        ),
        cause:
          "A live push was still sending when the stage's end came near: a live score must " +
          "never land after the final ones, so the rest is not sent.",
        fix: "Nothing: the stage's final scores are pushed once it ends.",
      },
      PASS_FAILED: {
        number: 6036,
        message: joined(
          "the pass stopped at stage {stage}: {reason}. Nothing sent was lost (every send is ",
          "journalled); the next poll tries again",
        ),
        cause:
          "A read the autopilot needed in the middle of a pass failed (the rollup's node or the " +
          "base chain, after their retries).",
        fix: "Check the rollup's JSON-RPC (JSON_RPC_URL) and the base chain's REST (L1_REST_URL).",
      },
    },
    TWO_HOSTS: {
      HOSTS_DISAGREE: {
        number: 6028,
        message: joined(
          "hosts disagree on stage {stage}: {signers} pushed final scores of another file than ",
          "this host's {file} (sha256 {ours}…; this host signs as {me}): {differences}. This host ",
          "neither pushes nor finalizes stage {stage} while they differ: the operator decides ",
          "which file is right",
        ),
        cause:
          "Two autopilots (a primary and a standby) computed different final files for the " +
          "stage (another policy, another index, a score file from another job), and the other " +
          "host's final push is on chain (its marker names its file). Overwriting it would start " +
          "a tug of war between the hosts.",
        fix:
          "Find which file is right (scores:audit on each host; scores:explain for an address). " +
          "Correct the other host (its policy or its scoring job) and restart it: its next final " +
          "push claims the same file, and the host whose file was right pushes and finalizes at " +
          "its next poll.",
      },
      STANDBY_TAKES_OVER: {
        number: 6029,
        message: joined(
          "stage {stage} ended at {endedAt} and is not finalized {after} later: this standby ",
          "({signer}) takes it over: its final scores, their proof and the finalization",
        ),
        cause:
          "stage:autopilot --standby-after found the stage still open that long after its end " +
          "on the base chain's clock: the primary host is down, cut off, frozen or late.",
        fix: "Find out why the primary did not finalize; the standby does the stage meanwhile.",
      },
      FINALIZED_BY_OTHER: {
        number: 6030,
        message: joined(
          "stage {stage} was finalized by {signer} in tx {tx}, not by this host ({me}): ",
          "{how}",
        ),
        cause:
          "Another allowed signer (the standby host's, or a person's with stage:finalize) " +
          "finalized the stage before this host did.",
        fix:
          "Nothing for the stage. If this host is the primary, find out why it was late " +
          "(its node, its base-chain endpoint, a pause) before the next stage ends.",
      },
      WRITE_SENDER_UNKNOWN: {
        number: 6032,
        message: joined(
          "transaction {tx} wrote scores in block {block}, but the node does not know the ",
          "transaction: its sender cannot be told. Tried again at the next poll",
        ),
        cause:
          "The rollup's node answered a log of the contract whose transaction it cannot find " +
          "(a node still indexing, or one whose logs and transactions disagree).",
        fix: "Usually nothing; if it stays, use another node of the rollup (JSON_RPC_URL).",
      },
      FINALIZED_DIFFERS: {
        number: 6033,
        message: joined(
          "the finalized stage {stage} differs from this host's final file {file}: {signer} ",
          "finalized it, and {count} address(es) differ: {differences}. A finalized stage cannot ",
          "change: if this host's file is right, correct it through governance within the ",
          "challenge period",
        ),
        cause:
          "The other host finalized the stage from a final file that is not this host's: two " +
          "policies, two indexes or two scoring jobs disagree.",
        fix:
          "Find which file is right (scores:audit on each host). If the finalized scores are " +
          "wrong, the stage is corrected on the base chain, by governance, before its challenge " +
          "period ends.",
      },
      STANDBY_NEEDS_FENCE: {
        number: 6034,
        message: joined(
          "--standby-after needs a contract that fences its finalization (writeCount and ",
          "finalizeStageAt), and {contract} has none: it was deployed by an earlier version. ",
          "Run one host on it, or deploy the current VipScore for a new program stage",
        ),
        cause:
          "Without the fence, a paused host's stale write could land between another host's " +
          "proof and its finalization, freezing a stage that differs from the final file.",
        fix:
          "Run a single autopilot (the primary) on this contract; use two hosts with a " +
          "contract deployed by this version.",
      },
      WRITES_UNREADABLE: {
        number: 6035,
        message: joined(
          ENDED,
          ", but its writes since the end could not be read, so nothing was pushed: {reason}. ",
          "Tried again at the next poll (the grace ends at {graceEnds})",
        ),
        cause:
          "Before pushing its final scores the autopilot reads the stage's writes since its end " +
          "(another host's final scores must not be overwritten); the node did not answer.",
        fix: "Check the rollup's JSON-RPC (JSON_RPC_URL); the autopilot tries again.",
      },
    },
    CORRECTION: {
      CORRECTION_FILE_MISSING: {
        number: 6040,
        message: joined(
          "stage {stage} has no corrected final file {file}: the correction replays every ",
          "finalized stage from {first} on, each from its own final file. Write it (or give ",
          "--policy to compute it) and run again; nothing was sent",
        ),
        cause:
          "stage:correct replays each finalized stage from the corrected one on to the new " +
          "contract, and one of them has no stage-<N>.final.csv in --scores-dir.",
        fix: "Put every stage's final file in --scores-dir (the ones the autopilot wrote), or use --policy.",
      },
      CORRECTION_NOT_FINAL: {
        number: 6041,
        message: joined(
          "stage {stage}'s window has not closed on both clocks, so its final scores cannot be ",
          "computed; nothing was sent",
        ),
        cause:
          "With --policy, a stage to replay was computed and its window is not closed (the " +
          "base chain's or the rollup's clock has not passed its end).",
        fix: "Check the rollup's node (its head) and the base chain's clock; run again.",
      },
      CORRECTION_EMPTY: {
        number: 6042,
        message: joined(
          "the corrected final file {file} of stage {stage} holds no scores, but the stage ",
          "holds {count} address(es) on chain: refused unless --allow-empty; nothing was sent",
        ),
        cause:
          "An empty corrected file would give every user of the stage nothing: more likely a " +
          "broken scoring job than a correction.",
        fix: "Check the file; if the stage really had no rightful scores, pass --allow-empty.",
      },
      CORRECTION_NOTHING_TO_CORRECT: {
        number: 6043,
        message: joined(
          "stage {stage} on chain equals its corrected file {file}: nothing to correct (a later ",
          "stage that differs is corrected with its own --stage); nothing was sent",
        ),
        cause:
          "The corrected file of the stage holds exactly the scores the contract holds.",
        fix: "Check that the corrected file is the right one; nothing needs correcting otherwise.",
      },
      CORRECTION_STAGE_OPEN: {
        number: 6044,
        message: joined(
          "stage {stage} is not finalized (the contract's open stage is {open}): its scores can ",
          "still change, so push the corrected file with `npx hardhat scores:update --stage ",
          "{stage}`; nothing was sent",
        ),
        cause:
          "stage:correct corrects a finalized stage; this one is still open (or later).",
        fix: "Use scores:update for an open stage.",
      },
      CORRECTION_DECLINED: {
        number: 6045,
        message:
          "the correction of stage {stage} was not started: nothing was sent",
        cause:
          "stage:correct asked for confirmation on a terminal and the answer was not yes.",
        fix: "Run it again and answer y, or pass --yes when you are sure.",
      },
      CORRECTION_OTHER_FILES: {
        number: 6046,
        message: joined(
          "a correction of stage {stage} was started with other final files ({journal}: stage ",
          "{differing} was sha256 {started}…, now {now}…): finish it with the same files, or ",
          "move the journal aside to start another; nothing was sent",
        ),
        cause:
          "stage:correct journals the files it replays; a rerun with other files would mix two " +
          "corrections on one new contract.",
        fix: "Restore the files the correction started with, or move its journal aside.",
      },
      CORRECTION_BRIDGE_UNREADABLE: {
        number: 6047,
        message: joined(
          "the rollup's bridge id could not be read ({reason}): the proposal names the bridge, so ",
          "nothing was sent",
        ),
        cause:
          "stage:correct reads the rollup's OPinit bridge id from its REST API " +
          "(/opinit/opchild/v1/bridge_info) before anything is sent.",
        fix: "Set ROLLUP_REST_URL (vip.rollupRestUrl) to the rollup's REST API, and check that it answers.",
      },
      CORRECTION_BRIDGE_NOT_REGISTERED: {
        number: 6048,
        message: joined(
          "bridge {bridge} is not registered in the VIP program (vip::get_bridge_infos): there is ",
          "no score contract of it to replace; nothing was sent",
        ),
        cause:
          "The rollup's bridge id is not among the program's bridges: the rollup is not in the " +
          "program yet, or the rollup's REST API answers for another rollup.",
        fix: "Check ROLLUP_REST_URL and the VIP module address (VIP_MODULE_ADDRESS) of the network.",
      },
      CORRECTION_NOT_THE_PROGRAMS: {
        number: 6049,
        message: joined(
          "the VIP program reads bridge {bridge}'s scores from {registered}, not from {contract}: ",
          "the correction would judge another contract than the one the program reads; name it ",
          "with --contract {registered}; nothing was sent",
        ),
        cause:
          "The contract being corrected (the chain's default, or --contract/--deployment-id) is not " +
          "the score contract the program has for the bridge.",
        fix: "Pass --contract with the program's score contract.",
      },
      CORRECTION_OTHER_DEPLOYMENT: {
        number: 6050,
        message: joined(
          "the correction of stage {stage} started with the new deployment {started} ({journal}); ",
          "--new-deployment-id {given} would deploy another contract: drop it to resume; nothing ",
          "was sent",
        ),
        cause:
          "A correction resumes on the deployment it started; another id was given.",
        fix: "Run the same command without --new-deployment-id (or with the one it started with).",
      },
      CORRECTION_DEPLOYMENT_TAKEN: {
        number: 6051,
        message: joined(
          "the deployment id {id} already holds a contract ({dir}): a new correction needs a new ",
          "one; give --new-deployment-id; nothing was sent",
        ),
        cause:
          "A correction deploys its new contract under a deployment id of its own; this one was " +
          "used by an earlier deployment that no journal of this correction names.",
        fix: "Pass --new-deployment-id with an unused id.",
      },
    },
  },
  NETWORK: {
    HTTP: {
      UNREACHABLE: {
        number: 7001,
        message: "cannot reach {url}: {reason}",
        cause:
          "A node or API did not answer: the connection was refused, the name " +
          "did not resolve, or no answer came in time.",
        fix: "Check the URL in the config and that the endpoint is up, then run the command again.",
      },
      HTTP_STATUS: {
        number: 7002,
        message: "{url} answered HTTP {status}: {reason}",
        cause: "A node or API answered with an HTTP error status.",
        fix:
          "Read the endpoint's reason: a 404 usually means a wrong address or " +
          "path, a 5xx a node or gateway problem that passes; run again later.",
      },
      NOT_JSON: {
        number: 7003,
        message: "{url} did not answer JSON: {body}",
        cause:
          "An endpoint answered with something else than JSON (an HTML page, say).",
        fix: "Check that the URL points at the API itself, not at a web page or a proxy's error page.",
      },
      UNEXPECTED_ANSWER: {
        number: 7004,
        message: "{what}: {field} {problem}",
        cause:
          "An endpoint's answer lacks a field this tool needs, or has one of another kind.",
        fix:
          "Check that the endpoint is the kind of node or API the config says " +
          "(and a version this tool supports).",
      },
      NOT_A_JSON_STRING: {
        number: 7005,
        message: "{what}: {field} is not a JSON string",
        cause: "A field the chain writes as JSON text does not hold JSON.",
        fix: "Check that the endpoint serves the chain (and module) the config names.",
      },
      JSON_RPC_ERROR: {
        number: 7006,
        message: "{method} at {url} answered JSON-RPC error {code}: {reason}",
        cause: "A CometBFT RPC answered a call with a JSON-RPC error.",
        fix: "Read the node's reason; check the RPC URL, or run again when the node is healthy.",
      },
      RETRIES_EXHAUSTED: {
        number: 7007,
        message: "{what} failed {attempts} time(s), the last with: {reason}",
        cause:
          "A request failed on the way every time it was tried (a dropped connection, a rate limit).",
        fix: "Check the endpoint and the network, then run the command again.",
      },
      GAS_PRICE_INVALID: {
        number: 7008,
        message:
          'node config at {url}: minimum_gas_price "{part}" is not <amount><denom>',
        cause:
          "The chain's node config gives a minimum gas price this tool cannot read.",
        fix: "Use another REST endpoint of the chain, or report the node's answer.",
      },
    },
    PROGRAM: {
      VIP_MODULE_STORE_NOT_FOUND: {
        number: 7100,
        message: joined(
          "the VIP module store was not found at {address} on {node}: ",
          "check VIP_MODULE_ADDRESS (vip.vipModuleAddress) against the base chain you query",
        ),
        cause:
          "The base chain has no vip::ModuleStore at the configured module address.",
        fix:
          "Set VIP_MODULE_ADDRESS (vip.vipModuleAddress) to the VIP module " +
          "of the base chain queried.",
      },
      VIP_PROGRAM_INCOMPLETE: {
        number: 7101,
        message: joined(
          "ModuleStore at {url} (resource.move_resource): ",
          "data.{fields} is missing: is this the VIP module (check VIP_MODULE_ADDRESS)?",
        ),
        cause: "The module store lacks the stage times a schedule needs.",
        fix: "Check VIP_MODULE_ADDRESS (vip.vipModuleAddress): it must be the VIP module.",
      },
      CHAIN_TIME_INVALID: {
        number: 7102,
        message: "{what}: block.header.time {time} is not an RFC 3339 time",
        cause:
          "The base chain's latest block has a time this tool cannot read.",
        fix: "Use another REST endpoint of the base chain.",
      },
      NO_VIP_MODULE: {
        number: 7103,
        message: joined(
          "no VIP module at {address} on {node}: ",
          "check VIP_MODULE_ADDRESS (vip.vipModuleAddress)",
        ),
        cause:
          "The base chain has no module named vip at the configured address.",
        fix: "Set VIP_MODULE_ADDRESS (vip.vipModuleAddress) to the VIP module's address.",
      },
      STAGE_NOT_STARTED: {
        number: 7104,
        message: joined(
          "stage {stage} has not started on the base chain ",
          "(its program is at stage {current}): its window is not known yet",
        ),
        cause: "A stage after the program's current one was asked for.",
        fix: "Give a stage that has started, or wait for it.",
      },
      STAGE_TIMES_MISSING: {
        number: 7105,
        message: joined(
          "the base chain's ModuleStore has no stage_start_time or stage_end_time: ",
          "is VIP_MODULE_ADDRESS the VIP module?",
        ),
        cause: "The module store lacks the open stage's start or end time.",
        fix: "Check VIP_MODULE_ADDRESS (vip.vipModuleAddress): it must be the VIP module.",
      },
      STAGE_DATA_MISSING: {
        number: 7106,
        message: joined(
          "the base chain's ModuleStore has no stage_data table: ",
          "the window of stage {stage} cannot be read",
        ),
        cause: "The module store has no table of earlier stages' windows.",
        fix: "Check VIP_MODULE_ADDRESS (vip.vipModuleAddress): it must be the VIP module.",
      },
      STAGE_WINDOW_NOT_FOUND: {
        number: 7107,
        message:
          "{what}: not found (the program holds no window for stage {stage})",
        cause:
          "The program's table of stages has no entry for the stage asked for.",
        fix: "Give a stage the program has run.",
      },
      STAGE_WINDOW_INVERTED: {
        number: 7108,
        message: "{what}: its window ends ({end}) before it starts ({start})",
        cause: "The stage's recorded window ends before it starts.",
        fix: "Check that the endpoint serves the base chain; report the entry if it does.",
      },
    },
    ROUTER: {
      ROUTER_UNREACHABLE: {
        number: 7200,
        message: "cannot reach {endpoint}: {reason}",
        cause:
          "The routing API did not answer: refused, unresolved, or no answer in time.",
        fix: "Check the routing API's URL and the network, then run the command again.",
      },
      ROUTER_HTTP_STATUS: {
        number: 7201,
        message: "{endpoint} answered HTTP {status}: {reason}{info}",
        cause:
          "The routing API answered with an HTTP error status: it refused the request.",
        fix: "Read its reason: a route it cannot find, an unsupported chain or denom, a rate limit.",
      },
      ROUTER_CHAIN_LIST_UNREADABLE: {
        number: 7202,
        message: joined(
          "there is no REST endpoint for chain {chainId} to sign on ({served}), ",
          "and the router's chain list could not be read ({reason}): ",
          SET_REST_URL,
        ),
        cause:
          "No REST endpoint is configured for a chain to sign on, and the routing API failed.",
        fix: "Set L1_REST_URL or ROLLUP_REST_URL to the chain's REST API.",
      },
      NO_REST_ENDPOINT: {
        number: 7203,
        message: joined(
          "there is no REST endpoint for chain {chainId} to sign on ({served}, ",
          "and the router's chain list gives none for it): ",
          SET_REST_URL,
        ),
        cause:
          "No REST endpoint is configured for a chain to sign on, and the routing API has none.",
        fix: "Set L1_REST_URL or ROLLUP_REST_URL to the chain's REST API.",
      },
      ROUTER_REST_NOT_HTTP: {
        number: 7204,
        message: joined(
          'the router\'s chain list gives chain {chainId} the REST endpoint "{rest}", ',
          "which is not an http(s) URL: ",
          SET_REST_URL,
        ),
        cause:
          "The routing API's chain list gives a chain a REST endpoint that is no http(s) URL.",
        fix: "Set L1_REST_URL or ROLLUP_REST_URL to the chain's REST API.",
      },
      ROUTER_REST_WRONG_CHAIN: {
        number: 7205,
        message: joined(
          "the router's chain list gives {rest} as the REST endpoint of {chainId}, ",
          "but it serves {serves}: ",
          SET_REST_URL,
        ),
        cause:
          "The REST endpoint the routing API gives for a chain serves another chain.",
        fix: "Set L1_REST_URL or ROLLUP_REST_URL to the chain's REST API.",
      },
      TRACKING_FAILED: {
        number: 7206,
        message: joined(
          "tracking {hash} failed: {reason}. The transaction is sent; ",
          "run `bridge:status --tx {hash} --chain {chainId}` to follow it",
        ),
        cause: "The routing API did not take a sent transaction for tracking.",
        fix: "Run bridge:status with the transaction's hash and chain to follow it.",
      },
      TRANSFER_ABANDONED: {
        number: 7207,
        message: joined(
          "the routing API stopped tracking {hash} (STATE_ABANDONED: a hop stalled for over ",
          "10 minutes, or the transaction was not seen in 5). That is not a failure: ",
          "the transfer may still land. Check the recipient's balance{destination}{explorer}, ",
          "and run {again} later to ask again",
        ),
        cause:
          "The routing API gave up following the transfer; the transfer itself may go on.",
        fix: "Check the recipient's balance, and ask again later.",
      },
      TRANSFER_STATE_UNKNOWN: {
        number: 7208,
        message: joined(
          "the routing API reports STATE_UNKNOWN for {hash}{detail}: ",
          "it cannot tell where this transfer is. ",
          "Check the transaction on {chainId} and the recipient's balance; {again} asks again",
        ),
        cause: "The routing API cannot tell where the transfer is.",
        fix: "Check the transaction on its chain and the recipient's balance; ask again later.",
      },
      TRANSFER_STILL_UNDER_WAY: {
        number: 7209,
        message: joined(
          "{hash} is still {state} after {seconds} s: the transfer goes on; ",
          "{again} follows it to its end",
        ),
        cause:
          "The transfer did not reach its end within the time given (--timeout).",
        fix: "Run the command given to follow it to its end.",
      },
      TRANSFER_FAILED: {
        number: 7210,
        message: "{hash}: {end}",
        cause: "The transfer ended in another state than success.",
        fix: "Read the state, the error and where the assets are, then act on the chain named.",
      },
    },
    TRANSFER: {
      HOOK_RECIPIENT_NOT_SIGNER: {
        number: 7300,
        message: joined(
          "this route requires an op hook, which the recipient's key signs: ",
          "--to {recipient} is not the signer's account ({hex}, {bech32}). ",
          "Send to your own account, then move the tokens on the rollup; nothing was sent",
        ),
        cause:
          "The route needs an op hook signed by the recipient, and the recipient is someone else.",
        fix: "Send to your own account, then move the tokens on the rollup.",
      },
      NO_REQUIRED_ADDRESSES: {
        number: 7301,
        message: joined(
          "the route has no required_chain_addresses, so msgs cannot be given ",
          "an address per chain: nothing was signed",
        ),
        cause:
          "The routing API's route does not say which chains need an address.",
        fix: "Ask for the route again; report it if it persists.",
      },
      RECIPIENT_NOT_EVM: {
        number: 7302,
        message:
          "--to {recipient}: the destination {chainId} is an EVM chain, which needs a 0x… address",
        cause: "The destination is an EVM chain and --to is not a 0x… address.",
        fix: "Give --to as a 0x… address.",
      },
      COSMOS_TX_SIGNER_MISMATCH: {
        number: 7303,
        message: joined(
          "transaction {n} on {chainId} is to be signed by {expected}, ",
          "but the signer is {signer}: nothing was sent",
        ),
        cause:
          "The routing API wants a Cosmos transaction signed by another account than the signer.",
        fix: "Run with the signer whose account the route was asked for.",
      },
      TX_KIND_UNKNOWN: {
        number: 7304,
        message:
          "transaction {n} is neither an EVM nor a Cosmos transaction: nothing was sent",
        cause:
          "The routing API gave a transaction this tool cannot sign (an SVM one, say).",
        fix: "Ask for a route between EVM and Initia chains only.",
      },
      TX_WRONG_CHAIN: {
        number: 7305,
        message: joined(
          "transaction {n} is for chain {txChain}, but the network is chain {chainId}: ",
          "run with the source chain's --network; nothing was sent",
        ),
        cause:
          "An EVM transaction of the route is for another chain than the --network.",
        fix: "Run with the source chain's --network.",
      },
      EVM_TX_SIGNER_MISMATCH: {
        number: 7306,
        message: joined(
          "transaction {n} is to be signed by {expected}, ",
          "but the signer is {signer}: nothing was sent",
        ),
        cause:
          "The routing API wants an EVM transaction signed by another account than the signer.",
        fix: "Run with the signer whose account the route was asked for.",
      },
      NOT_CONFIRMED: {
        number: 7307,
        message: "not confirmed: nothing was sent",
        cause: "The operator did not confirm the transactions shown.",
        fix: "Run again and answer y to sign and send.",
      },
      NOT_CONFIRMED_NO_TERMINAL: {
        number: 7308,
        message: joined(
          "not confirmed: standard input is not a terminal, ",
          "so pass --yes to sign and send; nothing was sent",
        ),
        cause:
          "The transfer needs a confirmation and there is no terminal to ask.",
        fix: "Pass --yes to sign and send without asking.",
      },
      TRANSFER_IN_PROGRESS: {
        number: 7309,
        message: joined(
          "the same transfer is still in progress (journal {journal}): ",
          "run the command without --new to finish it first",
        ),
        cause:
          "--new was given while the same transfer's journal shows it under way.",
        fix: "Run the command without --new to finish it.",
      },
      AMOUNT_INVALID: {
        number: 7310,
        message:
          "--amount {amount} is not an amount in base units (a whole number above 0)",
        cause: "--amount is not a whole number above 0.",
        fix: "Give --amount in base units, e.g. 1000000 for 1 token of 6 decimals.",
      },
      SLIPPAGE_INVALID: {
        number: 7311,
        message: "--slippage {slippage} is not a percentage between 0 and 100",
        cause: "--slippage is not a percentage between 0 and 100.",
        fix: "Give --slippage as a percentage, e.g. 1 or 0.5.",
      },
      TX_HASH_INVALID: {
        number: 7312,
        message: "--tx {tx} is not a transaction hash (64 hex digits)",
        cause: "--tx is not 64 hex digits.",
        fix: "Give the transaction's hash, with or without 0x.",
      },
      ROUTE_OPTION_MISSING: {
        number: 7313,
        message: "{option} is required",
        cause: "An option the route needs was not given.",
        fix: "Give the option named.",
      },
      ROUTE_OPTION_INVALID: {
        number: 7314,
        message: "{option}: {problem}",
        cause:
          "An option of the route has a value the routing API would not take.",
        fix: "Correct the option named.",
      },
    },
    EVM_TX: {
      EVM_TX_FAILED: {
        number: 7400,
        message: "Tx failed {hash}{why}",
        cause:
          "An EVM transaction of the transfer was mined and reverted (ran out of gas, " +
          "or the reason a replay on the state after its block gives).",
        fix: "Look the transaction up on an explorer; run again with --new to start a new transfer.",
      },
      NONCE_USED_BY_OTHER: {
        number: 7401,
        message: joined(
          "nonce {nonce} of {from} was used by another transaction ({hash}), not by {what}: ",
          "the transfer stopped before it; check the account, ",
          "then run again with --new to start a new transfer. Journal: {journal}",
        ),
        cause:
          "While the transfer was stopped, another transaction took the nonce it had journalled.",
        fix: "Check the account, then run again with --new.",
      },
      NONCE_PENDING: {
        number: 7402,
        message: joined(
          "nonce {nonce} of {from} is pending but its transaction cannot be read: ",
          "run the same command again shortly",
        ),
        cause:
          "The node has a pending transaction at the journalled nonce it cannot show yet.",
        fix: "Run the same command again shortly.",
      },
      EVM_TX_NOT_MINED: {
        number: 7403,
        message: joined(
          "{what} {hash} was not mined within 10 minutes: ",
          "run the same command again to keep waiting",
        ),
        cause: "A sent EVM transaction was not in a block within 10 minutes.",
        fix: "Run the same command again to keep waiting.",
      },
      EVM_SEND_FAILED: {
        number: 7404,
        message: joined(
          "{what} failed when sent ({reason}): {hint}run the same command again, ",
          "which finds it by its nonce or sends it once",
        ),
        cause:
          "Sending an EVM transaction failed; it may have reached the node.",
        fix: "Run the same command again: it finds the transaction by its nonce or sends it once.",
      },
    },
    COSMOS_TX: {
      COSMOS_TX_FAILED: {
        number: 7500,
        message: "Tx failed {hash}: {log}",
        cause:
          "A Cosmos transaction of the transfer was in a block, and failed there.",
        fix: "Read the chain's log; run again with --new to start a new transfer.",
      },
      COSMOS_TX_NOT_TAKEN: {
        number: 7501,
        message: joined(
          "transaction {n} {hash} on {chainId} was not taken ({log}); nothing moved. ",
          RUN_AGAIN_NEW,
        ),
        cause:
          "The journal records that the chain refused the transaction, or that it was never sent.",
        fix: "Run again with --new to start the transfer anew.",
      },
      COSMOS_SEND_FAILED: {
        number: 7502,
        message: joined(
          "transaction {n} {hash} failed when sent ({reason}): it may have reached the chain; ",
          "run the same command again, which finds it by its hash or sends the same bytes once",
        ),
        cause:
          "Broadcasting a Cosmos transaction failed; it may have reached the chain.",
        fix:
          "Run the same command again: it finds the transaction by its hash " +
          "or resends the same bytes.",
      },
      COSMOS_TX_REFUSED: {
        number: 7503,
        message: joined(
          "{chainId} refused transaction {n} {hash} (code {code}: {log}); nothing moved. ",
          RUN_AGAIN_NEW,
        ),
        cause:
          "The chain refused the broadcast transaction (its check failed).",
        fix: "Read the chain's log, then run again with --new to start the transfer anew.",
      },
      NO_COSMOS_ACCOUNT: {
        number: 7504,
        message: joined(
          "{account} has no account on {chainId} ",
          "(it has never received tokens there): nothing was signed",
        ),
        cause: "The signer has no account on the chain to sign on.",
        fix: "Send the signer some tokens on that chain first.",
      },
      COSMOS_TX_NOT_INCLUDED: {
        number: 7505,
        message: joined(
          "transaction {n} {hash} is not in a block on {chainId} after {seconds} s: ",
          "run the same command again to keep waiting",
        ),
        cause: "A broadcast Cosmos transaction was not in a block in time.",
        fix: "Run the same command again to keep waiting.",
      },
      COSMOS_SEQUENCE_TAKEN: {
        number: 7506,
        message: joined(
          "sequence {sequence} of {account} on {chainId} was used, ",
          "but not by {hash} as far as the chain has indexed ",
          "(if another transaction of {account} took that sequence, {hash} can never land: ",
          "look up the account's transactions on an explorer, and only if {hash} is not among ",
          "them, move the journal {journal} aside to start over) after {seconds} s: ",
          "run the same command again to keep waiting",
        ),
        cause:
          "The account's sequence moved past the journalled transaction, which is not found.",
        fix: "Wait and run again; if another transaction took the sequence, move the journal aside.",
      },
      SIMULATION_REFUSED: {
        number: 7507,
        message:
          "{chainId} refused to simulate the transaction ({reason}): nothing was signed",
        cause:
          "The chain refused to simulate the transaction: it would refuse the transaction too.",
        fix: "Read the chain's reason (a balance, a denom, a channel) and act on it.",
      },
      INSUFFICIENT_FUNDS: {
        number: 7508,
        message: joined(
          "{signer} has {balance} {denom} on {chainId}, but the transaction needs {needed} ",
          "(fee {fee} for {gas} gas{moved}): nothing was signed",
        ),
        cause: "The signer cannot pay the transaction's fee and what it moves.",
        fix: "Fund the signer's account on that chain.",
      },
      HOOK_SIGNER_MISMATCH: {
        number: 7509,
        message: joined(
          "the op hook is to be signed by {expected} (the recipient), ",
          "but the signer is {signer}: send to the signer's own account; nothing was sent",
        ),
        cause:
          "The op hook's messages are for another account than the signer.",
        fix: "Send to the signer's own account.",
      },
      HOOK_NO_ACCOUNT: {
        number: 7510,
        message: joined(
          "the op hook must be signed with the account number of {account} on {chainId}, ",
          "which has no account there yet ",
          "(an account exists once it has received tokens): ",
          "fund it once over a route without an op hook, then run again; nothing was sent",
        ),
        cause: "The op hook's account does not exist yet on the hook's chain.",
        fix: "Fund it once over a route without an op hook, then run again.",
      },
      HOOK_SEQUENCE_MOVED: {
        number: 7511,
        message: joined(
          "the sequence of {account} on {chainId} moved from {from} to {to} ",
          "since the op hook was signed: the hook would fail when the deposit lands. ",
          "Nothing was sent; run again with --new to sign a new hook",
        ),
        cause:
          "The op hook's account sent something after the hook was signed.",
        fix: "Run again with --new to sign a new hook.",
      },
      MSG_SIGNER_MISMATCH: {
        number: 7512,
        message: joined(
          "a {typeUrl} message is to be signed by {expected}, ",
          "but the signer is {signer}: nothing was signed",
        ),
        cause: "A message to sign is for another account than the signer.",
        fix: "Run with the signer whose account the messages are for.",
      },
      SIGNATURE_WRONG_ACCOUNT: {
        number: 7513,
        message:
          "the signature is not by {hex} (the device signed with another account?): nothing was sent",
        cause:
          "The signature recovers to another account than the signer's (a Ledger on another account).",
        fix: "Select the signer's account on the device, then run again.",
      },
    },
    ROUTE_MESSAGES: {
      MSG_NOT_JSON: {
        number: 7600,
        message: "{where} ({typeUrl}): its msg is not JSON",
        cause: "The routing API gave a message whose msg is not JSON.",
        fix: "Ask for the route again; report it if it persists.",
      },
      MSG_TYPE_NOT_SIGNABLE: {
        number: 7601,
        message:
          "{where}: message type {typeUrl} is not one this tool signs (it signs {types})",
        cause:
          "The route holds a message type this tool cannot spell exactly as the chain does.",
        fix: "Ask for another route (other chains or denoms).",
      },
      MSG_NOT_OBJECT: {
        number: 7602,
        message: "{where} ({typeUrl}): the message is not a JSON object",
        cause: "A message of the route is not a JSON object.",
        fix: "Ask for the route again; report it if it persists.",
      },
      MSG_UNKNOWN_FIELD: {
        number: 7603,
        message:
          "{where} ({typeUrl}): field {field} is not a field of this message",
        cause: "A message of the route has a field its type does not have.",
        fix: "Ask for the route again; report it if it persists.",
      },
      MSG_SIGNER_MISSING: {
        number: 7604,
        message: "{where} ({typeUrl}): field {field} (the signer) is missing",
        cause: "A message of the route does not name its signer.",
        fix: "Ask for the route again; report it if it persists.",
      },
      MSG_TYPE_NOT_READABLE: {
        number: 7605,
        message: "{where}: message type {typeUrl} is not one this tool reads",
        cause: "A transaction holds a message type this tool does not know.",
        fix: "Only transactions of the message types this tool signs can be read.",
      },
      MSG_VALUE_KIND: {
        number: 7606,
        message: "{where} must be {kind}",
        cause: "A field of a message has a value of the wrong kind.",
        fix: "Ask for the route again; report it if it persists.",
      },
      MSG_UNKNOWN_SUBFIELD: {
        number: 7607,
        message: "{where}.{field} is not a field of {what}",
        cause: "A coin or a height in a message has a field it does not have.",
        fix: "Ask for the route again; report it if it persists.",
      },
      MSG_LIST_NOT_EMPTY: {
        number: 7608,
        message: joined(
          "{where} is not empty: this tool signs only messages without one ",
          "(it cannot check how the chain spells its entries)",
        ),
        cause: "A message has entries in a list this tool cannot sign exactly.",
        fix: "Ask for another route.",
      },
    },
    TASK_NETWORK: {
      NO_SUCH_NETWORK: {
        number: 7700,
        message: 'there is no network "{name}" in hardhat.config.ts',
        cause: "--network names a network the config does not have.",
        fix: "Give a network of hardhat.config.ts, or add it there.",
      },
      IN_PROCESS_NETWORK: {
        number: 7701,
        message: joined(
          'network "{name}" is Hardhat\'s in-process network{unnamed}: it starts empty ',
          "and vanishes when the command exits, so nothing done there is kept. ",
          "Nothing was sent: {fix}",
        ),
        cause: "A real operation was asked on Hardhat's in-process network.",
        fix: "Run with --network naming a rollup network that has a vip block.",
      },
      NOT_A_ROLLUP_NETWORK: {
        number: 7702,
        message: joined(
          'network "{name}" has no vip settings of its own in hardhat.config.ts, ',
          "so it is not taken for a rollup. Nothing was sent: {fix}",
        ),
        cause:
          "A real operation was asked on a network without a vip block in the config.",
        fix: "Add a vip block to the network, or run with --network naming one that has it.",
      },
      CHAIN_ID_MISMATCH: {
        number: 7703,
        message: joined(
          'network "{name}" is configured with chainId {configured}, but its node answers {answered}: ',
          "the url reaches another chain. Nothing was read",
        ),
        cause:
          "The network's chainId in hardhat.config.ts and the chain id its node answers differ " +
          "(Hardhat refuses such a connection; the scoring commands, which read without one, refuse it too).",
        fix: "Point the network's url at the rollup's node, or correct its chainId.",
      },
    },
    GOVERNANCE: {
      GOV_DURATION_INVALID: {
        number: 7710,
        message:
          '{what}: {field} {value} is not a duration in seconds (digits, an optional fraction, then "s", as "604800s")',
        cause:
          "The base chain's gov params give a voting period this tool cannot read " +
          "(Cosmos SDK writes durations as seconds followed by s).",
        fix: "Use another REST endpoint of the base chain, or report the node's answer.",
      },
    },
  },
  REGISTRY: {
    ENTRY: {
      ENTRY_FILE_UNREADABLE: {
        number: 8001,
        message: joined(
          "{file}: cannot be read (an entry has chain.json and assetlist.json in ",
          "its folder, and profiles/<chain_name>.json)",
        ),
        cause:
          "registry:check was pointed at a folder that lacks one of the entry's " +
          "files, or a file cannot be read.",
        fix:
          "Point --dir at the entry's folder: " +
          "<registry>/<mainnets|testnets|devnets>/<chain_name>.",
      },
      ENTRY_FILE_NOT_JSON: {
        number: 8002,
        message: "{file}: not valid JSON: {reason}",
        cause: "A file of the registry entry is not valid JSON.",
        fix: "Fix the JSON at the place the reason names.",
      },
      ENTRY_EXISTS: {
        number: 8003,
        message: "{file} exists: pass --force to overwrite the entry",
        cause: "registry:entry would overwrite a file of an existing entry.",
        fix: "Pass --force to overwrite it, or write to another registry checkout.",
      },
      ENTRY_PROBLEMS: {
        number: 8004,
        message: "{dir}: {count} problem(s), listed above",
        cause:
          "The entry fails the registry's schemas or its CI's rules; each problem " +
          "is printed above.",
        fix: "Fix each problem listed, then run registry:check again.",
      },
      INPUT_NOT_FOUND: {
        number: 8005,
        message: "{file}: not found",
        cause: "The --input file of registry:entry does not exist.",
        fix:
          "Give the path of the input file (example: " +
          "scripts/examples/registry-input.json).",
      },
      INPUT_NOT_JSON: {
        number: 8006,
        message: "{file}: not valid JSON: {reason}",
        cause: "The --input file of registry:entry is not valid JSON.",
        fix: "Fix the JSON at the place the reason names.",
      },
      INPUT_UNREADABLE: {
        number: 8007,
        message: "{file}: cannot be read: {reason}",
        cause:
          "The --input file of registry:entry exists but cannot be read (e.g. " +
          "permissions).",
        fix: "Make the file readable, then run again.",
      },
      INPUT_INVALID: {
        number: 8008,
        message: "{problems}",
        cause:
          "Fields of the --input file of registry:entry are missing or malformed; " +
          "each line names one.",
        fix: "Fix each field listed (example: scripts/examples/registry-input.json).",
      },
      ENTRY_WOULD_FAIL: {
        number: 8009,
        message: joined(
          "the entry would not pass the registry's checks; nothing was ",
          "written:\n{problems}",
        ),
        cause:
          "The entry built from the input and the rollup fails the registry's " +
          "checks, or disagrees with the node.",
        fix:
          "Fix the input (or the node's URLs) for each problem listed, then run " +
          "again.",
      },
      METADATA_NOT_URL: {
        number: 8024,
        message: joined(
          "--metadata {value} is not a URL: give the https URL of the proposal's ",
          "forum post",
        ),
        cause: "--metadata is not a URL.",
        fix: "Give the https URL of the proposal's forum post.",
      },
      METADATA_NOT_HTTPS: {
        number: 8025,
        message: joined(
          "--metadata {value} is not an https URL: give the https URL of the forum ",
          "post",
        ),
        cause: "--metadata is a URL, but not an https one.",
        fix: "Give the https URL of the proposal's forum post.",
      },
    },
    PROPOSAL: {
      RATE_REQUIRED: {
        number: 8010,
        message:
          "{option} is required: a decimal between 0 and 1, e.g. 0.1 for 10%",
        cause:
          "A commission rate option of proposal:whitelist is missing or blank.",
        fix: "Give the rate as a decimal between 0 and 1.",
      },
      RATE_NOT_DECIMAL: {
        number: 8011,
        message: joined(
          "{option} {value} is not a decimal (write it as 0.05, not 5%, 5e-2 or ",
          ".05)",
        ),
        cause: "A commission rate is not a plain decimal.",
        fix: "Write it as a plain decimal, e.g. 0.05.",
      },
      RATE_TOO_PRECISE: {
        number: 8012,
        message: "{option} {value} has more than {decimals} decimal places",
        cause:
          "A commission rate has more decimal places than Move's BigDecimal " +
          "carries.",
        fix: "Round the rate to 18 decimal places.",
      },
      RATE_ABOVE_ONE: {
        number: 8013,
        message: joined(
          "{option} {value} is above 1 (100%): the VIP module refuses any rate ",
          "above 1",
        ),
        cause: "A commission rate is above 1.",
        fix: "Give a rate between 0 and 1 (0.1 is 10%).",
      },
      RATE_ABOVE_MAX: {
        number: 8014,
        message: joined(
          "--commission-rate {rate} is above --commission-max-rate {max}: the VIP ",
          "module refuses it",
        ),
        cause:
          "The commission rate is above the maximum rate, which vip::register " +
          "refuses.",
        fix: "Lower --commission-rate or raise --commission-max-rate.",
      },
      MAX_CHANGE_ABOVE_MAX: {
        number: 8015,
        message: joined(
          "--commission-max-change-rate {maxChange} is above --commission-max-rate ",
          "{max}",
        ),
        cause:
          "The commission's maximum change rate is above its maximum rate.",
        fix: "Lower --commission-max-change-rate or raise --commission-max-rate.",
      },
      DEPOSIT_INVALID: {
        number: 8016,
        message:
          "--deposit {deposit} is not a coin amount such as 100000000uinit",
        cause: "--deposit is not an amount followed by a denom.",
        fix: "Write it as an amount and a denom, e.g. 100000000uinit.",
      },
      PROPOSAL_EXISTS: {
        number: 8017,
        message: "{file} exists: pass --force to overwrite it",
        cause: "The proposal file would overwrite an existing file.",
        fix: "Pass --force to overwrite it, or choose another --out.",
      },
      BRIDGE_ADDRESS_MISMATCH: {
        number: 8018,
        message: joined(
          "the rollup reports bridge {bridgeId} at {reported}, but that bridge's ",
          "address is {derived}: check ROLLUP_REST_URL points at this rollup",
        ),
        cause:
          "The bridge address the rollup reports is not the address its bridge id " +
          "derives to.",
        fix: "Check that ROLLUP_REST_URL (vip.rollupRestUrl) points at this rollup.",
      },
      NOT_A_VIPSCORE: {
        number: 8019,
        message: joined(
          "the contract at {address} does not answer as a VipScore (openStage, ",
          "initStage): {reason}",
        ),
        cause:
          "The contract the proposal names does not answer VipScore's calls.",
        fix: "Check --contract (or the deployment) names the VipScore contract.",
      },
      BRIDGE_REGISTERED: {
        number: 8020,
        message: joined(
          "bridge {bridgeId} is already registered in the VIP program: ",
          "vip::register would abort; no proposal is needed",
        ),
        cause: "The rollup's bridge is already registered in the VIP program.",
        fix: "Nothing to do: no proposal is needed.",
      },
      STAGE_BEHIND_PROGRAM: {
        number: 8021,
        message: joined(
          "the contract's open stage is {open}, but the VIP program is at stage ",
          "{program}: finalize stage {open}{through} first (npx hardhat ",
          "stage:finalize --stage {open} --network {network})",
        ),
        cause:
          "The contract's open stage is behind the VIP program's stage: the VIP " +
          "agent would read the wrong stage.",
        fix: "Finalize the contract's stages up to the program's, one at a time.",
      },
      STAGE_AHEAD_OF_PROGRAM: {
        number: 8022,
        message: joined(
          "the contract's open stage is {open}, but the VIP program is at stage ",
          "{program}: is this the right base chain?",
        ),
        cause: "The contract's open stage is ahead of the VIP program's stage.",
        fix:
          "Check L1_REST_URL and VIP_MODULE_ADDRESS name the base chain the rollup " +
          "settles on.",
      },
      TESTNET_BASE_CHAIN: {
        number: 8023,
        message: joined(
          "not written: the base chain {chainId} is a testnet; pass --force to ",
          "write the file anyway",
        ),
        cause:
          "The rollup settles on a testnet, whose rollups are onboarded by the VIP " +
          "program team, not by proposal.",
        fix: "Contact the VIP program team; pass --force to write the file anyway.",
      },
      POLICY_COUNT: {
        number: 8026,
        message: joined(
          "--policy {file} holds {count} policies: name the one policy file the ",
          "proposal publishes",
        ),
        cause:
          "--policy names a folder or file that does not hold exactly one policy.",
        fix: "Name the one policy file the proposal publishes.",
      },
    },
  },
  REHEARSE: {
    GENERAL: {
      HTTP_NETWORK: {
        number: 9000,
        message: joined(
          'rehearse runs only on an in-process network, and "{network}" is an HTTP network: ',
          "nothing was sent. Run `npx hardhat rehearse` without --network ",
          "(or with an edr-simulated network)",
        ),
        cause:
          "rehearse deploys, pushes and finalizes for real, so it refuses any network that " +
          "is not Hardhat's in-process one.",
        fix: "Run `npx hardhat rehearse` without --network, or with an edr-simulated network.",
      },
      NO_STAND_IN_FOR_CHAIN: {
        number: 9001,
        message: "no stand-in serves chain {chain}",
        cause:
          "During the rehearsal's transfer, the route named a chain none of the rehearsal's " +
          "stand-ins serves: the rehearsal's own routes are out of step.",
        fix: "Report it: the rehearsal's stand-in routes and chains must match.",
      },
      SCORES_NOT_FINAL: {
        number: 9002,
        message:
          "stage {stage}'s scores are not final, though both clocks are past its end",
        cause:
          "In the rehearsal, the sample policy's stage was scored after both the stand-in " +
          "base chain's clock and the in-process rollup's passed its end, yet not as final.",
        fix: "Report it: the rehearsal's clocks and the scoring of a closed window disagree.",
      },
      FOLDER_NOT_REHEARSALS: {
        number: 9003,
        message: joined(
          "{folder} holds files the rehearsal did not write (it has no {marker}): ",
          "refused, so none of them is deleted; nothing was run",
        ),
        cause:
          "The rehearsal empties its folder in the project before each run, and only a folder " +
          "an earlier rehearsal made (it holds the marker file) or an empty one.",
        fix: "Move those files elsewhere, or delete the folder if they are not needed, then run again.",
      },
    },
  },
  REPORT: {
    SITE: {
      SCORES_DIR_UNREADABLE: {
        number: 10001,
        message: "--scores-dir {dir}: no such folder, or it cannot be read",
        cause:
          "The folder given to scores:report does not exist or is not a readable folder.",
        fix:
          "Pass the folder the score files are written to (stage:autopilot's or scores:compute's " +
          "--scores-dir / --out).",
      },
      NO_SCORE_FILES: {
        number: 10002,
        message:
          "{dir} holds no score files (stage-N.csv or stage-N.final.csv): there is nothing to report",
        cause:
          "scores:report builds one page per stage from the score files it finds in the folder.",
        fix: "Pass the folder scores:compute or stage:autopilot writes the stages' files to.",
      },
      MANIFEST_UNREADABLE: {
        number: 10003,
        message: "{file} is not a stage manifest: {problem}",
        cause:
          "The stage's manifest (stage-N.manifest.json) is not JSON, or lacks a field the " +
          "report shows, or names its policy file with a path.",
        fix:
          "Write the stage's files again with scores:compute (or let stage:autopilot --policy " +
          "rewrite them); a manifest is never edited by hand.",
      },
      MANIFEST_MISMATCH: {
        number: 10004,
        message: "{manifest} does not describe {file}: {problem}",
        cause:
          "The manifest beside a score file names another file, another stage, another sha256, " +
          "address count or total than the file holds: the file or the manifest was changed " +
          "after they were written together.",
        fix:
          "Compute the stage again with scores:compute, which writes the file and its manifest " +
          "together, then build the report again.",
      },
      POLICY_NOT_FOUND: {
        number: 10005,
        message:
          "{manifest} names the policy file {policy}, which is not in {dir}",
        cause:
          "A stage page shows its policy's full SQL, read from the file the manifest names; " +
          "the report looks for it in --policy (default: --scores-dir).",
        fix: "Pass --policy <the policy file or its folder>, as given to scores:compute.",
      },
      POLICY_MISMATCH: {
        number: 10006,
        message:
          "{file} has sha256 {actual}, but {manifest} was computed under sha256 {expected}",
        cause:
          "The policy file found under the manifest's name is not the one the stage was " +
          "computed with: it was edited after the stage was scored.",
        fix:
          "Point --policy at the policy the stage was computed with (a policy in force is " +
          "never edited: a new one starts at a later stage with its own @from-stage).",
      },
      OUT_IS_FILE: {
        number: 10007,
        message: "--out {out} is a file: the report is a folder of pages",
        cause: "The path given to --out exists and is not a folder.",
        fix: "Pass a folder that does not exist yet, or one an earlier scores:report wrote.",
      },
      OUT_NOT_A_REPORT: {
        number: 10008,
        message:
          "--out {out} is a folder that holds other files and no earlier report: nothing was written",
        cause:
          "scores:report replaces its folder whole; it refuses a folder it did not write " +
          "(it has no .vip-report file), so no one's files are deleted.",
        fix: "Pass a new folder, an empty one, or one an earlier scores:report wrote.",
      },
      OUT_UNWRITABLE: {
        number: 10009,
        message: "cannot write the report to {out}: {reason}",
        cause:
          "Creating the report beside --out, or renaming it into place, failed (permissions, " +
          "a full disk).",
        fix: "Check that the folder holding --out is writable and has room, then run again.",
      },
    },
    COMPARE: {
      COMPARE_ROWS_UNORDERED: {
        number: 10100,
        message:
          "scores:compare: the {side} policy's scores are not in address order at {address}",
        cause:
          "scores:compare pairs the two policies' scores by merging two lists in address " +
          "order; a computation always hands its rows over in that order, each address once.",
        fix: "Report it: a computation's rows came back out of order or with an address twice.",
      },
      COMPARE_OUT_IS_FILE: {
        number: 10101,
        message:
          "--out {out} is a file: scores:compare writes a folder (compare.html, compare.csv and both policies)",
        cause:
          "The path given to scores:compare --out exists and is not a folder.",
        fix: "Pass a folder: a new one, or one that holds an earlier comparison.",
      },
      COMPARE_OUT_UNWRITABLE: {
        number: 10102,
        message:
          "cannot write the comparison to {out}: {reason}; nothing was written",
        cause:
          "Creating --out, writing a file beside its place or renaming it into place failed " +
          "(permissions, a full disk). The files written so far were removed.",
        fix: "Check that --out (or the folder holding it) is writable and has room, then run again.",
      },
      COMPARE_NO_PROPOSED_POLICY: {
        number: 10103,
        message:
          "--with {path} holds no policy in force for stage {stage}: its earliest starts at stage {earliest}",
        cause:
          "--with named a folder, and the proposed policy is picked from it as for --policy: " +
          "the highest @from-stage at or below the stage compared. A proposed policy usually " +
          "starts at a later stage than the one it is previewed on.",
        fix:
          "Pass the proposed policy's file itself (--with next/my.sql): a file is compared " +
          "whatever its @from-stage.",
      },
    },
  },
} as const satisfies {
  [Category in keyof typeof ERROR_CATEGORIES]: {
    [Sub in keyof (typeof ERROR_CATEGORIES)[Category]["sub"]]: Record<
      string,
      ErrorDescriptor
    >;
  };
};

/** One descriptor of the catalog, with where it sits. */
export interface CatalogEntry {
  category: keyof typeof ERRORS;
  subcategory: string;
  name: string;
  descriptor: ErrorDescriptor;
}

/** Every descriptor of the catalog, category by sub-category, as written. */
export function catalogEntries(): CatalogEntry[] {
  const categories: Record<
    string,
    Record<string, Record<string, ErrorDescriptor>>
  > = ERRORS;
  return Object.entries(categories).flatMap(([category, subcategories]) =>
    Object.entries(subcategories).flatMap(([subcategory, descriptors]) =>
      Object.entries(descriptors).map(([name, descriptor]) => ({
        category: category as keyof typeof ERRORS,
        subcategory,
        name,
        descriptor,
      })),
    ),
  );
}
