import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  writeFile,
} from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { expect } from "chai";
import { JsonRpcProvider } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { failure } from "../helpers/failure.js";
import { PROJECT_ROOT, runHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER_KEY } from "../helpers/keys.js";

const run = promisify(execFile);

/** The config the README gives for a project of one's own, word for word. */
const USER_CONFIG = `import { configVariable, defineConfig } from "hardhat/config";
import vipScore from "hardhat-vip-score";
export default defineConfig({
  plugins: [vipScore],
  networks: {
    rollup: { type: "http", url: configVariable("JSON_RPC_URL"), accounts: [configVariable("PRIVATE_KEY")],
      vip: { rollupRpcUrl: configVariable("ROLLUP_RPC_URL"), l1RestUrl: configVariable("L1_REST_URL") } },
  },
});
`;

const SOLIDITY_TEST = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {VipScore} from "hardhat-vip-score/contracts/VipScore.sol";

contract VipScoreFromThePackageTest {
    function testOpensAtItsStartStageAndTakesScores() public {
        VipScore score = new VipScore(7);
        require(score.openStage() == 7, "open stage");
        address[] memory addrs = new address[](1);
        addrs[0] = address(0xBEEF);
        uint64[] memory amounts = new uint64[](1);
        amounts[0] = 5;
        score.updateScores(7, addrs, amounts);
        (, uint64 amount) = score.scores(7, address(0xBEEF));
        require(amount == 5, "score");
    }
}
`;

describe("the npm package, installed into a brand-new Hardhat project", function () {
  let tarball: string;
  let project: string;
  let node: HardhatNode;
  let baseChain: L1RestStandIn;
  const inProject = (
    args: string[],
    env: Record<string, string | undefined> = {},
  ) => runHardhat(args, env, { cwd: project });

  before(async function () {
    // `npm run package`, as an operator's CI would: its last line is the
    // tarball.
    const packed = await run(
      process.execPath,
      [
        path.join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
        "scripts/package.ts",
      ],
      {
        cwd: PROJECT_ROOT,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    tarball = defined(
      packed.stdout.trim().split("\n").at(-1),
      'packed.stdout.trim().split("\\n").at(-1)',
    );
    expect(tarball).to.match(/hardhat-vip-score-\d+\.\d+\.\d+\.tgz$/);

    // A new project holding only {"type": "module"} and the README's config.
    // npm installs the tarball and its peers offline: the packages come from
    // this repository's installed tree (hard links), never the network.
    project = await mkdtemp(path.join(tmpdir(), "vip-user-project-"));
    await writeFile(
      path.join(project, "package.json"),
      JSON.stringify({ type: "module" }) + "\n",
    );
    await writeFile(path.join(project, "hardhat.config.ts"), USER_CONFIG);
    await run("cp", [
      "-al",
      path.join(PROJECT_ROOT, "node_modules"),
      path.join(project, "node_modules"),
    ]);
    await rm(path.join(project, "node_modules", ".package-lock.json"), {
      force: true,
    });
    await run(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", tarball],
      { cwd: project, maxBuffer: 16 * 1024 * 1024 },
    );

    [node, baseChain] = await Promise.all([
      startHardhatNode(),
      startL1RestStandIn({ stage: 15n }),
    ]);
  });

  after(async () => {
    await Promise.all([node?.close(), baseChain?.close()]);
    if (project !== undefined)
      await rm(project, { recursive: true, force: true });
  });

  it("ships the compiled plugin, the contract sources, the artifact and the Ignition module, and nothing else", async () => {
    const { stdout } = await run("tar", ["tzf", tarball]);
    const files = stdout
      .trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""));
    expect(files).to.include.members([
      "package.json",
      "README.md",
      "LICENSE",
      "contracts/VipScore.sol",
      "contracts/IVipScore.sol",
      "dist/tasks/index.js",
      "dist/tasks/index.d.ts",
      "dist/ignition/modules/VipScore.js",
      "dist/artifacts/contracts/VipScore.sol/VipScore.json",
      "scripts/sample-scores.csv",
      "scripts/sample-policy/perp-volume.sql",
      "scripts/examples/registry-input.json",
      // The cookbook, which scores:new-policy copies from.
      ...(await readdir(path.join(PROJECT_ROOT, "policies", "examples"))).map(
        (name) => `policies/examples/${name}`,
      ),
    ]);
    const outside = files.filter(
      (f) =>
        !/^(dist\/(tasks|types|ignition|artifacts)\/|contracts\/I?VipScore\.sol$|scripts\/sample-scores\.csv$|scripts\/sample-policy\/perp-volume\.sql$|scripts\/examples\/registry-input\.json$|policies\/examples\/[a-z-]+\.sql$|package\.json$|README\.md$|LICENSE$)/.test(
          f,
        ),
    );
    expect(outside).to.deep.equal([]);
    expect(
      files.filter((f) => /\.ts$/.test(f) && !/\.d\.ts$/.test(f)),
    ).to.deep.equal([]);
    const manifest = JSON.parse(
      await readFile(
        path.join(project, "node_modules", "hardhat-vip-score", "package.json"),
        "utf8",
      ),
    ) as { name: string };
    expect(manifest.name).to.equal("hardhat-vip-score");
  });

  it("starts a policy from the cookbook it ships (scores:new-policy), in the project", async () => {
    const made = await inProject([
      "scores:new-policy",
      "--template",
      "time-weighted-lending",
      "--out",
      "policies/1-lending.sql",
    ]);
    expect(made.code, made.output).to.equal(0);
    const copy = await readFile(
      path.join(project, "policies", "1-lending.sql"),
      "utf8",
    );
    const shipped = await readFile(
      path.join(
        project,
        "node_modules",
        "hardhat-vip-score",
        "policies",
        "examples",
        "time-weighted-lending.sql",
      ),
      "utf8",
    );
    expect(copy).to.equal(
      shipped.replace(
        "-- @policy time-weighted-lending\n",
        "-- @policy 1-lending\n",
      ),
    );
  });

  it("rehearses with the README's config alone, and refuses to rehearse on a real network", async () => {
    const rehearsal = await inProject(["rehearse"]);
    expect(rehearsal.code, rehearsal.output).to.equal(0);
    expect(rehearsal.stdout).to.match(
      /^verified\s+1,000 scores on chain equal node_modules\/hardhat-vip-score\/scripts\/sample-scores\.csv$/m,
    );
    // The sample policy ships too: its stage is scored, pushed and finalized.
    expect(rehearsal.stdout).to.match(
      /^scores\s+4 addresses, total 516, final$/m,
    );
    expect(rehearsal.stdout).to.include("Rehearsal complete.");

    const blockBefore = await new JsonRpcProvider(node.url).getBlockNumber();
    const refused = await inProject(["rehearse", "--network", "rollup"], {
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: DEPLOYER_KEY,
    });
    expect(failure(refused, ERRORS.REHEARSE.GENERAL.HTTP_NETWORK)).to.include(
      '"rollup"',
    );
    expect(await new JsonRpcProvider(node.url).getBlockNumber()).to.equal(
      blockBefore,
    );
  });

  it("deploys the packaged bytecode with the base chain's stage, then pushes and finalizes, with its files in the project", async () => {
    const env = {
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: DEPLOYER_KEY,
      L1_REST_URL: baseChain.url,
    };
    const deploy = await inProject(
      ["contract:deploy", "--network", "rollup"],
      env,
    );
    expect(deploy.code, deploy.output).to.equal(0);
    expect(deploy.stdout).to.match(
      /^start stage\s+15 \(the base chain's current VIP stage\)$/m,
    );
    const address = defined(
      defined(
        /VipScore at (0x[0-9a-fA-F]{40})/.exec(deploy.stdout),
        "/VipScore at (0x[0-9a-fA-F]{40})/.exec(deploy.stdout)",
      )[1],
      "defined(/VipScore at (0x[0-9a-fA-F]{40})/.exec(deploy.std...",
    );
    expect(
      existsSync(
        path.join(
          project,
          "ignition",
          "deployments",
          `chain-${node.chainId}`,
          "deployed_addresses.json",
        ),
      ),
    ).to.equal(true);
    // The very bytecode this repository builds and tests, and no compiler ran
    // in the project.
    const artifact = JSON.parse(
      await readFile(
        path.join(
          PROJECT_ROOT,
          "artifacts",
          "contracts",
          "VipScore.sol",
          "VipScore.json",
        ),
        "utf8",
      ),
    ) as { bytecode: string };
    const hash = defined(
      defined(
        /^transaction\s+(0x[0-9a-f]{64})$/m.exec(deploy.stdout),
        "/^transaction\\s+(0x[0-9a-f]{64})$/m.exec(deploy.stdout)",
      )[1],
      "defined(/^transaction\\s+(0x[0-9a-f]{64})$/m.exec(deploy.s...",
    );
    const creation = defined(
      await new JsonRpcProvider(node.url).getTransaction(hash),
      "(await new JsonRpcProvider(node.url).getTransaction( hash...",
    );
    expect(
      creation.data.startsWith(artifact.bytecode),
      "the creation code is this repository's build",
    ).to.equal(true);
    expect(creation.data.length - artifact.bytecode.length).to.equal(64); // one constructor word: the start stage
    expect(existsSync(path.join(project, "artifacts"))).to.equal(false);
    expect(existsSync(path.join(project, "cache"))).to.equal(false);

    const sample = path.join(
      project,
      "node_modules",
      "hardhat-vip-score",
      "scripts",
      "sample-scores.csv",
    );
    const update = await inProject(
      [
        "scores:update",
        "--network",
        "rollup",
        "--stage",
        "15",
        "--file",
        sample,
      ],
      env,
    );
    expect(update.code, update.output).to.equal(0);
    expect(update.stdout).to.match(/^verified\s+1,000 scores on chain equal /m);
    expect(
      existsSync(
        path.join(
          project,
          "vip-journal",
          `chain-${node.chainId}`,
          address.toLowerCase(),
          "stage-15.jsonl",
        ),
      ),
    ).to.equal(true);

    baseChain.state.now = baseChain.state.stageEndTime + 1n;
    const finalize = await inProject(
      ["stage:finalize", "--network", "rollup", "--stage", "15"],
      env,
    );
    expect(finalize.code, finalize.output).to.equal(0);
    expect(finalize.stdout).to.match(/^open stage\s+16$/m);

    const stage = await inProject(["stage", "--network", "rollup"], {
      JSON_RPC_URL: node.url,
      L1_REST_URL: baseChain.url,
    });
    expect(stage.code, stage.output).to.equal(0);
    expect(stage.stdout).to.match(
      new RegExp(
        `^contract open stage\\s+16 \\(VipScore at ${address}\\)$`,
        "m",
      ),
    );
  });

  it("compiles a Solidity test that imports hardhat-vip-score/contracts/VipScore.sol, with the README's compiler setting", async () => {
    const soljson = createRequire(import.meta.url).resolve("solc/soljson.js");
    await writeFile(
      path.join(project, "hardhat.solidity.config.ts"),
      USER_CONFIG.replace(
        "plugins: [vipScore],",
        `plugins: [vipScore],\n  solidity: { version: "0.8.30", path: ${JSON.stringify(soljson)}, settings: { optimizer: { enabled: true, runs: 10_000 }, evmVersion: "cancun", viaIR: true } },`,
      ),
    );
    await mkdir(path.join(project, "test"), { recursive: true });
    await writeFile(
      path.join(project, "test", "VipScoreFromThePackage.t.sol"),
      SOLIDITY_TEST,
    );
    const result = await inProject([
      "test",
      "solidity",
      "--config",
      "hardhat.solidity.config.ts",
    ]);
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.include("testOpensAtItsStartStageAndTakesScores");
    expect(result.output).to.match(/1 passing/);
  });
});
