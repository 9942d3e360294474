import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { failure } from "../helpers/failure.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";
import {
  deployVipScore,
  type FaultyRig,
  startFaultyRig,
} from "../helpers/rig.js";

const SAMPLE = path.join(PROJECT_ROOT, "scripts", "sample-scores.csv");

describe("scores:update: the proof after the push, from the CLI", () => {
  let rig: FaultyRig;

  before(async () => {
    rig = await startFaultyRig();
  });

  after(async () => rig.close());

  const update = (contract: string, ...extra: string[]) =>
    runHardhat(
      [
        "scores:update",
        "--network",
        "rollup",
        "--stage",
        "3",
        "--file",
        SAMPLE,
        "--contract",
        contract,
        "--batch-size",
        "250",
        "--journal-dir",
        rig.journalDir,
        ...extra,
      ],
      { JSON_RPC_URL: rig.proxy.url, PRIVATE_KEY: DEPLOYER_KEY },
    );

  it("--full-read-back reads every score back; a later run names a score another writer added", async () => {
    const score = await deployVipScore(rig.provider, 3n);
    const contract = await score.getAddress();
    const full = await update(contract, "--full-read-back");
    expect(full.code, full.output).to.equal(0);
    expect(full.stdout).to.match(/^verified\s+1,000 scores on chain equal /m);
    expect(full.stdout).not.to.match(/^proof\s/m);

    // Another writer scores an address the file lacks: the run that resumes
    // the journal sends nothing, and its proof (no event of its own, every
    // score read back, then the stage's count) finds and names it.
    const stranger = "0x00000000000000000000000000000000000000bb";
    await (await score.updateScores(3n, [stranger], [5n])).wait();
    const again = await update(contract);
    expect(again.stdout).to.match(
      /^proof\s+the push's events do not prove the file \(the stage holds 1001 addresses, the file 1000\): reading every score back$/m,
    );
    const message = failure(again, ERRORS.SCORES.PUSH.CHAIN_DIFFERS);
    expect(message).to.include("in 1 score(s)");
    // The differences follow the message's first line, one a line.
    expect(again.output.toLowerCase()).to.match(
      new RegExp(
        `^\\s*${stranger} \\(not in .*sample-scores\\.csv\\): file 0, chain 5$`,
        "m",
      ),
    );
  });
});
