import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import { accountAddresses } from "../../tasks/signer/addresses.js";
import {
  type L1RestStandIn,
  startL1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import {
  type RollupRestStandIn,
  startRollupRestStandIn,
} from "../../tasks/stand-ins/rollup-rest.js";
import {
  opinitRoute,
  type RouterStandIn,
  SKIP_TIMEOUT_TIMESTAMP,
  startRouterStandIn,
} from "../../tasks/stand-ins/router.js";
import type { TransferRecord } from "../../tasks/transfer/records.js";
import { failure } from "../helpers/failure.js";
import {
  PROJECT_ROOT,
  runHardhat,
  spawnHardhat,
} from "../helpers/hardhat-cli.js";
import { startHardhatNode, type HardhatNode } from "../helpers/hardhat-node.js";
import {
  DEPLOYER,
  DEPLOYER_KEY,
  LEDGER_ADDRESS,
  LEDGER_KEY,
} from "../helpers/keys.js";
import { waitFor } from "../helpers/wait.js";

const BASE = "interwoven-1";
const ROLLUP = "rehearsal-1";
const L2_DENOM =
  "l2/2588fd87a8e081f6a557f43ff14f05dddf5e34cb27afcefd6eaf81f1daea30d0";
const SPLIT_DENOM = "l2/split";
const IBC_DEST = "echelon-1";
const IBC_DENOM =
  "ibc/37A3FB4FED4CA04ED6D9E5DA36C6D27248645F0E22F585576A1488B8A89C5A50";
const AMOUNT = 1_000_000n;
const OPERATOR = accountAddresses(DEPLOYER, "test");
const LEDGER = accountAddresses(LEDGER_ADDRESS, "test");
const FAKE_DEVICE = path.join(
  PROJECT_ROOT,
  "test",
  "helpers",
  "fake-ledger-device.ts",
);
const ledgerInstalled = existsSync(
  path.join(PROJECT_ROOT, "node_modules", "@nomicfoundation", "hardhat-ledger"),
);

describe("bridge:transfer from Initia chains: Cosmos transactions and the op hook, through the stand-ins", () => {
  let node: HardhatNode;
  let base: L1RestStandIn;
  let rollup: RollupRestStandIn;
  let router: RouterStandIn;
  let journalDir: string;
  let env: Record<string, string>;

  /**
   * Funds the operator: from the base chain to itself on the rollup, which
   * needs an op hook.
   */
  const fundArgs = (extra: string[] = []) => [
    "bridge:transfer",
    "--network",
    "rollup",
    "--from-chain",
    BASE,
    "--from-denom",
    "uinit",
    "--to-chain",
    ROLLUP,
    "--to-denom",
    L2_DENOM,
    "--amount",
    AMOUNT.toString(),
    "--to",
    DEPLOYER,
    "--journal-dir",
    journalDir,
    "--poll-interval",
    "0.05",
    "--yes",
    ...extra,
  ];
  /** Moves tokens back: a withdrawal signed on the rollup. */
  const backArgs = (to: string, extra: string[] = []) => [
    "bridge:transfer",
    "--network",
    "rollup",
    "--from-chain",
    ROLLUP,
    "--from-denom",
    L2_DENOM,
    "--to-chain",
    BASE,
    "--to-denom",
    "uinit",
    "--amount",
    AMOUNT.toString(),
    "--to",
    to,
    "--journal-dir",
    journalDir,
    "--poll-interval",
    "0.05",
    "--yes",
    ...extra,
  ];
  const journalRecords = async (): Promise<TransferRecord[][]> => {
    const dir = path.join(journalDir, "transfers");
    const files = (await readdir(dir)).filter((f) => f.endsWith(".jsonl"));
    return Promise.all(
      files.map(async (f) =>
        (await readFile(path.join(dir, f), "utf8"))
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as TransferRecord),
      ),
    );
  };

  before(async () => {
    [node, base, rollup] = await Promise.all([
      startHardhatNode(),
      startL1RestStandIn(),
      startRollupRestStandIn(),
    ]);
    const deposit = opinitRoute({
      from: BASE,
      to: ROLLUP,
      denomIn: "uinit",
      denomOut: L2_DENOM,
      bridgeId: "16",
      amountIn: AMOUNT,
      opHook: true,
    });
    deposit.msgs = {
      cosmos: { chainId: BASE, message: "deposit", bridgeId: "16" },
    };
    const withdrawal = opinitRoute({
      from: ROLLUP,
      to: BASE,
      denomIn: L2_DENOM,
      denomOut: "uinit",
      bridgeId: "16",
      amountIn: AMOUNT,
      opHook: false,
    });
    withdrawal.msgs = { cosmos: { chainId: ROLLUP, message: "withdrawal" } };
    const split = opinitRoute({
      from: ROLLUP,
      to: BASE,
      denomIn: SPLIT_DENOM,
      denomOut: "uinit",
      bridgeId: "16",
      amountIn: AMOUNT,
      opHook: false,
    });
    split.msgs = {
      cosmos: { chainId: ROLLUP, message: "withdrawal", split: 2 },
    };
    split.answer.txs_required = 2;
    // An IBC transfer from the base chain to another Initia rollup, with the
    // MsgTransfer Skip's API writes.
    const ibc = opinitRoute({
      from: BASE,
      to: IBC_DEST,
      denomIn: "uinit",
      denomOut: IBC_DENOM,
      bridgeId: "0",
      amountIn: AMOUNT,
      opHook: false,
    });
    ibc.answer.operations = [
      {
        transfer: {
          port: "transfer",
          channel: "channel-25",
          from_chain_id: BASE,
          to_chain_id: IBC_DEST,
          denom_in: "uinit",
          denom_out: IBC_DENOM,
          bridge_id: "IBC",
          pfm_enabled: true,
          supports_memo: true,
          smart_relay: false,
        },
        tx_index: 0,
        amount_in: AMOUNT.toString(),
        amount_out: AMOUNT.toString(),
      },
    ];
    ibc.msgs = { cosmos: { chainId: BASE, message: "ibc-transfer" } };
    router = await startRouterStandIn({
      routes: [deposit, withdrawal, split, ibc],
      chains: { [ROLLUP]: rollup.state.chain },
    });
    env = {
      JSON_RPC_URL: node.url,
      PRIVATE_KEY: DEPLOYER_KEY,
      ROUTER_URL: router.url,
      L1_REST_URL: base.url,
      ROLLUP_REST_URL: rollup.url,
    };
  });

  beforeEach(async () => {
    journalDir = await mkdtemp(path.join(tmpdir(), "vip-cosmos-transfer-"));
    for (const chain of [base.state.chain, rollup.state.chain]) {
      chain.included = {};
      chain.broadcasts = 0;
      chain.refusals = [];
      chain.broadcastMode = "answer";
      chain.mempool = {};
    }
    base.state.chain.accounts = {
      [OPERATOR.bech32]: { accountNumber: 12n, sequence: 5n },
      [LEDGER.bech32]: { accountNumber: 40n, sequence: 0n },
    };
    rollup.state.chain.accounts = {
      [OPERATOR.bech32]: { accountNumber: 3n, sequence: 0n },
      [LEDGER.bech32]: { accountNumber: 9n, sequence: 2n },
    };
    base.state.balances = {
      [OPERATOR.bech32]: [{ denom: "uinit", amount: "5000000" }],
      [LEDGER.bech32]: [{ denom: "uinit", amount: "5000000" }],
    };
    router.state.tracked = {};
    router.state.calls = {};
    router.state.polls = {};
    router.state.hooks = [];
    router.state.chainList = [];
    router.state.faults = [];
    router.state.holdTrack = false;
    router.state.states = [
      "STATE_SUBMITTED",
      "STATE_PENDING",
      "STATE_COMPLETED_SUCCESS",
    ];
  });

  afterEach(() => rm(journalDir, { recursive: true, force: true }));

  after(async () => {
    await Promise.all([
      node.close(),
      base.close(),
      rollup.close(),
      router.close(),
    ]);
  });

  it("signs Skip's IBC MsgTransfer with its timeout_timestamp above 2^53 to the last digit, and the chain verifies it", async () => {
    const args = [
      "bridge:transfer",
      "--network",
      "rollup",
      "--from-chain",
      BASE,
      "--from-denom",
      "uinit",
      "--to-chain",
      IBC_DEST,
      "--to-denom",
      IBC_DENOM,
      "--amount",
      AMOUNT.toString(),
      "--to",
      OPERATOR.bech32,
      "--journal-dir",
      journalDir,
      "--poll-interval",
      "0.05",
      "--yes",
    ];
    const result = await runHardhat(args, env);
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(
      /^hops\s+1\. IBC transfer\/channel-25: interwoven-1 → echelon-1, uinit → ibc\/37A3\w+, 1000000 → 1000000 \(tx 1\)$/m,
    );
    expect(result.stdout).to.include(
      `  IBC transfer of ${AMOUNT} uinit over transfer/channel-25 to ${OPERATOR.bech32}`,
    );
    const included = Object.values(base.state.chain.included);
    expect(
      included,
      "the stand-in chain took it: its EIP-191 signature verified over the exact amino JSON",
    ).to.have.length(1);
    const [transfer] = included;
    expect(
      defined(transfer, "transfer").msgs.map((m) => m.typeUrl),
    ).to.deep.equal(["/ibc.applications.transfer.v1.MsgTransfer"]);
    expect(
      defined(
        defined(transfer, "transfer").msgs[0],
        'defined(transfer, "transfer").msgs[0]',
      ).full.timeout_timestamp,
    ).to.equal(SKIP_TIMEOUT_TIMESTAMP);
    expect(
      Number(SKIP_TIMEOUT_TIMESTAMP).toString(),
      "a rounded number would have signed another timeout",
    ).to.not.equal(SKIP_TIMEOUT_TIMESTAMP);
    expect(result.stdout).to.match(/^status\s+STATE_COMPLETED_SUCCESS$/m);
  });

  it("funds the operator on the rollup from the base chain: the op hook signed for the rollup, the deposit signed, taken once, tracked once", async () => {
    const result = await runHardhat(fundArgs(), env);
    expect(result.code, result.output).to.equal(0);
    const included = Object.values(base.state.chain.included);
    expect(included).to.have.length(1);
    const [deposit] = included;
    expect(
      defined(deposit, "deposit").msgs.map((m) => [
        m.typeUrl,
        m.full.bridge_id,
        m.full.amount,
      ]),
    ).to.deep.equal([
      [
        "/opinit.ophost.v1.MsgInitiateTokenDeposit",
        "16",
        { denom: "uinit", amount: AMOUNT.toString() },
      ],
    ]);
    expect(defined(deposit, "deposit").signer).to.equal(OPERATOR.bech32);
    expect(
      defined(
        base.state.chain.accounts[OPERATOR.bech32],
        "base.state.chain.accounts[OPERATOR.bech32]",
      ).sequence,
    ).to.equal(6n);
    expect(
      router.state.hooks,
      "msgs got a hook that verifies against the rollup's account",
    ).to.deep.equal([{ accepted: true, reason: "" }]);
    expect(
      defined(
        rollup.state.chain.accounts[OPERATOR.bech32],
        "rollup.state.chain.accounts[OPERATOR.bech32]",
      ).sequence,
      "nothing was sent from the rollup account",
    ).to.equal(0n);
    expect(router.state.tracked).to.deep.equal({
      [defined(deposit, "deposit").hash]: 1,
    });
    expect(result.stdout).to.match(
      new RegExp(
        `^op hook\\s+call contract 0x\\w+ with 196 bytes of input \\(selector 0x\\w{8}\\), sending 0 of the native token, on ${ROLLUP}$`,
        "m",
      ),
    );
    expect(result.stdout).to.match(
      new RegExp(
        `^op hook signed\\s+by ${OPERATOR.bech32} on ${ROLLUP}: account 3, sequence 0$`,
        "m",
      ),
    );
    expect(result.stderr).to.include(
      `${OPERATOR.bech32} must send nothing else on ${ROLLUP} until this transfer lands`,
    );
    expect(result.stdout).to.include(
      `transaction 1 of 1 on ${BASE} (Cosmos), signed by ${OPERATOR.bech32}`,
    );
    expect(result.stdout).to.include(
      `  deposit ${AMOUNT} uinit into OPinit bridge 16, for ${OPERATOR.bech32} on the rollup`,
    );
    // 120,000 gas simulated, +40%, at 0.015 uinit: 2,520 uinit.
    expect(result.stdout).to.match(
      new RegExp(
        `^signed\\s+transaction 1 ${defined(deposit, "deposit").hash} \\(account 12, sequence 5, fee 2520 uinit for 168000 gas\\)$`,
        "m",
      ),
    );
    expect(result.stdout).to.match(/^status\s+STATE_COMPLETED_SUCCESS$/m);

    const again = await runHardhat(fundArgs(), env);
    expect(again.code, again.output).to.equal(0);
    expect(again.stdout).to.include("resuming");
    expect(base.state.chain.broadcasts, "no second broadcast").to.equal(1);
    expect(router.state.tracked).to.deep.equal({
      [defined(deposit, "deposit").hash]: 1,
    });
  });

  it("moves tokens back: a withdrawal signed and sent on the rollup, where gas is free", async () => {
    const result = await runHardhat(backArgs(DEPLOYER), env);
    expect(result.code, result.output).to.equal(0);
    const [withdrawal] = Object.values(rollup.state.chain.included);
    expect(
      defined(withdrawal, "withdrawal").msgs.map((m) => [m.typeUrl, m.full.to]),
    ).to.deep.equal([
      ["/opinit.opchild.v1.MsgInitiateTokenWithdrawal", OPERATOR.bech32],
    ]);
    expect(result.stdout).to.match(
      new RegExp(
        `^signed\\s+transaction 1 ${defined(withdrawal, "withdrawal").hash} \\(account 3, sequence 0, fee none for 168000 gas\\)$`,
        "m",
      ),
    );
    expect(router.state.hooks, "no hook for this route").to.deep.equal([]);
    expect(router.state.tracked).to.deep.equal({
      [defined(withdrawal, "withdrawal").hash]: 1,
    });

    // A transaction the chain takes but that fails in its block: `Tx failed
    // <hash>` with the chain's log, not tracked.
    rollup.state.chain.failNext = {
      code: 11,
      log: "out of gas in location: WriteFlat; gasWanted: 168000, gasUsed: 170000: out of gas",
    };
    const failed = await runHardhat(backArgs(DEPLOYER, ["--new"]), env);
    const failedHash = defined(
      Object.keys(rollup.state.chain.included).find(
        (h) => h !== defined(withdrawal, "withdrawal").hash,
      ),
      "Object.keys(rollup.state.chain.included).find( (h) => h !...",
    );
    expect(failure(failed, ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_FAILED))
      .to.include(failedHash)
      .and.include(
        "out of gas in location: WriteFlat; gasWanted: 168000, gasUsed: 170000: out of gas (code 11)",
      );
    expect(
      router.state.tracked,
      "a failed transaction is not tracked",
    ).to.deep.equal({ [defined(withdrawal, "withdrawal").hash]: 1 });
  });

  it("takes a chain's REST endpoint from the router's chain list when configuration has none, only if the endpoint serves that chain", async () => {
    const { ROLLUP_REST_URL: _configured, ...withoutRollupRest } = env;
    const none = await runHardhat(backArgs(DEPLOYER), withoutRollupRest);
    expect(failure(none, ERRORS.NETWORK.ROUTER.NO_REST_ENDPOINT))
      .to.include(ROLLUP)
      .and.include(`L1_REST_URL serves ${BASE}`);
    expect(router.state.calls["GET /v2/info/chains"]).to.equal(1);

    router.state.chainList = [
      { chain_id: ROLLUP, chain_name: "rehearsal", rest: base.url },
    ];
    const mismatched = await runHardhat(backArgs(DEPLOYER), withoutRollupRest);
    expect(failure(mismatched, ERRORS.NETWORK.ROUTER.ROUTER_REST_WRONG_CHAIN))
      .to.include(base.url)
      .and.include(ROLLUP)
      .and.include(BASE);
    expect(
      rollup.state.chain.broadcasts + base.state.chain.broadcasts,
      "nothing signed or sent",
    ).to.equal(0);

    router.state.chainList = [
      { chain_id: BASE, chain_name: "initia", rest: base.url },
      { chain_id: ROLLUP, chain_name: "rehearsal", rest: rollup.url },
    ];
    const listed = await runHardhat(backArgs(DEPLOYER), withoutRollupRest);
    expect(listed.code, listed.output).to.equal(0);
    expect(listed.stdout).to.match(
      new RegExp(
        `^REST endpoint\\s+${rollup.url} for ${ROLLUP}, from the router's chain list \\(its node info says ${ROLLUP}\\)$`,
        "m",
      ),
    );
    const [withdrawal] = Object.values(rollup.state.chain.included);
    expect(defined(withdrawal, "withdrawal").signer).to.equal(OPERATOR.bech32);
    expect(router.state.tracked).to.deep.equal({
      [defined(withdrawal, "withdrawal").hash]: 1,
    });

    // Configuration wins over the list: with ROLLUP_REST_URL set, the list is
    // not asked.
    router.state.calls = {};
    const configured = await runHardhat(backArgs(DEPLOYER, ["--new"]), env);
    expect(configured.code, configured.output).to.equal(0);
    expect(configured.stdout).not.to.include("from the router's chain list");
    expect(router.state.calls["GET /v2/info/chains"]).to.equal(undefined);
  });

  it("runs a two-transaction route in order, each followed to its end before the next is signed, each tracked once", async () => {
    const result = await runHardhat(
      backArgs(DEPLOYER).map((a) => (a === L2_DENOM ? SPLIT_DENOM : a)),
      env,
    );
    expect(result.code, result.output).to.equal(0);
    const included = Object.values(rollup.state.chain.included).sort((a, b) =>
      Number(a.height - b.height),
    );
    expect(
      included.map(
        (tx) =>
          (defined(tx.msgs[0], "tx.msgs[0]").full.amount as { amount: string })
            .amount,
      ),
    ).to.deep.equal(["500000", "500000"]);
    expect(
      defined(
        rollup.state.chain.accounts[OPERATOR.bech32],
        "rollup.state.chain.accounts[OPERATOR.bech32]",
      ).sequence,
    ).to.equal(2n);
    expect(router.state.tracked).to.deep.equal({
      [defined(included[0], "included[0]").hash]: 1,
      [defined(included[1], "included[1]").hash]: 1,
    });
    const [records] = await journalRecords();
    const firstDone = defined(records, "records").findIndex(
      (r) =>
        r.type === "done" &&
        r.hash === defined(included[0], "included[0]").hash,
    );
    const secondSigned = defined(records, "records").findIndex(
      (r) => r.type === "cosmos-signed" && r.step === "tx1",
    );
    expect(firstDone, "the first transfer ended").to.be.greaterThan(-1);
    expect(
      secondSigned,
      "before the second transaction was signed",
    ).to.be.greaterThan(firstDone);
  });

  it("refuses before signing: a hook route to someone else, a signer without an account, a fee it cannot pay", async () => {
    expect(
      failure(
        await runHardhat(
          fundArgs().map((a) => (a === DEPLOYER ? LEDGER_ADDRESS : a)),
          env,
        ),
        ERRORS.NETWORK.TRANSFER.HOOK_RECIPIENT_NOT_SIGNER,
      ),
    ).to.include("--to 0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    delete rollup.state.chain.accounts[OPERATOR.bech32];
    await rm(journalDir, { recursive: true, force: true });
    expect(
      failure(
        await runHardhat(backArgs(DEPLOYER), env),
        ERRORS.NETWORK.COSMOS_TX.NO_COSMOS_ACCOUNT,
      ),
    )
      .to.include(OPERATOR.bech32)
      .and.include(ROLLUP);
    rollup.state.chain.accounts[OPERATOR.bech32] = {
      accountNumber: 3n,
      sequence: 0n,
    };
    base.state.balances[OPERATOR.bech32] = [
      { denom: "uinit", amount: "1000000" },
    ];
    expect(
      failure(
        await runHardhat(fundArgs(), env),
        ERRORS.NETWORK.COSMOS_TX.INSUFFICIENT_FUNDS,
      ),
    )
      .to.include(OPERATOR.bech32)
      .and.include("1000000 uinit")
      .and.include(BASE)
      .and.include("1002520")
      .and.include("fee 2520")
      .and.include("168000 gas");
    expect(
      base.state.chain.broadcasts + rollup.state.chain.broadcasts,
      "nothing was broadcast",
    ).to.equal(0);
  });

  it("a hook gone stale before msgs is refused by the router, and one gone stale before the broadcast is refused by the re-check; --new signs afresh", async () => {
    // The first run signs and journals the hook, then msgs fails once.
    router.state.faults = ["none", "none", "500"];
    const first = await runHardhat(fundArgs(), env);
    expect(failure(first, ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS))
      .to.include("/v2/fungible/msgs")
      .and.include(" 500");
    // Meanwhile the rollup account sends a transaction: the journalled hook is
    // stale.
    defined(
      rollup.state.chain.accounts[OPERATOR.bech32],
      "rollup.state.chain.accounts[OPERATOR.bech32]",
    ).sequence = 1n;
    const stale = await runHardhat(fundArgs(), env);
    expect(failure(stale, ERRORS.NETWORK.ROUTER.ROUTER_HTTP_STATUS))
      .to.include(" 400")
      .and.include(
        "invalid op hook: account sequence mismatch, expected 1, got 0: incorrect account sequence",
      );
    expect(router.state.hooks.map((h) => h.accepted)).to.deep.equal([false]);

    const fresh = await runHardhat(fundArgs(["--new"]), env);
    expect(fresh.code, fresh.output).to.equal(0);
    expect(fresh.stdout).to.match(
      new RegExp(
        `^op hook signed\\s+by ${OPERATOR.bech32} on ${ROLLUP}: account 3, sequence 1$`,
        "m",
      ),
    );
    expect(Object.keys(base.state.chain.included)).to.have.length(1);

    // The hook signed, msgs answered, then the account moves before the deposit
    // is broadcast: nothing is sent.
    delete base.state.chain.accounts[OPERATOR.bech32];
    const noAccount = await runHardhat(fundArgs(["--new"]), env);
    expect(failure(noAccount, ERRORS.NETWORK.COSMOS_TX.NO_COSMOS_ACCOUNT))
      .to.include(OPERATOR.bech32)
      .and.include(BASE);
    base.state.chain.accounts[OPERATOR.bech32] = {
      accountNumber: 12n,
      sequence: 6n,
    };
    defined(
      rollup.state.chain.accounts[OPERATOR.bech32],
      "rollup.state.chain.accounts[OPERATOR.bech32]",
    ).sequence = 2n;
    const moved = await runHardhat(fundArgs(), env);
    expect(failure(moved, ERRORS.NETWORK.COSMOS_TX.HOOK_SEQUENCE_MOVED))
      .to.include(OPERATOR.bech32)
      .and.include(ROLLUP)
      .and.include("from 1 to 2");
    expect(
      Object.keys(base.state.chain.included),
      "still only the first deposit",
    ).to.have.length(1);
  });

  it("resumes after a SIGKILL at each step with one deposit taken and one track: at /op-hook, before the chain took the bytes, after, and at track", async () => {
    const killWhen = async (condition: () => boolean) => {
      const run = spawnHardhat(fundArgs(), env);
      await waitFor(condition);
      run.child.kill("SIGKILL");
      await run.result.catch(() => undefined);
    };
    router.state.faults = ["none", "hold"]; // route answered, /op-hook taken and never answered
    await killWhen(() => (router.state.calls["POST /op-hook"] ?? 0) > 0);
    base.state.chain.broadcastMode = "hold-before"; // the broadcast is lost on the way
    await killWhen(() => base.state.chain.broadcasts > 0);
    expect(Object.keys(base.state.chain.included)).to.deep.equal([]);
    base.state.chain.broadcastMode = "hold-after"; // the same bytes again: taken, the answer lost
    await killWhen(() => base.state.chain.broadcasts > 1);
    const [hash] = Object.keys(base.state.chain.included);
    router.state.holdTrack = true;
    await killWhen(() => (router.state.calls["POST /v2/tx/track"] ?? 0) > 0);
    router.state.holdTrack = false;

    const last = await runHardhat(fundArgs(), env);
    expect(last.code, last.output).to.equal(0);
    expect(
      base.state.chain.broadcasts,
      "found by its hash: not broadcast a third time",
    ).to.equal(2);
    expect(Object.keys(base.state.chain.included)).to.deep.equal([hash]);
    expect(
      defined(
        base.state.chain.accounts[OPERATOR.bech32],
        "base.state.chain.accounts[OPERATOR.bech32]",
      ).sequence,
    ).to.equal(6n);
    expect(router.state.tracked).to.deep.equal({ [defined(hash, "hash")]: 1 });
    const [records] = await journalRecords();
    expect(
      defined(records, "records").filter((r) => r.type === "hook"),
      "one hook, signed once",
    ).to.have.length(1);
    expect(
      defined(records, "records").filter((r) => r.type === "cosmos-signed"),
      "one deposit, signed once",
    ).to.have.length(1);
  });

  it("after a kill, a deposit the chain may hold is waited for, not called unsent, when the hook's account has moved; one that never arrived is journalled not sent", async () => {
    const killAtBroadcast = async (extra: string[] = []) => {
      const before = base.state.chain.broadcasts;
      const run = spawnHardhat(fundArgs(extra), env);
      await waitFor(() => base.state.chain.broadcasts > before);
      run.child.kill("SIGKILL");
      await run.result.catch(() => undefined);
    };
    // The chain takes the deposit into its mempool; the run is killed before
    // the answer.
    base.state.chain.broadcastMode = "hold-in-mempool";
    await killAtBroadcast();
    const [pending] = Object.keys(base.state.chain.mempool);
    expect(pending, "the deposit waits in the mempool").to.be.a("string");
    defined(
      rollup.state.chain.accounts[OPERATOR.bech32],
      "rollup.state.chain.accounts[OPERATOR.bech32]",
    ).sequence = 1n; // the hook's account sends something else

    const landed = await runHardhat(fundArgs(), env);
    expect(landed.code, landed.output).to.equal(0);
    expect(landed.stderr).to.include(
      `the sequence of ${OPERATOR.bech32} on ${ROLLUP} moved from 0 to 1 since the op hook was signed, but transaction 1 ${pending} may have reached ${BASE} before the restart: it is not sent again, but waited for`,
    );
    expect(landed.stderr).to.include(
      `transaction 1 ${pending} had reached ${BASE}: the transfer goes on, but its op hook will not run as signed`,
    );
    expect(base.state.chain.broadcasts, "not sent a second time").to.equal(1);
    expect(Object.keys(base.state.chain.included)).to.deep.equal([pending]);
    expect(router.state.tracked).to.deep.equal({
      [defined(pending, "pending")]: 1,
    });

    // A deposit lost on its way, and the hook's account moves: after the wait,
    // it is journalled not sent.
    base.state.chain.broadcastMode = "hold-before";
    await killAtBroadcast(["--new"]);
    defined(
      rollup.state.chain.accounts[OPERATOR.bech32],
      "rollup.state.chain.accounts[OPERATOR.bech32]",
    ).sequence = 2n;
    const lost = await runHardhat(fundArgs(), env);
    expect(failure(lost, ERRORS.NETWORK.COSMOS_TX.HOOK_SEQUENCE_MOVED))
      .to.include(OPERATOR.bech32)
      .and.include(ROLLUP)
      .and.include("from 1 to 2");
    expect(
      base.state.chain.broadcasts,
      "the lost deposit is not sent again",
    ).to.equal(2);
    const fresh = await runHardhat(fundArgs(["--new"]), env);
    expect(fresh.code, fresh.output).to.equal(0);
    expect(fresh.stdout).to.match(
      new RegExp(
        `^op hook signed\\s+by ${OPERATOR.bech32} on ${ROLLUP}: account 3, sequence 2$`,
        "m",
      ),
    );
    expect(Object.keys(base.state.chain.included)).to.have.length(2);
    expect(
      defined(
        base.state.chain.accounts[OPERATOR.bech32],
        "base.state.chain.accounts[OPERATOR.bech32]",
      ).sequence,
    ).to.equal(7n);
  });

  if (!ledgerInstalled) {
    it("refuses LEDGER_ACCOUNT with what to install when Ledger support is missing", async () => {
      const result = await runHardhat(backArgs(LEDGER_ADDRESS), {
        ...env,
        PRIVATE_KEY: undefined,
        LEDGER_ACCOUNT: LEDGER_ADDRESS,
      });
      failure(result, ERRORS.CONFIG.TOOLS.LEDGER_NOT_INSTALLED);
      expect(rollup.state.chain.broadcasts).to.equal(0);
    });
    return;
  }

  it("signs a Cosmos transaction on a Ledger (through the fake device's personal_sign), with no private key anywhere", async () => {
    const deviceLog = path.join(journalDir, "device.log");
    const ledgerEnv = {
      ...env,
      PRIVATE_KEY: undefined,
      LEDGER_ACCOUNT: LEDGER_ADDRESS,
      FAKE_LEDGER_KEY: LEDGER_KEY,
      FAKE_LEDGER_LOG: deviceLog,
    };
    const result = await runHardhat(backArgs(LEDGER_ADDRESS), ledgerEnv, {
      nodeOptions: `--import ${FAKE_DEVICE}`,
    });
    expect(result.code, result.output).to.equal(0);
    expect(result.stdout).to.match(
      new RegExp(
        `^signer\\s+${LEDGER_ADDRESS} \\(${LEDGER.bech32}, Ledger\\)$`,
        "m",
      ),
    );
    const [withdrawal] = Object.values(rollup.state.chain.included);
    expect([withdrawal?.signer, withdrawal?.mode]).to.deep.equal([
      LEDGER.bech32,
      "EIP-191",
    ]);
    expect(
      defined(
        rollup.state.chain.accounts[LEDGER.bech32],
        "rollup.state.chain.accounts[LEDGER.bech32]",
      ).sequence,
    ).to.equal(3n);
    const device = await readFile(deviceLog, "utf8");
    expect(device).to.match(
      /^SIGN_PERSONAL_MESSAGE m\/44'\/60'\/0'\/0\/0 \d+ bytes$/m,
    );
  });
});
