/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access,
   @typescript-eslint/no-unsafe-argument, @typescript-eslint/restrict-template-expressions --
   the registry's conditional rules walk entries the zod schemas have already judged: a field of the
   wrong shape there is reported by the schema's own problem, and printed as found. */
import {
  AssetListSchema,
  ChainSchema,
  ProfileSchema,
} from "@initia/initia-registry-types/zod";
import type { z } from "zod";

import { registryEvmChainId } from "./evm-chain-id.js";
import { l2Denom } from "./op-denom.js";

/** A registry entry's three files, as parsed JSON (unchecked). */
export interface EntryFiles {
  chain: unknown;
  assetlist: unknown;
  /**
   * Undefined when the entry has no `profiles/<chain_name>.json`: required of
   * mainnet entries only.
   */
  profile: unknown;
}

/**
 * Where the entry sits in the registry: `<network folder>/<folder>/chain.json`
 * and `profiles/<profile>.json`.
 */
export interface EntryPlace {
  networkFolder: string;
  folder: string;
  profileFile: string;
}

const NETWORK_FOLDERS: Record<string, string> = {
  mainnets: "mainnet",
  testnets: "testnet",
  devnets: "devnet",
};
const SECURE_APIS = ["rpc", "rest", "api", "json-rpc", "indexer"];

/** Records a problem at `<file>: <json path>`. */
type AddProblem = (file: string, path: string, message: string) => void;

/** An entry's files as the rules read them: `{}` for a missing one. */
interface EntryJson {
  chain: Record<string, any>;
  assetlist: Record<string, any>;
  profile: Record<string, any>;
}

/**
 * Every problem of an entry, each as `<file>: <json path>: <what is wrong>`:
 * the registry's own schemas (@initia/initia-registry-types) and the rules its
 * CI applies that the schemas do not encode.
 */
export function checkEntry(files: EntryFiles, place: EntryPlace): string[] {
  const problems = [
    ...schemaProblems("chain.json", ChainSchema, files.chain),
    ...schemaProblems("assetlist.json", AssetListSchema, files.assetlist),
    ...(files.profile === undefined
      ? []
      : schemaProblems(place.profileFile, ProfileSchema, files.profile)),
  ];
  const json: EntryJson = {
    chain: (files.chain ?? {}) as Record<string, any>,
    assetlist: (files.assetlist ?? {}) as Record<string, any>,
    profile: (files.profile ?? {}) as Record<string, any>,
  };
  const add: AddProblem = (file, path, message) =>
    problems.push(`${file}: ${path}: ${message}`);
  placeProblems(json, place, add);
  profileProblems(json, files.profile !== undefined, place, add);
  apiProblems(json.chain, add);
  problems.push(...rollupProblems(json, add));
  minievmProblems(json.chain, add);
  return problems;
}

/** The names agree with the entry's folders, and the files with each other. */
function placeProblems(
  { chain, assetlist }: EntryJson,
  place: EntryPlace,
  add: AddProblem,
): void {
  if (chain.chain_name !== place.folder)
    add(
      "chain.json",
      "chain_name",
      `is "${chain.chain_name}", but the folder is "${place.folder}": they must be equal`,
    );
  const expectedType = NETWORK_FOLDERS[place.networkFolder];
  if (expectedType === undefined)
    add(
      "chain.json",
      "network_type",
      `the entry is under "${place.networkFolder}", not mainnets/, testnets/ or devnets/`,
    );
  else if (chain.network_type !== expectedType)
    add(
      "chain.json",
      "network_type",
      `is "${chain.network_type}", but the entry is under ${place.networkFolder}/: ` +
        `must be "${expectedType}"`,
    );
  if (assetlist.chain_name !== chain.chain_name)
    add(
      "assetlist.json",
      "chain_name",
      `is "${assetlist.chain_name}", must be "${chain.chain_name}"`,
    );
}

/** The profile: present for a mainnet entry, named and sized as the registry wants. */
function profileProblems(
  { chain, profile }: EntryJson,
  hasProfile: boolean,
  place: EntryPlace,
  add: AddProblem,
): void {
  if (!hasProfile) {
    if (place.networkFolder === "mainnets")
      add(
        place.profileFile,
        "(the file)",
        "is missing: a mainnet entry needs its profile (testnet entries may go without)",
      );
  } else if (profile.name !== chain.chain_name)
    add(
      place.profileFile,
      "name",
      `is "${profile.name}", must be the chain name "${chain.chain_name}"`,
    );
  if (
    typeof profile.description === "string" &&
    profile.description.length > 140
  )
    add(
      place.profileFile,
      "description",
      `has ${profile.description.length} characters; at most 140`,
    );
  if (typeof profile.summary === "string" && profile.summary.length > 50)
    add(
      place.profileFile,
      "summary",
      `has ${profile.summary.length} characters; at most 50`,
    );
  if (
    typeof profile.logo === "string" &&
    !/^https:\/\/.+\.png$/.test(profile.logo)
  )
    add(place.profileFile, "logo", "must be an https URL of a .png image");
}

/** Every endpoint of the public APIs is https. */
function apiProblems(chain: Record<string, any>, add: AddProblem): void {
  for (const api of SECURE_APIS) {
    for (const [i, endpoint] of (
      (chain.apis?.[api] ?? []) as { address?: string }[]
    ).entries()) {
      if (
        typeof endpoint?.address === "string" &&
        !endpoint.address.startsWith("https://")
      )
        add("chain.json", `apis.${api}[${i}].address`, "must be https://");
    }
  }
}

/**
 * A rollup's bridge metadata, and its `l2/…` denoms against the bridge's
 * (returned whole, as `l2DenomProblems` words them).
 */
function rollupProblems(
  { chain, assetlist }: EntryJson,
  add: AddProblem,
): string[] {
  const metadata = chain.metadata as Record<string, any> | undefined;
  if (metadata === undefined || metadata.is_l1 === true) return [];
  const bridgeId =
    typeof metadata.op_bridge_id === "string" &&
    /^\d+$/.test(metadata.op_bridge_id)
      ? BigInt(metadata.op_bridge_id)
      : undefined;
  if (bridgeId === undefined)
    add(
      "chain.json",
      "metadata.op_bridge_id",
      "is required for a rollup: the OPinit bridge id, as a decimal string",
    );
  if (!Array.isArray(metadata.op_denoms) || metadata.op_denoms.length === 0)
    add(
      "chain.json",
      "metadata.op_denoms",
      'is required for a rollup: the base-chain denoms its bridge carries, e.g. ["uinit"]',
    );
  if (bridgeId === undefined || !Array.isArray(metadata.op_denoms)) return [];
  return l2DenomProblems(
    chain,
    assetlist,
    bridgeId,
    metadata.op_denoms as string[],
  );
}

/** A minievm rollup's EVM chain id, by the registry's rule, and its JSON-RPC. */
function minievmProblems(chain: Record<string, any>, add: AddProblem): void {
  if (chain.metadata?.minitia?.type !== "minievm") return;
  if (typeof chain.evm_chain_id !== "number")
    add("chain.json", "evm_chain_id", "is required for a minievm rollup");
  else if (
    typeof chain.chain_id === "string" &&
    BigInt(chain.evm_chain_id) !== registryEvmChainId(chain.chain_id)
  ) {
    add(
      "chain.json",
      "evm_chain_id",
      `is ${chain.evm_chain_id}, but the registry's rule gives ` +
        `${registryEvmChainId(chain.chain_id)} for chain id "${chain.chain_id}"`,
    );
  }
  for (const api of ["json-rpc", "json-rpc-websocket"]) {
    if (!Array.isArray(chain.apis?.[api]) || chain.apis[api].length === 0)
      add("chain.json", `apis.${api}`, "is required for a minievm rollup");
  }
}

/** Rollup facts to check an entry against: what the node itself answers. */
export interface LiveFacts {
  chainId: string;
  evmChainId: bigint;
  bridgeId: bigint;
}

/** The entry's chain id, EVM chain id and bridge id against the node's. */
export function checkAgainstNode(
  chain: Record<string, any>,
  live: LiveFacts,
): string[] {
  const problems: string[] = [];
  if (chain.chain_id !== live.chainId)
    problems.push(
      `chain.json: chain_id: is "${chain.chain_id}", but the node says "${live.chainId}"`,
    );
  if (
    chain.evm_chain_id !== undefined &&
    BigInt(chain.evm_chain_id) !== live.evmChainId
  ) {
    problems.push(
      `chain.json: evm_chain_id: is ${chain.evm_chain_id}, ` +
        `but the node's eth_chainId is ${live.evmChainId}`,
    );
  }
  if (chain.metadata?.op_bridge_id !== live.bridgeId.toString()) {
    problems.push(
      `chain.json: metadata.op_bridge_id: is "${chain.metadata?.op_bridge_id}", ` +
        `but the rollup's bridge is ${live.bridgeId}`,
    );
  }
  return problems;
}

/**
 * An `l2/…` denom among the fee tokens or assets must be one of the op denoms
 * bridged through this bridge.
 */
function l2DenomProblems(
  chain: Record<string, any>,
  assetlist: Record<string, any>,
  bridgeId: bigint,
  opDenoms: string[],
): string[] {
  const allowed = new Set(opDenoms.map((denom) => l2Denom(bridgeId, denom)));
  const where: [string, string, unknown][] = [
    ...((chain.fees?.fee_tokens ?? []) as { denom?: string }[]).map(
      (t, i) =>
        ["chain.json", `fees.fee_tokens[${i}].denom`, t?.denom] as [
          string,
          string,
          unknown,
        ],
    ),
    ...((assetlist.assets ?? []) as { base?: string }[]).map(
      (a, i) =>
        ["assetlist.json", `assets[${i}].base`, a?.base] as [
          string,
          string,
          unknown,
        ],
    ),
  ];
  return where
    .filter(
      ([, , denom]) =>
        typeof denom === "string" &&
        denom.startsWith("l2/") &&
        !allowed.has(denom),
    )
    .map(
      ([file, path, denom]) =>
        `${file}: ${path}: ${denom} is not the rollup denom of any op_denom ` +
        `through bridge ${bridgeId} (expected one of ${[...allowed].join(", ")})`,
    );
}

function schemaProblems(
  file: string,
  schema: z.ZodTypeAny,
  value: unknown,
): string[] {
  const parsed = schema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map(
    (issue) =>
      `${file}: ${jsonPath(issue.path) || "(the file)"}: ${issue.message}`,
  );
}

function jsonPath(path: (string | number)[]): string {
  return path
    .map((part, i) =>
      typeof part === "number" ? `[${part}]` : i === 0 ? part : `.${part}`,
    )
    .join("");
}
