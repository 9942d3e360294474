import { field, formatNumber, formatUnixTime, safeText } from "../output.js";
import type { EvidenceRow, SourceEvidence } from "./evidence.js";
import { type Explanation, windowText } from "./explain.js";
import { windowLabel } from "../scoring/target.js";

/** Earlier rows listed one by one before they are summarised (without --all). */
const EARLIER_SHOWN = 10;

function rowLine(row: EvidenceRow): string {
  const params = Object.entries(row.params)
    .map(([name, value]) => `${name}=${safeText(String(value), 80)}`)
    .join(" ");
  const place = row.inWindow ? "window" : "earlier";
  return (
    `    block ${row.block} ${formatUnixTime(row.time)} tx ${row.txHash} ` +
    `(#${row.txIndex}, log ${row.logIndex}) [${place}] ${params}`
  );
}

/** A long earlier history as its count, first and last rows. */
function earlierLines(rows: EvidenceRow[], all: boolean): string[] {
  if (all || rows.length <= EARLIER_SHOWN) return rows.map(rowLine);
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first === undefined || last === undefined) return [];
  return [
    `    earlier history: ${formatNumber(rows.length)} rows ` +
      `(first and last below; --all lists every one)`,
    rowLine(first),
    rowLine(last),
  ];
}

function sourceLines(source: SourceEvidence, all: boolean): string[] {
  const inWindow = source.rows.filter((row) => row.inWindow);
  const earlier = source.rows.filter((row) => !row.inWindow);
  const head =
    `  ${source.table}: ${safeText(source.event, 200)} at ${source.contract}: ` +
    (source.addressColumns.length === 0
      ? "no address parameter, so no row names an address"
      : `${formatNumber(inWindow.length)} rows in the window, ` +
        `${formatNumber(earlier.length)} earlier ` +
        `(looked for in ${source.addressColumns.join(", ")})`);
  return [head, ...earlierLines(earlier, all), ...inWindow.map(rowLine)];
}

function onChainLine(explained: Explanation): string {
  const held = explained.onChain;
  if (held === undefined)
    return explained.stage === null
      ? "not asked: a trial window is no stage of the contract (--stage-number N compares with stage N)"
      : "no contract deployed on this network";
  const state = held.finalized ? "finalized" : "not finalized";
  const same =
    held.score === explained.score
      ? "equal to the policy's score"
      : `DIFFERS from the policy's ${explained.score}`;
  return `${held.score} at ${held.contract} (stage ${state}): ${same}`;
}

/** The explanation as lines a person reads, evidence in chain order. */
export function explanationLines(
  explained: Explanation,
  all: boolean,
): string[] {
  const scored = explained.scored ? "" : " (the policy does not score it)";
  return [
    field(
      explained.trial ? "window" : "stage",
      (explained.trial
        ? `${windowLabel({ ...explained.window, stage: explained.stage }, true)} (a trial)`
        : `${explained.stage}: ${windowText(explained.window)}`) +
        `, rollup blocks ${explained.blocks.first}–${explained.blocks.last}` +
        (explained.final
          ? " (final)"
          : explained.trial
            ? ""
            : " (live: the window is open)"),
    ),
    field(
      "policy",
      `${explained.policy.name} (${explained.policy.file}, sha256 ${explained.policy.sha256})`,
    ),
    field("address", explained.address),
    field("score", `${explained.score}${scored}`),
    field(
      "rank",
      `${explained.rank} of ${formatNumber(explained.addresses)} addresses`,
    ),
    field("share", `${explained.share} % of ${explained.total}`),
    field("on chain", onChainLine(explained)),
    "evidence (every row naming the address, up to the stage's last block):",
    ...explained.evidence.flatMap((source) => sourceLines(source, all)),
  ];
}
