import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { defined } from "../../tasks/errors.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";

describe("rehearse", () => {
  it("runs the whole operator flow with no configuration and reports each step", async () => {
    // A file of an earlier run: the folder is emptied first.
    const folder = path.join(PROJECT_ROOT, "vip-rehearsal");
    const stale = path.join(folder, "journal", "stale.jsonl");
    await mkdir(path.dirname(stale), { recursive: true });
    await writeFile(stale, "{}\n");
    // As an earlier run leaves it: the marker that says the folder is the
    // rehearsal's to empty.
    await writeFile(path.join(folder, ".vip-rehearsal"), "");
    const result = await runHardhat(["rehearse"]);
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.include(
      `It writes everything under ${folder}${path.sep} (emptied first), and keeps it.`,
    );
    expect(existsSync(stale), "the earlier run's file").to.equal(false);
    // Every path it names is in that folder, and there after it ends: the
    // journals, the registry entry registry:check is pointed at, the
    // proposal initiad is pointed at, the score files, the report.
    const named = [...result.stdout.matchAll(/(\/[^\s,`()]+)/g)]
      .map((m) => (m[1] ?? "").replace(/[:.]+$/, "")) // "…/stage-16.csv: 2 addresses"
      .filter(
        (p) => p.startsWith(`${PROJECT_ROOT}/`) || p.startsWith(tmpdir()),
      );
    expect(named.length, result.stdout).to.be.greaterThan(20);
    for (const p of named) {
      expect(p.startsWith(`${folder}/`), p).to.equal(true);
      expect(existsSync(p), p).to.equal(true);
    }
    expect(result.stdout).to.include(
      `registry:check --dir ${path.join(folder, "registry", "mainnets", "rehearsal")}\``,
    );
    expect(result.stdout).to.include(
      `initiad tx gov submit-proposal ${path.join(folder, "whitelist", "proposal.json")} `,
    );
    // Every hint is a command that works: none names the in-process network,
    // which contract:deploy and stage:finalize refuse.
    expect(result.output).to.not.include("--network default");
    expect(result.stdout).to.match(
      /^contract open stage\s+no VipScore deployment on this network yet \(the rehearsal deploys one next\)$/m,
    );
    // Each stage in its own window, back to back: stage 16's (step 10) starts
    // where stage 15's (step 4) ends, and is the one the autopilot scores.
    const runs = [
      ...result.stdout.matchAll(/^stage runs\s+(\S+) to (\S+)$/gm),
    ].map((m) => [m[1] ?? "", m[2] ?? ""].map((t) => t.replace(".000Z", "Z")));
    expect(runs, result.stdout).to.have.length(2);
    const [stage15, stage16] = runs;
    expect(stage16?.[0]).to.equal(stage15?.[1]);
    expect(result.stdout).to.include(
      `window                stage 16: ${stage16?.[0]} to ${stage16?.[1]};`,
    );
    const steps = [
      "accounts",
      "version",
      "chain-id",
      "stage",
      "contract:deploy",
      "registry:entry",
      "proposal:whitelist",
      "scores:update",
      "stage:finalize",
      "stage",
      "bridge:transfer",
      "bridge:transfer from the base chain",
      "stage:autopilot --policy",
      "scores from the rollup's activity, command by command",
      "a wrong stage and its correction",
      "scores:report",
    ];
    for (const [i, step] of steps.entries())
      expect(result.stdout).to.include(`[${i + 1}/16] ${step}`);
    expect(result.stdout).to.match(/^tracked\s+0x[0-9a-f]{64}/m);
    expect(result.stdout).to.match(
      /^bridge holds\s+1000000 of the test token$/m,
    );
    expect(result.stdout).to.match(
      /^base chain took\s+1 deposit, signed EIP-191; the rollup account's sequence is still 0, as the hook needs$/m,
    );
    expect(result.stdout).to.match(
      /^deployer\s+0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 \(init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz\)$/m,
    );
    expect(result.stdout).to.match(
      /^written\s+.*mainnets\/rehearsal\/chain\.json$/m,
    );
    expect(result.stdout).to.match(/^ {2}vm type\s+2 \(EVM\)$/m);
    expect(result.stdout).to.match(/^registry rule\s+holds: /m);
    expect(result.stdout).to.match(
      /^start stage\s+15 \(the stand-in base chain's VIP stage\)$/m,
    );
    expect(result.stdout).to.match(
      /^verified\s+1,000 scores on chain equal scripts\/sample-scores\.csv$/m,
    );
    expect(result.stdout).to.match(/^contract open stage\s+16 /m);
    expect(result.stdout).to.match(
      /^finalized\s+nothing: the stage has not ended on the base chain's clock$/m,
    );
    expect(result.stdout).to.match(
      /^finalized\s+stage 16 in tx 0x[0-9a-f]{64}, block \d+$/m,
    );
    expect(result.stdout).to.match(/^autopilot ok: stage 16: finalized in tx/m);
    // The autopilot scored stage 16 from the sample policy: live first
    // (2 traders: 2·20·5/5 + 1·20·10/5 = 40 + 40), then final.
    expect(result.stdout).to.match(/^scores\s+2 addresses, total 80, live$/m);
    expect(result.stdout).to.match(/^scores\s+2 addresses, total 80, final$/m);
    // The sample policy: 3 trades in stage 17's window (280 + 20 + 196) and
    // the autopilot's closing trade of stage 16 (20), the one after its end
    // left out; pushed, read back and finalized.
    expect(result.stdout).to.match(/^scores\s+4 addresses, total 516, final$/m);
    expect(result.stdout).to.match(
      /^verified\s+4 scores on chain equal .*stage-17\.final\.csv$/m,
    );
    expect(result.stdout).to.match(
      /^finalized\s+stage 17 in tx 0x[0-9a-f]{64}, block \d+/m,
    );
    // The report of every stage it pushed and finalized: the sample file's
    // stage 15 (no manifest), the policy's 16 and 17, and 18 as corrected.
    const report = /^report\s+stages 15, 16, 17, 18: (.*index\.html) /m.exec(
      result.stdout,
    )?.[1];
    expect(report, result.stdout).to.equal(
      path.join(folder, "report", "index.html"),
    );
    for (const stage of [15, 16, 17, 18]) {
      const page = await readFile(
        path.join(folder, "report", `stage-${stage}.html`),
        "utf8",
      );
      expect(page, `stage ${stage}`).to.include("final, finalized on chain");
      if (stage > 15) expect(page, `stage ${stage}`).to.include("perp-volume");
    }
    // The wrong stage 18: found by the audit, corrected on a new contract,
    // the proposal kept in the project.
    expect(result.stdout).to.match(
      /^audit\s+3 addresses differ from the policy$/m,
    );
    expect(result.stdout).to.match(
      /^finalized\s+stage 18 on 0x[0-9a-fA-F]{40} in tx 0x[0-9a-f]{64}$/m,
    );
    const proposalFile = path.join(folder, "correction", "proposal.json");
    expect(result.stdout).to.include(`proposal              ${proposalFile}`);
    const proposal = JSON.parse(await readFile(proposalFile, "utf8")) as {
      messages: { function_name: string; args: string[] }[];
    };
    expect(
      proposal.messages.map((m) => [
        m.function_name,
        JSON.parse(m.args[1] ?? "") as string,
      ]),
    ).to.deep.equal([
      [
        "update_l2_score_contract",
        defined(
          /finalized\s+stage 18 on (0x[0-9a-fA-F]{40})/m.exec(
            result.stdout,
          )?.[1],
          "the new contract",
        ),
      ],
      ["execute_rollup_challenge", "18"],
    ]);
    expect(result.stdout).to.include("Rehearsal complete.");
    // The one warning is the op hook's, which an operator must heed.
    const warnings = result.stderr
      .split("\n")
      .filter((line) => line.includes("warning"));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(
      /^warning: init17w0\w+ must send nothing else on rehearsal-1 until this transfer lands/,
    );
  });
});
