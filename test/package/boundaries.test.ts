import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";

import { expect } from "chai";

import { PROJECT_ROOT } from "../helpers/hardhat-cli.js";
import { defined } from "../../tasks/errors.js";

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory()
      ? sources(file)
      : file.endsWith(".ts")
        ? [file]
        : [];
  });
}

describe("the package's boundaries", () => {
  it("imports at run time only its dependencies and peers: a devDependency would be missing in a user's project", () => {
    const manifest = JSON.parse(
      readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"),
    ) as Record<string, Record<string, string>>;
    const allowed = new Set([
      ...Object.keys(defined(manifest.dependencies, "manifest.dependencies")),
      ...Object.keys(
        defined(manifest.peerDependencies, "manifest.peerDependencies"),
      ),
    ]);
    const offending: string[] = [];
    for (const file of [
      ...sources(path.join(PROJECT_ROOT, "tasks")),
      ...sources(path.join(PROJECT_ROOT, "ignition", "modules")),
    ]) {
      const text = readFileSync(file, "utf8");
      // Static and dynamic imports that load code (type-only imports vanish at build time).
      for (const match of text.matchAll(
        /^(?!import type)(?:import|export)[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|^import\s+"([^"]+)"/gm,
      )) {
        const specifier = match[1] ?? match[2] ?? defined(match[3], "match[3]");
        if (
          specifier.startsWith(".") ||
          specifier.startsWith("node:") ||
          builtinModules.includes(specifier)
        )
          continue;
        const name = specifier.startsWith("@")
          ? specifier.split("/").slice(0, 2).join("/")
          : defined(specifier.split("/")[0], 'specifier.split("/")[0]');
        if (!allowed.has(name))
          offending.push(`${path.relative(PROJECT_ROOT, file)}: ${specifier}`);
      }
    }
    expect(offending).to.deep.equal([]);
  });
});
