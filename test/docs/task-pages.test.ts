import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";

import {
  pluginTasks,
  renderTaskPage,
  renderTaskPages,
  TASKS_DOCS_DIR,
  taskPageName,
  usageLine,
} from "../../scripts/docs-tasks.js";
import { stalePages } from "../../scripts/generated-docs.js";

/** A task declared as the plugin's are, to read its page against. */
const example = task("example:run", "Run the example")
  .addOption({
    name: "file",
    description: "Required: the <file> to read",
    type: ArgumentType.STRING_WITHOUT_DEFAULT,
    defaultValue: undefined,
  })
  .addFlag({ name: "dryRun", description: "Plan without sending" })
  .addOption({
    name: "maxInFlight",
    description: "Batches sent ahead of their receipts",
    type: ArgumentType.INT,
    defaultValue: 4,
  })
  .setAction(() => Promise.resolve({ default: () => undefined }))
  .build();

describe("docs/tasks/, generated from the task definitions", () => {
  it("is what npm run docs:tasks writes: no page stale, missing or left over", () => {
    const stale = stalePages(renderTaskPages(), TASKS_DOCS_DIR).map((file) =>
      path.relative(TASKS_DOCS_DIR, file),
    );
    expect(stale, "run npm run docs:tasks").to.deep.equal([]);
  });

  it("has a page for every task tasks/index.ts declares, each listed in the index", () => {
    const tasks = pluginTasks();
    expect(tasks.map((t) => t.id.join(" "))).to.include.members([
      "scores:update",
      "stage:autopilot",
      "rehearse",
    ]);
    const pages = renderTaskPages(tasks);
    expect(pages).to.have.length(tasks.length + 1);
    const index = pages.find((page) => page.file.endsWith("README.md"));
    for (const definition of tasks)
      expect(index?.text).to.include(`](${taskPageName(definition)})`);
  });

  it("links every task's page to the guide page that explains it in use", () => {
    for (const page of renderTaskPages().filter(
      (p) => !p.file.endsWith("README.md"),
    ))
      expect(page.text, page.file).to.match(
        /^- How it is used: \[[^\]]+\]\(\.\.\/[a-z-]+\.md(#[a-z0-9-]+)?\)$/m,
      );
  });

  it("gives every option with its type, default and description, and a usage line", () => {
    const page = renderTaskPage(example, "example/task.ts");
    expect(page).to.include("# `example:run`");
    expect(page).to.include("Run the example.");
    expect(page).to.include(
      "- **`--file`** `STRING`, required. The \\<file\\> to read.",
    );
    expect(page).to.include(
      "- **`--dry-run`** flag (off unless given). Plan without sending.",
    );
    expect(page).to.include(
      "- **`--max-in-flight`** `INT`, default `4`. Batches sent ahead of their receipts.",
    );
    expect(usageLine(example)).to.equal(
      "npx hardhat example:run --file <STRING> [--dry-run] [--max-in-flight <INT>]",
    );
  });

  it("finds a page that differs from its definition, and one no task makes", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "task-pages-"));
    try {
      const page = {
        file: path.join(folder, "example-run.md"),
        text: renderTaskPage(example, "example/task.ts"),
      };
      writeFileSync(page.file, page.text);
      expect(stalePages([page], folder)).to.deep.equal([]);
      writeFileSync(page.file, page.text.replace("default `4`", "default `8`"));
      writeFileSync(path.join(folder, "gone.md"), "# `gone`\n");
      expect(stalePages([page], folder)).to.deep.equal([
        page.file,
        path.join(folder, "gone.md"),
      ]);
    } finally {
      rmSync(folder, { recursive: true });
    }
  });
});
