import { createHash } from "node:crypto";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { readStageFile } from "../../tasks/scores/score-files.js";
import { refusal } from "../helpers/failure.js";

const CSV = "address,score\n0x00000000000000000000000000000000000000a1,7\n";
const HEADER_ONLY = "address,score\n";
const sha256 = (text: string) =>
  createHash("sha256").update(text).digest("hex");

/**
 * The autopilot's and the push's reader, `readStageFile`, over a folder as
 * `scores:compute --window` leaves it: a trial's scores are refused however
 * they are named, a stage's own are not.
 */
describe("a trial's scores, refused wherever a push reads a file", () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-trial-guard-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Writes a file settled as the reader waits for: an hour old. */
  async function settled(name: string, text: string): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(file, text);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(file, hourAgo, hourAgo);
    return file;
  }

  const manifest = (trial: boolean, text: string) =>
    JSON.stringify({ trial, output: { sha256: sha256(text) } });

  async function refused(file: string, why: RegExp): Promise<void> {
    const error = await refusal(
      readStageFile(file, { allowEmpty: true }),
      ERRORS.SCORING.RESULTS.TRIAL_FILE_REFUSED,
    );
    expect(error.params.why).to.match(why);
    expect(error.params.file).to.equal(file);
  }

  it("refuses a file named as a trial's", async () => {
    await refused(
      await settled("window-1700000000-1700086400.csv", CSV),
      /its name is a trial's/,
    );
  });

  it("refuses a stage file whose own manifest marks a trial", async () => {
    await settled("stage-5.manifest.json", manifest(true, CSV));
    await refused(
      await settled("stage-5.final.csv", CSV),
      /stage-5\.manifest\.json describes it as a trial/,
    );
  });

  it("refuses a trial's bytes renamed as a stage's, beside the trial's manifest", async () => {
    await settled(
      "window-1700000000-1700086400.manifest.json",
      manifest(true, CSV),
    );
    await refused(
      await settled("stage-5.final.csv", CSV),
      /window-1700000000-1700086400\.manifest\.json describes it as a trial/,
    );
  });

  it("reads a stage file its own manifest describes, though a trial over the same window gave the same bytes", async () => {
    await settled(
      "window-1700000000-1700086400.manifest.json",
      manifest(true, CSV),
    );
    await settled("stage-5.manifest.json", manifest(false, CSV));
    const read = await readStageFile(await settled("stage-5.final.csv", CSV), {
      allowEmpty: true,
    });
    expect(read?.table.length).to.equal(1);
  });

  it("reads an empty stage file (no trial's scores in it) and a stage file no trial made", async () => {
    await settled(
      "window-1700000000-1700086400.manifest.json",
      manifest(true, HEADER_ONLY),
    );
    const empty = await readStageFile(
      await settled("stage-6.final.csv", HEADER_ONLY),
      { allowEmpty: true },
    );
    expect(empty?.table.length).to.equal(0);
    const other =
      "address,score\n0x00000000000000000000000000000000000000b2,9\n";
    const read = await readStageFile(
      await settled("stage-7.final.csv", other),
      {
        allowEmpty: true,
      },
    );
    expect(read?.sha256).to.equal(sha256(other));
  });
});
