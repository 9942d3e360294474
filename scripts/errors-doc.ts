// Writes docs/errors.md from the error catalog (tasks/error-catalog.ts);
// `--check` exits non-zero when the file is not what the catalog makes.
// Run as `npm run errors:doc`.
import path from "node:path";

import { DOCS_DIR, isMainModule, writeOrCheck } from "./generated-docs.js";
import {
  catalogEntries,
  ERROR_CATEGORIES,
  type ErrorDescriptor,
} from "../tasks/error-catalog.js";
import { errorCode } from "../tasks/errors.js";

export const ERRORS_DOC = path.join(DOCS_DIR, "errors.md");

function entry(name: string, descriptor: ErrorDescriptor): string {
  const message = descriptor.message.replace(/\n/g, " ");
  return [
    `#### ${errorCode(descriptor)}: ${name}`,
    "",
    `> ${message}`,
    "",
    `**Cause.** ${descriptor.cause}`,
    "",
    `**What to do.** ${descriptor.fix}`,
    "",
  ].join("\n");
}

/** docs/errors.md as the catalog makes it. */
export function renderErrorsDoc(): string {
  const parts = [
    "# Errors",
    "",
    "Every error the plugin reports starts with its code, `VIP-E<number>`.",
    "This page is generated from `tasks/error-catalog.ts` by",
    "`npm run errors:doc`; a test fails when it is out of date. Words in",
    "braces are filled in by the error (a file, an address, a status).",
    "",
  ];
  const entries = catalogEntries();
  for (const [key, category] of Object.entries(ERROR_CATEGORIES)) {
    parts.push(
      `## ${category.title} (VIP-E${category.min}–VIP-E${category.max})`,
      "",
    );
    for (const [subcategory, title] of Object.entries(category.sub)) {
      parts.push(`### ${title}`, "");
      const descriptors = entries
        .filter((e) => e.category === key && e.subcategory === subcategory)
        .sort((a, b) => a.descriptor.number - b.descriptor.number);
      for (const { name, descriptor } of descriptors)
        parts.push(entry(name, descriptor));
    }
  }
  return parts.join("\n");
}

if (isMainModule(import.meta.url))
  writeOrCheck(
    [{ file: ERRORS_DOC, text: renderErrorsDoc() }],
    "npm run errors:doc",
  );
