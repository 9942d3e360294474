import { field, safeText } from "../output.js";
import type { PolicyCheck } from "./check-engine.js";
import { LOG_COLUMN_TYPES, LOG_COLUMNS } from "../policy/engine-policy.js";
import type { Policy } from "../policy/parse.js";
import { listConstructs } from "../policy/place.js";
import { sqlName } from "../policy/sql-names.js";

/**
 * What `scores:check` says of an admitted policy: its name, the stages it is
 * in force for, each source's table with its columns and their SQL types
 * (as the policy writes them), and whether a stage runs it twice.
 */
export function policyLines(
  policy: Policy,
  until: bigint | undefined,
  check: PolicyCheck,
): string[] {
  const lines = [
    field("policy", `${safeText(policy.name, 80)} (${policy.file})`),
    field(
      "stages",
      until === undefined
        ? `${policy.fromStage} onwards`
        : `${policy.fromStage} to ${until}`,
    ),
    field("sha256", policy.sha256),
  ];
  for (const source of policy.sources) {
    lines.push(
      field(
        `source ${source.table}`,
        `${safeText(source.event.format("full"), 200)} at ${source.address}` +
          (source.fromBlock > 0n ? ` from block ${source.fromBlock}` : ""),
      ),
    );
    const columns = [
      ...LOG_COLUMNS.map((name) => `${name} ${LOG_COLUMN_TYPES[name]}`),
      ...source.columns.map((c) => `${sqlName(c.name)} ${c.sql}`),
    ];
    lines.push(field("", `reads ${columns.join(", ")}`));
  }
  lines.push(
    field(
      "admitted",
      check.undecided.length === 0
        ? `runs once (${check.engine})`
        : `runs twice, the second time in reverse chain order, where the order decides (${check.engine}):\n` +
            listConstructs(policy.file, check.undecided),
    ),
  );
  return lines;
}
