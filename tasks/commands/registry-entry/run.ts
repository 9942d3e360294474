import { readFile } from "node:fs/promises";

import { VipError } from "../../errors.js";
import { field, type Output } from "../../output.js";
import {
  buildEntry,
  type RegistryEntry,
  type RollupFacts,
} from "../../registry/entry.js";
import { writeEntry } from "../../registry/files.js";
import {
  type RegistryInput,
  registryInputSchema,
} from "../../registry/input.js";
import { checkAgainstNode, checkEntry } from "../../registry/validate.js";

/**
 * The operator's input file, checked; each problem names the file and the
 * field.
 */
export async function readRegistryInput(file: string): Promise<RegistryInput> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new VipError(
      `${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : `not valid JSON: ${(error as Error).message}`}`,
    );
  }
  const parsed = registryInputSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) =>
        `${file}: ${issue.path.join(".") || "(the file)"}: ${issue.message}`,
    );
    throw new VipError(problems.join("\n"));
  }
  return parsed.data;
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
    throw new VipError(
      `the entry would not pass the registry's checks; nothing was written:\n${problems.join("\n")}`,
    );
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
      `profiles/${input.chain_name}.json: vip.actions is empty: describe what earns a score (the scoring policy) before the pull request`,
    );
  out.line(
    `next: open a pull request with these files on initia-labs/initia-registry; \`npx hardhat registry:check --dir ${registryDir}/${networkFolder}/${input.chain_name}\` re-checks them after edits`,
  );
  return entry;
}
