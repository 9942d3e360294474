import { readFile } from "node:fs/promises";
import path from "node:path";

/** One line of a profile's summary: where the time went, and how much. */
export interface ProfileLine {
  where: string;
  seconds: number;
  share: number;
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * A V8 CPU profile (`node --cpu-prof`) summed by where each sample's own
 * time went: the function and its file (the project's own files by their
 * path in it, a package by its name), V8's garbage collector, and idle time
 * (the process waiting: for the node, for DuckDB's thread). The largest
 * first, `most` lines, the rest summed in one.
 */
export async function summarizeProfile(
  file: string,
  most = 15,
): Promise<ProfileLine[]> {
  const profile = JSON.parse(await readFile(file, "utf8")) as CpuProfile;
  const whereOf = new Map(
    profile.nodes.map((node) => [node.id, placeOf(node.callFrame)]),
  );
  const micros = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const where = whereOf.get(id) ?? "(unknown)";
    micros.set(where, (micros.get(where) ?? 0) + delta);
    total += delta;
  });
  const lines = [...micros.entries()]
    .map(([where, us]) => ({ where, seconds: us / 1e6, share: us / total }))
    .sort((a, b) => b.seconds - a.seconds);
  const rest = lines.slice(most);
  return rest.length === 0
    ? lines
    : [
        ...lines.slice(0, most),
        {
          where: `${rest.length} other places`,
          seconds: rest.reduce((sum, l) => sum + l.seconds, 0),
          share: rest.reduce((sum, l) => sum + l.share, 0),
        },
      ];
}

function placeOf({
  functionName,
  url,
  lineNumber,
}: CpuProfile["nodes"][number]["callFrame"]): string {
  if (url === "") return functionName === "" ? "(anonymous)" : functionName;
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  const file =
    packageName ??
    (url.startsWith("node:")
      ? url
      : path.relative(process.cwd(), url.replace(/^file:\/\//, "")));
  return `${functionName === "" ? "(anonymous)" : functionName} ${file}${
    packageName === undefined ? `:${lineNumber + 1}` : ""
  }`;
}
