import { expect } from "chai";

import { runHardhat } from "../helpers/hardhat-cli.js";

/**
 * A module hook that prints every file of this project Node loads: the
 * data URL keeps it out of the project's own files.
 */
const LOADS_PRINTED = `import{register}from"node:module";register(${JSON.stringify(
  `data:text/javascript,${encodeURIComponent(
    `export async function load(u,c,n){if(u.startsWith("file:")&&!u.includes("/node_modules/"))process.stderr.write("loaded "+u+"\\n");return n(u,c);}`,
  )}`,
)});`;

describe("npx hardhat --help", function () {
  this.timeout(120_000);

  it("lists the plugin's tasks without evaluating the error catalog or any action", async () => {
    const result = await runHardhat(
      ["--help"],
      {},
      {
        nodeOptions: `--import=data:text/javascript,${encodeURIComponent(LOADS_PRINTED)}`,
      },
    );
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(/scores:update/);
    const loaded = [...result.stderr.matchAll(/^loaded (\S+)$/gm)].map(
      (match) => match[1] ?? "",
    );
    // The hook works: the plugin's entry and a task definition were seen.
    expect(loaded.some((url) => url.endsWith("/tasks/index.ts"))).to.equal(
      true,
    );
    expect(
      loaded.some((url) => url.endsWith("/commands/scores-update/task.ts")),
    ).to.equal(true);
    expect(
      loaded.filter((url) => url.endsWith("/error-catalog.ts")),
    ).to.deep.equal([]);
    expect(
      loaded.filter((url) => /\/(action|run)\.ts$/.test(url)),
    ).to.deep.equal([]);
  });
});
