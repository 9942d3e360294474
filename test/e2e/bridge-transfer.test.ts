import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { Wallet } from "ethers";

import { RouterClient } from "../../tasks/clients/router.js";
import { ERRORS, type ErrorDescriptor } from "../../tasks/error-catalog.js";
import { defined, isVipError } from "../../tasks/errors.js";
import { Journal } from "../../tasks/journal/journal.js";
import {
  opinitRoute,
  type RouterStandIn,
  startRouterStandIn,
  type StandInRoute,
} from "../../tasks/stand-ins/router.js";
import { followToTheEnd, pollInterval } from "../../tasks/transfer/follow.js";
import type { TransferRecord } from "../../tasks/transfer/records.js";
import {
  BridgeStandIn__factory,
  TestToken__factory,
  type TestToken,
} from "../../types/ethers-contracts/index.js";
import { failure } from "../helpers/failure.js";
import { runHardhat, spawnHardhat } from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import { DEPLOYER, DEPLOYER_KEY } from "../helpers/keys.js";
import { directProvider } from "../helpers/rig.js";
import { waitFor } from "../helpers/wait.js";

const L2_DENOM =
  "l2/2588fd87a8e081f6a557f43ff14f05dddf5e34cb27afcefd6eaf81f1daea30d0";
const RECIPIENT = "init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz";
const AMOUNT = 1_000_000n;

describe("bridge:transfer and bridge:status from an EVM chain, through the stand-in router", () => {
  let node: HardhatNode;
  let router: RouterStandIn;
  let token: TestToken;
  let bridge: string;
  let journalDir: string;
  let env: Record<string, string>;
  let route: StandInRoute;

  const transferArgs = (denom: string, extra: string[] = []) => [
    "bridge:transfer",
    "--network",
    "rollup",
    "--from-chain",
    node.chainId.toString(),
    "--from-denom",
    denom,
    "--to-chain",
    "rehearsal-1",
    "--to-denom",
    L2_DENOM,
    "--amount",
    AMOUNT.toString(),
    "--to",
    RECIPIENT,
    "--journal-dir",
    journalDir,
    "--poll-interval",
    "0.05",
    "--yes",
    ...extra,
  ];
  const sentBy = async () =>
    directProvider(node).getTransactionCount(DEPLOYER, "latest");

  before(async () => {
    node = await startHardhatNode();
    const deployer = new Wallet(DEPLOYER_KEY, directProvider(node));
    token = await new TestToken__factory(deployer).deploy(DEPLOYER, 10n ** 24n);
    await token.waitForDeployment();
    const bridgeContract = await new BridgeStandIn__factory(deployer).deploy();
    await bridgeContract.waitForDeployment();
    bridge = await bridgeContract.getAddress();
    const tokenAddress = await token.getAddress();
    route = opinitRoute({
      from: node.chainId.toString(),
      to: "rehearsal-1",
      denomIn: tokenAddress,
      denomOut: L2_DENOM,
      bridgeId: "16",
      amountIn: AMOUNT,
      opHook: false,
    });
    route.msgs = {
      evm: { chainId: node.chainId.toString(), bridge, token: tokenAddress },
    };
    router = await startRouterStandIn({ routes: [route] });
    env = {
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: DEPLOYER_KEY,
      ROUTER_URL: router.url,
    };
  });

  beforeEach(async () => {
    journalDir = await mkdtemp(path.join(tmpdir(), "vip-transfer-"));
    router.state.tracked = {};
    router.state.calls = {};
    router.state.polls = {};
    router.state.msgsFault = "none";
    router.state.holdTrack = false;
    router.state.states = [
      "STATE_SUBMITTED",
      "STATE_PENDING",
      "STATE_COMPLETED_SUCCESS",
    ];
  });

  afterEach(() => rm(journalDir, { recursive: true, force: true }));

  after(async () => {
    await Promise.all([node.close(), router.close()]);
  });

  it("approves exactly the amount, sends, tracks once, follows to success; run again, it reports and sends nothing", async () => {
    const tokenAddress = await token.getAddress();
    const before = await token.balanceOf(DEPLOYER);
    const nonceBefore = await sentBy();
    const result = await runHardhat(transferArgs(tokenAddress), env);
    expect(result.code, result.output).to.equal(0);
    expect(await token.balanceOf(DEPLOYER)).to.equal(before - AMOUNT);
    expect(await token.balanceOf(bridge)).to.equal(AMOUNT);
    expect(
      await token.allowance(DEPLOYER, bridge),
      "the approval was exactly the amount, all of it spent",
    ).to.equal(0n);
    expect(await sentBy()).to.equal(nonceBefore + 2); // the approval, then the transaction
    const hash = defined(
      defined(
        /^sent\s+transaction 1 (0x[0-9a-f]{64}), mined$/m.exec(result.stdout),
        "/^sent\\s+transaction 1 (0x[0-9a-f]{64}), mined$/m.exec( r...",
      )[1],
      "defined(/^sent\\s+transaction 1 (0x[0-9a-f]{64}), mined$/m...",
    );
    expect(router.state.tracked).to.deep.equal({ [hash]: 1 });
    expect(result.stdout).to.match(
      new RegExp(
        `^approved\\s+${AMOUNT} of ${tokenAddress} to ${bridge} in 0x[0-9a-f]{64}$`,
        "m",
      ),
    );
    expect(result.stdout).to.match(
      /^hop 1\s+op_init_transfer \d+ → rehearsal-1: OPINIT_TRANSFER_RECEIVED$/m,
    );
    expect(result.stdout).to.match(/^status\s+STATE_COMPLETED_SUCCESS$/m);
    expect(result.stdout).to.match(
      /^minimum amount out 1000000 l2\/\w+ on rehearsal-1, to init1/m,
    );

    const again = await runHardhat(transferArgs(tokenAddress), env);
    expect(again.code, again.output).to.equal(0);
    expect(again.stdout).to.include("resuming");
    expect(await sentBy()).to.equal(nonceBefore + 2);
    expect(router.state.tracked).to.deep.equal({ [hash]: 1 });

    const status = await runHardhat(
      [
        "bridge:status",
        "--network",
        "rollup",
        "--tx",
        hash,
        "--chain",
        node.chainId.toString(),
        "--journal-dir",
        journalDir,
      ],
      env,
    );
    expect(status.code, status.output).to.equal(0);
    expect(status.stdout).to.match(
      /^status\s+STATE_COMPLETED_SUCCESS \(recorded\)$/m,
    );

    // --new: the same command starts a second transfer; the first one's journal
    // is kept beside it.
    const second = await runHardhat(transferArgs(tokenAddress, ["--new"]), env);
    expect(second.code, second.output).to.equal(0);
    expect(second.stdout).to.match(
      /the earlier transfer's journal is kept as .*\.jsonl$/m,
    );
    expect(await sentBy()).to.equal(nonceBefore + 4);
    expect(Object.values(router.state.tracked)).to.deep.equal([1, 1]);
  });

  it("resumes after a SIGKILL between broadcast and track, and between track and the end, with no second broadcast", async () => {
    const tokenAddress = await token.getAddress();
    const nonceBefore = await sentBy();
    router.state.holdTrack = true;
    const first = spawnHardhat(transferArgs(tokenAddress), env);
    await waitFor(() => (router.state.calls["POST /v2/tx/track"] ?? 0) > 0);
    first.child.kill("SIGKILL");
    await first.result.catch(() => undefined);
    expect(
      await sentBy(),
      "both transactions went out before the kill",
    ).to.equal(nonceBefore + 2);
    expect(Object.keys(router.state.tracked)).to.deep.equal([]);

    router.state.holdTrack = false;
    router.state.states = [
      ...Array<string>(400).fill("STATE_PENDING"),
      "STATE_COMPLETED_SUCCESS",
    ];
    const second = spawnHardhat(transferArgs(tokenAddress), env);
    await waitFor(() => Object.values(router.state.polls).some((n) => n >= 3));
    second.child.kill("SIGKILL");
    await second.result.catch(() => undefined);
    const hash = defined(
      Object.keys(router.state.tracked)[0],
      "Object.keys(router.state.tracked)[0]",
    );
    expect(router.state.tracked).to.deep.equal({ [hash]: 1 });

    router.state.states = ["STATE_COMPLETED_SUCCESS"];
    router.state.polls = {};
    const third = await runHardhat(transferArgs(tokenAddress), env);
    expect(third.code, third.output).to.equal(0);
    expect(await sentBy(), "no second broadcast").to.equal(nonceBefore + 2);
    expect(router.state.tracked, "tracked exactly once").to.deep.equal({
      [hash]: 1,
    });
    const [journalFile] = await readdir(path.join(journalDir, "transfers"));
    const journal = (
      await readFile(
        path.join(journalDir, "transfers", defined(journalFile, "journalFile")),
        "utf8",
      )
    )
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(
      journal
        .filter((r: { type: string }) => r.type === "done")
        .map((r: { state: string }) => r.state),
    ).to.deep.equal(["STATE_COMPLETED_SUCCESS"]);
  });

  it("refuses a wrong chain, a wrong signer, an op-hook route, a Cosmos transaction and an unknown denom, sending nothing", async () => {
    const tokenAddress = await token.getAddress();
    const nonceBefore = await sentBy();
    /** The run fails with `expected`, its message naming each of `values`. */
    const refused = async (
      args: string[],
      expected: ErrorDescriptor,
      ...values: string[]
    ) => {
      const message = failure(await runHardhat(args, env), expected);
      for (const value of values) expect(message).to.include(value);
    };
    router.state.msgsFault = "wrong-chain";
    await refused(
      transferArgs(tokenAddress),
      ERRORS.NETWORK.TRANSFER.TX_WRONG_CHAIN,
      "transaction 1 ",
      "chain 1,",
      `chain ${node.chainId}:`,
    );
    router.state.msgsFault = "wrong-signer";
    await journalReset();
    await refused(
      transferArgs(tokenAddress),
      ERRORS.NETWORK.TRANSFER.EVM_TX_SIGNER_MISMATCH,
      "transaction 1 ",
      "0x000000000000000000000000000000000000dEaD",
      DEPLOYER,
    );
    router.state.msgsFault = "none";
    await journalReset();
    await refused(
      transferArgs("unknown-denom"),
      ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS,
      " 400",
      "no routes found for unknown-denom",
    );

    const hooked: StandInRoute = {
      ...route,
      source: { ...route.source, denom: "hooked" },
      answer: { ...route.answer, required_op_hook: true },
    };
    const cosmos: StandInRoute = {
      ...route,
      source: { ...route.source, denom: "cosmos" },
      msgs: { cosmos: { chainId: "interwoven-1" } },
    };
    router.state.routes.push(hooked, cosmos);
    // Signing the hook needs the rollup's REST API, which neither this network
    // nor the router's chain list gives.
    await refused(
      transferArgs("hooked"),
      ERRORS.NETWORK.ROUTER.NO_REST_ENDPOINT,
      "rehearsal-1",
      "neither L1_REST_URL nor ROLLUP_REST_URL is set",
    );
    await refused(
      transferArgs("cosmos"),
      ERRORS.NETWORK.TRANSFER.COSMOS_TX_SIGNER_MISMATCH,
      "transaction 1 ",
      "interwoven-1",
      DEPLOYER,
      "init17w0",
    );
    router.state.routes.splice(1);

    router.state.faults = ["none", "malformed"];
    await refused(
      transferArgs(tokenAddress),
      ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
      "/v2/fungible/msgs",
      "txs[0].evm_tx.to",
    );
    router.state.faults = [];

    const badPoll = await runHardhat(
      transferArgs(tokenAddress).map((a) => (a === "0.05" ? "soon" : a)),
      env,
    );
    expect(failure(badPoll, ERRORS.CONFIG.OPTIONS.SECONDS_INVALID))
      .to.include("--poll-interval")
      .and.include("soon");
    const missingTo = await runHardhat(
      transferArgs(tokenAddress).filter(
        (a, i, all) => a !== "--to" && all[i - 1] !== "--to",
      ),
      env,
    );
    expect(
      failure(missingTo, ERRORS.CONFIG.OPTIONS.OPTION_REQUIRED),
    ).to.include("--to");

    const unconfirmed = await runHardhat(
      transferArgs(tokenAddress).filter((a) => a !== "--yes"),
      env,
    );
    failure(unconfirmed, ERRORS.NETWORK.TRANSFER.NOT_CONFIRMED_NO_TERMINAL);
    expect(await sentBy(), "nothing was sent").to.equal(nonceBefore);
    expect(router.state.tracked).to.deep.equal({});
  });

  it("bridge:status tracks a transfer that was killed before tracking, and follows it to its end", async () => {
    router.state.holdTrack = true;
    const first = spawnHardhat(transferArgs(await token.getAddress()), env);
    await waitFor(() => (router.state.calls["POST /v2/tx/track"] ?? 0) > 0);
    first.child.kill("SIGKILL");
    await first.result.catch(() => undefined);
    router.state.holdTrack = false;
    const [journalFile] = await readdir(path.join(journalDir, "transfers"));
    const records = (
      await readFile(
        path.join(journalDir, "transfers", defined(journalFile, "journalFile")),
        "utf8",
      )
    )
      .trim()
      .split("\n")
      .map(
        (l) => JSON.parse(l) as { type: string; step?: string; hash?: string },
      );
    const hash = defined(
      defined(
        records.find((r) => r.type === "sent" && r.step === "tx0"),
        'records.find( (r) => r.type === "sent" && r.step === "tx0...',
      ).hash,
      'defined(records.find( (r) => r.type === "sent" && r.step ...',
    );
    const status = await runHardhat(
      [
        "bridge:status",
        "--network",
        "rollup",
        "--tx",
        hash,
        "--chain",
        node.chainId.toString(),
        "--journal-dir",
        journalDir,
        "--poll-interval",
        "0.05",
      ],
      env,
    );
    expect(status.code, status.output).to.equal(0);
    expect(router.state.tracked).to.deep.equal({ [hash]: 1 });
    expect(status.stdout).to.match(/^status\s+STATE_COMPLETED_SUCCESS$/m);
  });

  it("exits non-zero on STATE_ABANDONED without calling it a failure or its end: a later bridge:status finds it completed", async () => {
    router.state.states = ["STATE_SUBMITTED", "STATE_ABANDONED"];
    const result = await runHardhat(
      transferArgs(await token.getAddress()),
      env,
    );
    const abandoned = failure(result, ERRORS.NETWORK.ROUTER.TRANSFER_ABANDONED);
    const hash = defined(
      defined(
        /tracked\s+(0x[0-9a-f]{64})/.exec(result.stdout),
        "/tracked\\s+(0x[0-9a-f]{64})/.exec(result.stdout)",
      )[1],
      "defined(/tracked\\s+(0x[0-9a-f]{64})/.exec(result.stdout),...",
    );
    expect(abandoned).to.include(hash);
    router.state.states = ["STATE_COMPLETED_SUCCESS"];
    router.state.polls = {};
    const later = await runHardhat(
      [
        "bridge:status",
        "--network",
        "rollup",
        "--tx",
        hash,
        "--chain",
        node.chainId.toString(),
        "--journal-dir",
        journalDir,
        "--poll-interval",
        "0.05",
      ],
      env,
    );
    expect(later.code, later.output).to.equal(0);
    expect(later.stdout).to.match(/^done\s+0x\w+: STATE_COMPLETED_SUCCESS$/m);
  });

  async function journalReset() {
    await rm(path.join(journalDir, "transfers"), {
      recursive: true,
      force: true,
    });
  }
});

describe("following a transfer", () => {
  it("paces polls by the route's estimated duration: 60 s while far, 5 s near, 1 s overdue", async () => {
    expect(pollInterval(0, 3600)).to.equal(60_000);
    expect(pollInterval(3400_000, 3600)).to.equal(5_000);
    expect(pollInterval(3700_000, 3600)).to.equal(1_000);
    expect(pollInterval(0, 90)).to.equal(5_000);
  });

  it("treats a 404 right after tracking as not indexed yet, then follows; STATE_PENDING_ERROR is a failure", async () => {
    const router = await startRouterStandIn({
      states: ["STATE_PENDING", "STATE_PENDING_ERROR"],
    });
    const dir = await mkdtemp(path.join(tmpdir(), "vip-follow-"));
    try {
      const client = new RouterClient(router.url);
      const journal = await Journal.open<TransferRecord>(
        path.join(dir, "j.jsonl"),
      );
      const lines: string[] = [];
      const out = {
        line: (l: string) => lines.push(l),
        warn: (l: string) => lines.push(`warning: ${l}`),
      };
      const hash = `0x${"ab".repeat(32)}`;
      // Not known to the tracker for the first polls (404), then known.
      setTimeout(() => (router.state.tracked[hash] = 1), 200);
      const end = await followToTheEnd(
        client,
        journal,
        hash,
        "1",
        {
          estimatedSeconds: 0,
          pollMs: 20,
          timeoutMs: 10_000,
          notIndexedMs: 5_000,
        },
        out,
      );
      expect(end.state).to.equal("STATE_PENDING_ERROR");
      expect(end.release?.released).to.equal(false);
      expect(lines).to.include("status                STATE_PENDING_ERROR");
      expect(journal.records.map((r) => r.type)).to.deep.equal([
        "status",
        "status",
        "done",
      ]);
      // A 404 that outlasts the grace period is an error, not an endless wait.
      const stale = followToTheEnd(
        client,
        journal,
        `0x${"cd".repeat(32)}`,
        "1",
        {
          estimatedSeconds: 0,
          pollMs: 20,
          timeoutMs: 10_000,
          notIndexedMs: 100,
        },
        out,
      );
      const error = await stale.then(
        () => "ended",
        (e: unknown) => e,
      );
      if (!isVipError(error, ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS))
        expect.fail(`expected a 404 from the router, got: ${String(error)}`);
      expect(error.params).to.deep.include({
        status: 404,
        reason: "tx not found",
      });
    } finally {
      await router.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
