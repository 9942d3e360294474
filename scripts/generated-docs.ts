// What the documentation generators share (scripts/errors-doc.ts,
// scripts/docs-tasks.ts): where the pages go, and writing them, or with
// `--check` only comparing them with what is on disk.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DOCS_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "docs",
);

/** A page a generator makes: its path and its whole text. */
export interface GeneratedPage {
  file: string;
  text: string;
}

/** True when the module at `moduleUrl` is the script node was asked to run. */
export function isMainModule(moduleUrl: string): boolean {
  return process.argv[1] === fileURLToPath(moduleUrl);
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The Markdown files of `folder` that no page of `pages` is. */
function extraPages(pages: readonly GeneratedPage[], folder: string): string[] {
  const made = new Set(pages.map((page) => path.resolve(page.file)));
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.resolve(folder, name))
    .filter((file) => !made.has(file));
}

/**
 * The files that are not what the generator makes: a page missing or
 * different on disk, and, when the generator owns `folder`, any other
 * Markdown file in it (a page of something that no longer exists).
 */
export function stalePages(
  pages: readonly GeneratedPage[],
  folder?: string,
): string[] {
  const differing = pages
    .filter((page) => readOrUndefined(page.file) !== page.text)
    .map((page) => page.file);
  return [
    ...differing,
    ...(folder === undefined ? [] : extraPages(pages, folder)),
  ];
}

/**
 * A generator's command line: writes the pages (and, in a folder it owns,
 * removes the pages it no longer makes), or with `--check` lists the stale
 * files and exits 1.
 */
export function writeOrCheck(
  pages: readonly GeneratedPage[],
  command: string,
  folder?: string,
): void {
  if (process.argv.includes("--check")) {
    const stale = stalePages(pages, folder);
    for (const file of stale)
      console.error(
        `${path.relative(process.cwd(), file)} is out of date: run ${command}`,
      );
    if (stale.length > 0) process.exit(1);
    return;
  }
  if (folder !== undefined) {
    mkdirSync(folder, { recursive: true });
    for (const file of extraPages(pages, folder)) rmSync(file);
  }
  for (const page of pages) writeFileSync(page.file, page.text);
}
