import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";

import { expect } from "chai";

import { defined } from "../../tasks/errors.js";
import { PROJECT_ROOT } from "../helpers/hardhat-cli.js";

/** Every file under `dir` whose name ends with `extension`. */
function sources(dir: string, extension: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory()
      ? sources(file, extension)
      : file.endsWith(extension)
        ? [file]
        : [];
  });
}

interface Manifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifest = JSON.parse(
  readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"),
) as Manifest;

/**
 * The npm package a specifier names, or undefined for a relative path or a Node
 * built-in.
 */
function packageName(specifier: string): string | undefined {
  if (
    specifier.startsWith(".") ||
    specifier.startsWith("node:") ||
    builtinModules.includes(specifier)
  )
    return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@")
    ? parts.slice(0, 2).join("/")
    : defined(parts[0], "parts[0]");
}

/**
 * Each run-time import of the package's code: TypeScript that loads code, and
 * Solidity it ships.
 */
function runtimeImports(): { file: string; specifier: string }[] {
  const found: { file: string; specifier: string }[] = [];
  const scan = (files: string[], pattern: RegExp) => {
    for (const file of files)
      for (const match of readFileSync(file, "utf8").matchAll(pattern)) {
        const specifier = match.slice(1).find((group) => group !== undefined);
        found.push({
          file: path.relative(PROJECT_ROOT, file),
          specifier: defined(specifier, "the import's specifier"),
        });
      }
  };
  // Static and dynamic imports that load code (type-only imports vanish at
  // build time).
  scan(
    [
      ...sources(path.join(PROJECT_ROOT, "tasks"), ".ts"),
      ...sources(path.join(PROJECT_ROOT, "ignition", "modules"), ".ts"),
    ],
    /^(?!import type)(?:import|export)[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|^import\s+"([^"]+)"/gm,
  );
  scan(
    sources(path.join(PROJECT_ROOT, "contracts"), ".sol"),
    /^import\s+(?:[^;]*?from\s+)?"([^"]+)"/gm,
  );
  return found;
}

describe("the package's boundaries", () => {
  it("imports at run time only its dependencies and peers: a devDependency would be missing in a user's project", () => {
    const allowed = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const offending = runtimeImports()
      .filter(({ specifier }) => {
        const name = packageName(specifier);
        return name !== undefined && !allowed.has(name);
      })
      .map(({ file, specifier }) => `${file}: ${specifier}`);
    expect(offending).to.deep.equal([]);
  });

  it("imports every dependency and every required peer it declares: nothing is installed for nothing", () => {
    const imported = new Set(
      runtimeImports().map(({ specifier }) => packageName(specifier)),
    );
    const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
    );
    const unused = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...requiredPeers,
    ].filter((name) => !imported.has(name));
    expect(unused).to.deep.equal([]);
  });

  it("imports between the folders of tasks/ point one way: no folder reaches back to one that imports it", () => {
    const tasks = path.join(PROJECT_ROOT, "tasks");
    const folderOf = (file: string) => {
      const parts = path.relative(tasks, file).split(path.sep);
      return parts.length > 1 ? (parts[0] ?? "") : "";
    };
    const edges = new Map<string, Set<string>>();
    for (const file of sources(tasks, ".ts"))
      for (const match of readFileSync(file, "utf8").matchAll(
        /from\s+"(\.{1,2}\/[^"]+)"/g,
      )) {
        const target = path.resolve(path.dirname(file), match[1] ?? "");
        const [from, to] = [folderOf(file), folderOf(target)];
        if (!target.startsWith(tasks) || from === to || to === "") continue;
        edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    /** A path of imports from `folder` back to itself, if there is one. */
    const cycleFrom = (folder: string): string[] | undefined => {
      const seen = new Set<string>();
      const walk = (at: string, trail: string[]): string[] | undefined => {
        for (const next of edges.get(at) ?? []) {
          if (next === folder) return [...trail, next];
          if (seen.has(next)) continue;
          seen.add(next);
          const found = walk(next, [...trail, next]);
          if (found !== undefined) return found;
        }
        return undefined;
      };
      return walk(folder, [folder]);
    };
    const cycles = [...edges.keys()]
      .map(cycleFrom)
      .filter((cycle) => cycle !== undefined)
      .map((cycle) => cycle.join(" -> "));
    expect(edges.size).to.be.greaterThan(10);
    expect(cycles).to.deep.equal([]);
  });
});
