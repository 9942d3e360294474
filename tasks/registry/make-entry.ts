import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";
import { readJsonFile } from "../files/json.js";
import { field, type Output } from "../output.js";
import { buildEntry, type RegistryEntry, type RollupFacts } from "./entry.js";
import { writeEntry } from "./files.js";
import { type RegistryInput, registryInputSchema } from "./input.js";
import { checkAgainstNode, checkEntry } from "./validate.js";

/**
 * The operator's input file, checked; each problem names the file and the
 * field.
 */
export async function readRegistryInput(file: string): Promise<RegistryInput> {
  const parsed = registryInputSchema.safeParse(await readJsonInput(file));
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) =>
        `${file}: ${issue.path.join(".") || "(the file)"}: ${issue.message}`,
    );
    throw new VipError(ERRORS.REGISTRY.ENTRY.INPUT_INVALID, {
      problems: problems.join("\n"),
    });
  }
  return parsed.data;
}

/** The input file's JSON, unchecked; a missing or broken file says which. */
function readJsonInput(file: string): Promise<unknown> {
  return readJsonFile(file, {
    missing: (cause) =>
      new VipError(ERRORS.REGISTRY.ENTRY.INPUT_NOT_FOUND, { file }, cause),
    unreadable: (reason, cause) =>
      new VipError(
        ERRORS.REGISTRY.ENTRY.INPUT_UNREADABLE,
        { file, reason },
        cause,
      ),
    notJson: (reason, cause) =>
      new VipError(
        ERRORS.REGISTRY.ENTRY.INPUT_NOT_JSON,
        { file, reason },
        cause,
      ),
  });
}

/**
 * Builds the entry from the input and the rollup's facts, validates it whole,
 * and writes it only if it passes.
 */
export async function runRegistryEntry(
  registryDir: string,
  input: RegistryInput,
  facts: RollupFacts,
  force: boolean,
  out: Output,
): Promise<RegistryEntry> {
  const entry = buildEntry(input, facts);
  const networkFolder = `${input.network_type}s`;
  const problems = [
    ...checkEntry(entry, {
      networkFolder,
      folder: input.chain_name,
      profileFile: `profiles/${input.chain_name}.json`,
    }),
    ...checkAgainstNode(entry.chain, facts),
  ];
  if (problems.length > 0)
    throw new VipError(ERRORS.REGISTRY.ENTRY.ENTRY_WOULD_FAIL, {
      problems: problems.join("\n"),
    });
  out.line(
    field(
      "chain id",
      `${facts.chainId} (EVM ${facts.evmChainId}, the registry's rule holds)`,
    ),
  );
  out.line(
    field(
      "bridge",
      `${facts.bridgeId}, op denoms ${input.op_denoms.join(", ")}`,
    ),
  );
  out.line(field("version", `minievm ${facts.version}`));
  for (const file of await writeEntry(registryDir, networkFolder, entry, force))
    out.line(field("written", file));
  if (input.vip.actions.length === 0)
    out.warn(
      `profiles/${input.chain_name}.json: vip.actions is empty: describe what ` +
        "earns a score (the scoring policy) before the pull request",
    );
  const dir = `${registryDir}/${networkFolder}/${input.chain_name}`;
  out.line(
    "next: open a pull request with these files on initia-labs/initia-registry; " +
      `\`npx hardhat registry:check --dir ${dir}\` re-checks them after edits`,
  );
  return entry;
}
