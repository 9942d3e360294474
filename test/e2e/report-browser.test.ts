import { existsSync } from "node:fs";
import {
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { expect } from "chai";
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
} from "playwright-core";

import { defined } from "../../tasks/errors.js";
import { buildReport } from "../../tasks/report/build.js";
import { groupThousands, shareOfTotal } from "../../tasks/report/numbers.js";
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
const INDEX_SCREENSHOT = path.join(ARTIFACTS, "report-index.png");
const LOOKUP_TIMES = path.join(ARTIFACTS, "report-1m-lookups.txt");
/** A phone's width in CSS pixels (an iPhone 12 to 15). */
const PHONE = { width: 390, height: 844 };

/** The history's address: 7, then 3 (at stage 1's minimum), then 2 (below it). */
const HISTORY = address(200);
/** A score too small for four decimals of share: 21 of 100,000,000. */
const SMALL = address(201);

/** Three stages' files, written by the project's own writers. */
async function site(): Promise<{ out: string; csv: string }> {
  const dir = await tempDir();
  const policy = await writePolicy(dir);
  const first: Record<string, bigint> = { [HISTORY]: 7n };
  const second: Record<string, bigint> = {
    [address(1)]: BIG_SCORE,
    [HISTORY]: 3n,
  };
  for (let n = 2; n <= 60; n++) {
    first[address(n)] = BigInt(n * n);
    if (n % 7 !== 0) second[address(n)] = 3n ** BigInt(n % 30) + BigInt(n);
  }
  first[address(100)] = 5n;
  // Stage 3's total is 100,000,000 exactly.
  const third: Record<string, bigint> = {
    [HISTORY]: 2n,
    [SMALL]: 21n,
    [address(2)]: 1_234_567n,
  };
  third[address(3)] = 100_000_000n - 1_234_567n - 21n - 2n;
  await writeStage(dir, policy, 1n, first);
  await writeStage(dir, policy, 2n, second);
  await writeStage(dir, policy, 3n, third, false);
  const out = path.join(await tempDir(), "site");
  await buildReport({ scoresDir: dir, out });
  return {
    out,
    csv: await readFile(path.join(dir, "stage-2.final.csv"), "utf8"),
  };
}

/**
 * What a phone shows wrongly, run in the page: the visible numbers, dates,
 * file names and table addresses broken across lines, the visible cells
 * and values with nothing in them, and the page's width.
 */
const LAYOUT = `(() => {
  const visible = (node) => node.offsetParent !== null;
  const broken = [...document.querySelectorAll(".num, .nowrap, .file, td .addr")]
    .filter(visible)
    .filter((node) => node.getClientRects().length > 1)
    .map((node) => node.textContent);
  const empty = [...document.querySelectorAll("dd, td, th")]
    .filter(visible)
    .filter((node) => node.textContent.trim() === "")
    .map((node) => node.outerHTML);
  return { broken, empty, width: document.documentElement.scrollWidth };
})()`;

/** Each row of the index's table of stages, in lines of the body's text. */
const INDEX_ROW_LINES = `(() => {
  const line = parseFloat(getComputedStyle(document.body).lineHeight);
  return [...document.querySelectorAll("#stages tbody tr")].map(
    (row) => row.getBoundingClientRect().height / line);
})()`;

async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).textContent()) ?? "";
}

/** A page that records every request and every error it meets. */
async function watchedPage(
  context: BrowserContext,
): Promise<{ page: Page; requests: string[]; problems: string[] }> {
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  return { page, requests, problems };
}

/** Every request stayed inside the site's folder, from file://. */
function onlyTheSite(requests: string[], out: string): void {
  const root = pathToFileURL(out).href;
  expect(requests.length).to.be.greaterThan(0);
  for (const request of requests)
    expect(request.startsWith(`${root}/`), request).to.equal(true);
}

/**
 * Looks `typed` up and waits until the result is that lookup's, settled.
 * The wait is a selector Playwright polls (a string predicate would be
 * evaluated in the page, which the site's CSP forbids: no 'unsafe-eval').
 */
async function lookUp(page: Page, typed: string): Promise<void> {
  await page.fill("#lookup-address", typed);
  await page.click("form.lookup button");
  await page
    .locator(
      `#lookup-result[data-address=${JSON.stringify(typed)}]` +
        `[data-state]:not([data-state="loading"])`,
    )
    .waitFor({ state: "attached" });
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

  const phone = () =>
    defined(browser, "launched before the tests").newContext({
      viewport: PHONE,
    });

  it("opens stage-N.html#address from file://, exact, and looks up another", async () => {
    const { out, csv } = await site();
    const scores = parseScoreCsv(csv);
    const context = await phone();
    const { page, requests, problems } = await watchedPage(context);

    // Someone's shared link to their own score.
    const mine = eip55(address(1).slice(2));
    const url = pathToFileURL(path.join(out, "stage-2.html")).href;
    await page.goto(`${url}#${mine}`);
    await page.locator('#lookup-result[data-state="found"]').waitFor();
    expect(await text(page, "#lookup-score")).to.equal(
      groupThousands(String(scores.get(address(1)))),
    );
    expect(await text(page, "#lookup-score")).to.equal(
      "1,152,921,504,730,303,765",
    );
    expect(await text(page, "#lookup-rank")).to.match(/^1 of \d+$/);

    // Another address, typed.
    const other = address(5);
    await lookUp(page, other);
    const total = [...scores.values()].reduce((sum, score) => sum + score, 0n);
    const score = scores.get(other) ?? -1n;
    const higher = [...scores.values()].filter((s) => s > score).length;
    expect(await text(page, "#lookup-score")).to.equal(
      groupThousands(score.toString()),
    );
    expect(await text(page, "#lookup-rank")).to.equal(
      `${higher + 1} of ${scores.size}`,
    );
    expect(await text(page, "#lookup-share")).to.equal(
      `${shareOfTotal(score, total)}\u00a0%`,
    );
    expect(page.url()).to.equal(`${url}#${other}`);
    // The command that explains it, ready to copy.
    expect(await text(page, "#explain-command")).to.equal(
      `npx hardhat scores:explain --network rollup --policy perp-volume.sql --stage 2 --address ${other}`,
    );

    // An address the stage does not score, and one that is not an address.
    await lookUp(page, address(7));
    expect(
      await page.locator("#lookup-result").getAttribute("data-state"),
    ).to.equal("unscored");
    expect(await text(page, "#lookup-score")).to.equal("0");
    await page.fill("#lookup-address", "<b>nope</b>");
    await page.click("form.lookup button");
    await page.locator('#lookup-result[data-state="invalid"]').waitFor();
    expect(await text(page, "#lookup-status")).to.include('"<b>nope</b>"');

    // The chart is drawn.
    expect(await page.locator("svg.chart rect.bar").count()).to.be.greaterThan(
      3,
    );
    const box = await page.locator("svg.chart").boundingBox();
    expect(box?.width ?? 0).to.be.greaterThan(100);

    // The index links to it; nothing left the site's folder.
    await page.goto(pathToFileURL(path.join(out, "index.html")).href);
    await page.click('a[href="stage-2.html"]');
    await page.waitForURL(/\/stage-2\.html$/);
    await page.locator("#lookup-form[data-stage='2']").waitFor();
    onlyTheSite(requests, out);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it("shows an address's score in every stage, grouped, its share's digits, vesting's minimum marked", async () => {
    const { out } = await site();
    const context = await phone();
    const { page, requests, problems } = await watchedPage(context);
    await page.goto(pathToFileURL(path.join(out, "index.html")).href);
    await lookUp(page, HISTORY);
    const rows = page.locator("#lookup-history-rows tr[data-stage]");
    expect(await rows.count()).to.equal(3);
    const cells = async (stage: string) =>
      page
        .locator(`#lookup-history-rows tr[data-stage="${stage}"] td`)
        .allTextContents();
    expect((await cells("1")).slice(1, 2)).to.deep.equal(["7"]);
    expect((await cells("2")).slice(1, 2)).to.deep.equal(["3"]);
    expect((await cells("3")).slice(1, 3)).to.deep.equal([
      "2",
      "0.0000020\u00a0%",
    ]);
    // 7 → 3 is at stage 1's minimum (⌊7 × 0.5⌋ = 3): not marked; 2 is below it.
    const mark = (stage: string) =>
      page
        .locator(`#lookup-history-rows tr[data-stage="${stage}"]`)
        .getAttribute("data-below-minimum");
    expect(await mark("1")).to.equal(null);
    expect(await mark("2")).to.equal(null);
    expect(await mark("3")).to.equal("1");
    expect(await text(page, "#lookup-history-rows tr.vesting-mark")).to.include(
      "stage 1",
    );
    // Each row links to its stage's page, opened with the address.
    expect(
      await page
        .locator('#lookup-history-rows tr[data-stage="2"] a')
        .getAttribute("href"),
    ).to.equal(`stage-2.html#${HISTORY}`);

    // On stage 3's page: a score grouped by thousands, a small share's digits.
    await page.goto(pathToFileURL(path.join(out, "stage-3.html")).href);
    await lookUp(page, address(2));
    expect(await text(page, "#lookup-score")).to.equal("1,234,567");
    expect(await text(page, "#lookup-share")).to.equal("1.2346\u00a0%");
    await lookUp(page, SMALL);
    expect(await text(page, "#lookup-score")).to.equal("21");
    expect(await text(page, "#lookup-share")).to.equal("0.000021\u00a0%");
    expect(await text(page, "#stage-total")).to.equal("100,000,000");
    // The score is in the text's font, not a monospace one.
    const fonts: string[] = await page.evaluate(`[
      getComputedStyle(document.getElementById("lookup-score")).fontFamily,
      getComputedStyle(document.body).fontFamily,
    ]`);
    expect(fonts[0]).to.equal(fonts[1]);
    onlyTheSite(requests, out);
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it("a stage without a manifest still answers its own score; a shard cut short says files are missing, never waits for ever", async () => {
    const dir = await tempDir();
    const policy = await writePolicy(dir);
    await writeStage(dir, policy, 1n, { [address(1)]: 10n, [address(2)]: 30n });
    await writeStage(dir, policy, 2n, { [address(1)]: 1_500n });
    // Stage 2 as a file alone, the way the rehearsal's sample stage is.
    await rm(path.join(dir, "stage-2.manifest.json"));
    const out = path.join(await tempDir(), "site");
    await buildReport({ scoresDir: dir, out });
    const context = await phone();
    const { page, requests, problems } = await watchedPage(context);
    await page.goto(pathToFileURL(path.join(out, "stage-2.html")).href);
    expect(
      await page.locator("#lookup-form").getAttribute("data-stage"),
    ).to.equal("2");
    await lookUp(page, address(1));
    expect(
      await page.locator("#lookup-result").getAttribute("data-state"),
    ).to.equal("found");
    expect(await text(page, "#lookup-score")).to.equal("1,500");
    expect(await text(page, "#lookup-share")).to.equal("100.0000\u00a0%");
    // No policy is published for stage 2: no command to explain it.
    expect(await page.locator("#explain-command").count()).to.equal(0);
    onlyTheSite(requests, out);
    expect(problems).to.deep.equal([]);

    // Every shard of stage 1 cut to nothing: the script runs, hands over
    // no rows, and the lookup fails saying so.
    const shards = path.join(out, "data", "stage-1");
    for (const name of await readdir(shards))
      await writeFile(path.join(shards, name), "");
    await page.goto(pathToFileURL(path.join(out, "stage-2.html")).href);
    await lookUp(page, address(2));
    expect(
      await page.locator("#lookup-result").getAttribute("data-state"),
    ).to.equal("failed");
    expect(await text(page, "#lookup-status")).to.match(
      /holds no shard.*the site is missing files/,
    );
    await context.close();
  });

  it("reads at 390 pixels: no number, date or file name broken, the index's rows one or two lines, nothing empty before a lookup", async () => {
    const { out } = await site();
    const context = await phone();
    const { page, problems } = await watchedPage(context);
    for (const name of ["index.html", "stage-2.html", "stage-3.html"]) {
      await page.goto(pathToFileURL(path.join(out, name)).href);
      // Before a lookup its result is hidden, so no empty label shows.
      expect(await page.locator("#lookup-result").isHidden(), name).to.equal(
        true,
      );
      const layout: { broken: string[]; empty: string[]; width: number } =
        await page.evaluate(LAYOUT);
      expect(layout.broken, name).to.deep.equal([]);
      expect(layout.empty, name).to.deep.equal([]);
      expect(layout.width, name).to.be.at.most(PHONE.width);
    }
    await page.goto(pathToFileURL(path.join(out, "index.html")).href);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: INDEX_SCREENSHOT, fullPage: true });
    const lines: number[] = await page.evaluate(INDEX_ROW_LINES);
    expect(lines).to.have.length(3);
    for (const height of lines) expect(height).to.be.below(3);

    // A picture of a stage page with an address looked up, kept as an artifact.
    const url = pathToFileURL(path.join(out, "stage-3.html")).href;
    await page.goto(`${url}#${HISTORY}`);
    await page.locator('#lookup-result[data-state="found"]').waitFor();
    const found: { broken: string[]; empty: string[] } =
      await page.evaluate(LAYOUT);
    expect(found.broken).to.deep.equal([]);
    expect(found.empty).to.deep.equal([]);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    for (const file of [SCREENSHOT, INDEX_SCREENSHOT]) {
      const png = await readFile(file);
      expect(png.subarray(0, 8)).to.deep.equal(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      // A PNG's width is at byte 16: the phone's, in device pixels.
      expect(png.readUInt32BE(16)).to.equal(PHONE.width);
    }
    expect(problems).to.deep.equal([]);
    await context.close();
  });

  it("looks up the first, a middle and the last of 1,000,000 addresses from file://, loading only their shards", async function () {
    this.timeout(600_000);
    const count = 1_000_000;
    const dir = await tempDir();
    const policy = await writePolicy(dir);
    const scores: Record<string, bigint> = {};
    for (let n = 0; n < count; n++)
      scores[address(n)] = BigInt((n * 7919) % 100_003);
    await writeStage(dir, policy, 1n, scores);
    const out = path.join(await tempDir(), "site");
    await buildReport({ scoresDir: dir, out });
    // The page holds no scores: the lookup's shards do.
    expect((await stat(path.join(out, "stage-1.html"))).size).to.be.below(
      1024 * 1024,
    );
    const csv = parseScoreCsv(
      await readFile(path.join(dir, "stage-1.final.csv"), "utf8"),
    );
    const addresses = [...csv.keys()];
    expect(addresses).to.have.length(count);
    const context = await phone();
    const { page, requests, problems } = await watchedPage(context);
    await page.goto(pathToFileURL(path.join(out, "stage-1.html")).href);
    const shown: string[] = [];
    for (const at of [0, count / 2, count - 1]) {
      const wanted = defined(addresses[at], "an address of the stage");
      const started = performance.now();
      await lookUp(page, wanted);
      const took = performance.now() - started;
      expect(
        await page.locator("#lookup-result").getAttribute("data-state"),
      ).to.equal("found");
      const score = defined(csv.get(wanted), "its score");
      expect(await text(page, "#lookup-score")).to.equal(
        groupThousands(score.toString()),
      );
      shown.push(
        `${wanted}: rank ${await text(page, "#lookup-rank")}, answered in ${took.toFixed(0)} ms`,
      );
    }
    expect(shown).to.have.length(3);
    // How long each took, kept for a reader (a figure, never a test's pass).
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(LOOKUP_TIMES, `${shown.join("\n")}\n`);
    // One shard per lookup, and the site's two scripts: nothing else read.
    const shards = requests.filter((url) => url.includes("/data/stage-1/"));
    expect(shards.length).to.be.within(1, 3);
    expect(requests.length).to.be.at.most(3 + shards.length);
    onlyTheSite(requests, out);
    expect(problems).to.deep.equal([]);
    await context.close();
  });
});
