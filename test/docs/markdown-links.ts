// Links and headings of Markdown pages, read as GitHub renders them: enough to
// tell whether a relative link and its #anchor lead somewhere.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The text with fenced code blocks blanked out. */
function withoutFences(text: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      lines.push("");
    } else if (fence !== undefined) {
      if (marker !== undefined && marker.startsWith(fence)) fence = undefined;
      lines.push("");
    } else lines.push(line);
  }
  return lines.join("\n");
}

/** The text with fenced code blocks and inline code spans blanked out. */
function withoutCode(text: string): string {
  return withoutFences(text).replace(/(`+)[^`]*?\1/g, "");
}

/** Every link target of a page: inline links, images and reference definitions. */
function linkTargets(text: string): string[] {
  const prose = withoutCode(text);
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)];
  const references = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s+<?(\S+?)>?$/gm)];
  return [...inline, ...references].map((match) => match[1] ?? "");
}

/** A heading's words as GitHub shows them: inline markup dropped. */
function headingText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__|\*)/g, "")
    .replace(/<[^>]+>/g, "")
    .trim();
}

/**
 * A heading's anchor as GitHub makes it (github-slugger): lowercased, every
 * character that is not a letter, a mark, a digit, `_`, `-` or a space
 * dropped, spaces made `-`.
 */
export function githubSlug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page has: its headings' slugs (repeats numbered as GitHub numbers them). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(text).split("\n")) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** A target outside the repository (http:, https:, mailto:): never fetched. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/**
 * What is wrong with the links of the page at `file`: a relative target that
 * does not exist, or an anchor no heading of its page has. External links
 * are left alone.
 */
export function brokenLinks(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const problems: string[] = [];
  for (const target of linkTargets(text)) {
    if (isExternal(target)) continue;
    const [rawPath = "", anchor] = target.split("#", 2);
    const linked =
      rawPath === ""
        ? file
        : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
    if (!existsSync(linked)) {
      problems.push(`${target}: no such file`);
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (statSync(linked).isDirectory() || !linked.endsWith(".md")) {
      problems.push(`${target}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!anchorsOf(readFileSync(linked, "utf8")).has(anchor))
      problems.push(`${target}: no heading has the anchor #${anchor}`);
  }
  return problems;
}
