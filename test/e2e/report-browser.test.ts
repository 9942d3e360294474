import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { expect } from "chai";
import { type Browser, chromium, type Page } from "playwright-core";

import { defined } from "../../tasks/errors.js";
import { buildReport } from "../../tasks/report/build.js";
import { sharePercent } from "../../tasks/report/model.js";
import { eip55 } from "../../tasks/scores/checksum.js";
import { PROJECT_ROOT } from "../helpers/hardhat-cli.js";
import { parseScoreCsv } from "../helpers/score-csv.js";
import {
  address,
  BIG_SCORE,
  tempDir,
  writePolicy,
  writeStage,
} from "../report/fixture.js";

/** Debian's Chromium: `scripts/setup.sh` installs it (apt's `chromium`). */
const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.join(PROJECT_ROOT, "test-artifacts");
const SCREENSHOT = path.join(ARTIFACTS, "report-stage.png");

/** Two stages' files, written by the project's own writers. */
async function site(): Promise<{ out: string; csv: string }> {
  const dir = await tempDir();
  const policy = await writePolicy(dir);
  const first: Record<string, bigint> = {};
  const second: Record<string, bigint> = { [address(1)]: BIG_SCORE };
  for (let n = 2; n <= 60; n++) {
    first[address(n)] = BigInt(n * n);
    if (n % 7 !== 0) second[address(n)] = 3n ** BigInt(n % 30) + BigInt(n);
  }
  first[address(100)] = 5n;
  await writeStage(dir, policy, 1n, first);
  await writeStage(dir, policy, 2n, second, false);
  const out = path.join(await tempDir(), "site");
  await buildReport({ scoresDir: dir, out });
  return { out, csv: await readFile(path.join(dir, "stage-2.csv"), "utf8") };
}

async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).textContent()) ?? "";
}

describe("scores:report in a browser (Debian's headless Chromium)", function () {
  let browser: Browser | undefined;

  before(async function () {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `${CHROMIUM} is missing: the browser tests need Debian's chromium package. ` +
          "Run scripts/setup.sh as root (it installs it with apt), or " +
          "apt-get install chromium, then run the tests again.",
      );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });

  after(async () => {
    await browser?.close();
  });

  it("opens stage-N.html#address from file://, exact, and looks up another", async () => {
    const { out, csv } = await site();
    const scores = parseScoreCsv(csv);
    const context = await defined(
      browser,
      "launched before the tests",
    ).newContext({
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });

    // Someone's shared link to their own score.
    const mine = eip55(address(1).slice(2));
    const url = pathToFileURL(path.join(out, "stage-2.html")).href;
    await page.goto(`${url}#${mine}`);
    await page.locator('#lookup-result[data-state="found"]').waitFor();
    expect(await text(page, "#lookup-score")).to.equal(
      scores.get(address(1))?.toString(),
    );
    expect(await text(page, "#lookup-score")).to.equal(BIG_SCORE.toString());
    expect(await text(page, "#lookup-rank")).to.match(/^1 of \d+$/);

    // Another address, typed.
    const other = address(5);
    await page.fill("#lookup-address", other);
    await page.click("form.lookup button");
    await page.waitForFunction(
      `document.getElementById("lookup-shown-address").textContent.toLowerCase() === "${other}"`,
    );
    const total = [...scores.values()].reduce((sum, score) => sum + score, 0n);
    const score = scores.get(other) ?? -1n;
    const higher = [...scores.values()].filter((s) => s > score).length;
    expect(await text(page, "#lookup-score")).to.equal(score.toString());
    expect(await text(page, "#lookup-rank")).to.equal(
      `${higher + 1} of ${scores.size}`,
    );
    expect(await text(page, "#lookup-share")).to.equal(
      `${sharePercent(score, total)}%`,
    );
    expect(page.url()).to.equal(`${url}#${other}`);

    // An address the stage does not score, and one that is not an address.
    await page.fill("#lookup-address", address(7));
    await page.click("form.lookup button");
    await page.locator('#lookup-result[data-state="unscored"]').waitFor();
    expect(await text(page, "#lookup-score")).to.equal("0");
    await page.fill("#lookup-address", "<b>nope</b>");
    await page.click("form.lookup button");
    await page.locator('#lookup-result[data-state="invalid"]').waitFor();
    expect(await text(page, "#lookup-shown-address")).to.equal("<b>nope</b>");

    // The chart is drawn.
    expect(await page.locator("svg.chart rect.bar").count()).to.be.greaterThan(
      3,
    );
    const box = await page.locator("svg.chart").boundingBox();
    expect(box?.width ?? 0).to.be.greaterThan(100);

    // A picture of the page, kept as a test artifact.
    await page.goto(`${url}#${mine}`);
    await page.locator('#lookup-result[data-state="found"]').waitFor();
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const png = await readFile(SCREENSHOT);
    expect(png.subarray(0, 8)).to.deep.equal(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );

    // The index links to it; nothing left file://.
    await page.goto(pathToFileURL(path.join(out, "index.html")).href);
    await page.click('a[href="stage-2.html"]');
    await page.locator("#lookup-form").waitFor();
    expect(requests.length).to.be.greaterThan(0);
    for (const request of requests) expect(request).to.match(/^file:\/\//);
    expect(problems).to.deep.equal([]);
    await context.close();
  });
});
