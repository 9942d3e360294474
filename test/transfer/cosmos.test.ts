import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { Wallet } from "ethers";

import { broadcastTx } from "../../tasks/clients/cosmos-tx.js";
import { type CosmosTx, RouterClient } from "../../tasks/clients/router.js";
import { checkMsg } from "../../tasks/cosmos/amino.js";
import { HookSequenceMoved } from "../../tasks/cosmos/op-hook.js";
import { signCosmosTx } from "../../tasks/cosmos/sign.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined } from "../../tasks/errors.js";
import { Journal } from "../../tasks/journal/journal.js";
import { accountAddresses } from "../../tasks/signer/addresses.js";
import {
  type L1RestStandIn,
  startL1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import {
  opinitRoute,
  type RouterStandIn,
  startRouterStandIn,
} from "../../tasks/stand-ins/router.js";
import {
  type CosmosContext,
  runCosmosTx,
} from "../../tasks/transfer/cosmos.js";
import {
  recordsOf,
  type TransferRecord,
} from "../../tasks/transfer/records.js";
import { refusal } from "../helpers/failure.js";
import { DEPLOYER, DEPLOYER_KEY } from "../helpers/keys.js";

const BASE = "interwoven-1";
const ROLLUP = "rehearsal-1";
const L2_DENOM =
  "l2/2588fd87a8e081f6a557f43ff14f05dddf5e34cb27afcefd6eaf81f1daea30d0";
const AMOUNT = 1_000_000n;
const OPERATOR = accountAddresses(DEPLOYER, "test");
const SEQUENCE = 5n;

/** What a kill leaves: the run stops right after this record is written. */
class Killed extends Error {}

describe("runCosmosTx: a cosmos_tx of a route broadcast once across kills, against the base chain's stand-in", () => {
  let router: RouterStandIn;
  let base: L1RestStandIn;
  /** The stand-in router's cosmos_tx: an OPinit deposit on the base chain. */
  let tx: CosmosTx;
  let dir: string;
  let lines: string[];
  let warnings: string[];
  /** Signatures the operator's key made (the op hook's and the tx's). */
  let signatures: number;
  let guardCalls: number;

  const wallet = new Wallet(DEPLOYER_KEY);
  const account = {
    ...OPERATOR,
    signer: {
      signMessage: (message: string | Uint8Array) => {
        signatures++;
        return wallet.signMessage(message);
      },
    },
  };

  before(async () => {
    const route = opinitRoute({
      from: BASE,
      to: ROLLUP,
      denomIn: "uinit",
      denomOut: L2_DENOM,
      bridgeId: "16",
      amountIn: AMOUNT,
      opHook: false,
    });
    route.msgs = {
      cosmos: { chainId: BASE, message: "deposit", bridgeId: "16" },
    };
    router = await startRouterStandIn({ routes: [route] });
    const msgs = await new RouterClient(router.url).msgs({
      source_asset_denom: "uinit",
      source_asset_chain_id: BASE,
      dest_asset_denom: L2_DENOM,
      dest_asset_chain_id: ROLLUP,
      amount_in: AMOUNT.toString(),
      amount_out: AMOUNT.toString(),
      operations: [],
      address_list: [OPERATOR.bech32, DEPLOYER],
      slippage_tolerance_percent: "1",
    });
    const only = defined(msgs.txs[0], "the route has one transaction");
    if (!("cosmos_tx" in only))
      throw new Error("the stand-in answered no cosmos_tx");
    tx = only.cosmos_tx;
  });

  after(() => router.close());

  beforeEach(async () => {
    base = await startL1RestStandIn();
    base.state.chain.accounts[OPERATOR.bech32] = {
      accountNumber: 12n,
      sequence: SEQUENCE,
    };
    base.state.balances[OPERATOR.bech32] = [
      { denom: "uinit", amount: (100n * AMOUNT).toString() },
    ];
    dir = await mkdtemp(path.join(tmpdir(), "vip-cosmos-tx-"));
    lines = [];
    warnings = [];
    signatures = 0;
    guardCalls = 0;
  });

  afterEach(async () => {
    await base.close();
    await rm(dir, { recursive: true, force: true });
  });

  const journalFile = () => path.join(dir, "transfer.jsonl");
  const openJournal = () => Journal.open<TransferRecord>(journalFile());
  /** The journal's lines as written. */
  const journalLines = async () =>
    (await readFile(journalFile(), "utf8")).trim().split("\n");
  /** The journal file made of `kept` alone, as a kill after the last leaves it. */
  const writeJournal = (kept: string[]) =>
    writeFile(journalFile(), kept.map((line) => `${line}\n`).join(""));
  const context = (
    journal: Journal<TransferRecord>,
    overrides: Partial<CosmosContext> = {},
  ): CosmosContext => ({
    journal,
    account,
    restUrl: (chainId) => {
      expect(chainId).to.equal(BASE);
      return Promise.resolve(base.url);
    },
    beforeBroadcast: () => {
      guardCalls++;
      return Promise.resolve();
    },
    out: {
      line: (text) => lines.push(text),
      warn: (text) => warnings.push(text),
    },
    pollMs: 5,
    inclusionTimeoutMs: 10_000,
    ...overrides,
  });
  const chain = () => base.state.chain;
  const sequence = () =>
    defined(chain().accounts[OPERATOR.bech32], "the operator's account")
      .sequence;
  /** Makes `journal` stop the run right after it writes a `type` record, once. */
  const killAfter = (
    journal: Journal<TransferRecord>,
    type: TransferRecord["type"],
  ) => {
    const append = journal.append.bind(journal);
    let killed = false;
    journal.append = async (...records: TransferRecord[]) => {
      await append(...records);
      if (!killed && records.some((r) => r.type === type)) {
        killed = true;
        throw new Killed(`killed after ${type}`);
      }
    };
  };
  const killed = (run: Promise<string>) =>
    run.then(
      () => expect.fail("the run should have been killed"),
      (error: unknown) => expect(error).to.be.instanceOf(Killed),
    );
  /** Another transaction of the operator's, signed with `sequence`. */
  const another = (seq: bigint) =>
    signCosmosTx({
      chainId: BASE,
      accountNumber: 12n,
      sequence: seq,
      msgs: [
        checkMsg(
          {
            msg_type_url: "/opinit.ophost.v1.MsgInitiateTokenDeposit",
            msg: JSON.stringify({
              sender: OPERATOR.bech32,
              bridge_id: 16,
              to: OPERATOR.bech32,
              amount: { denom: "uinit", amount: 7 },
            }),
          },
          "another transaction",
        ),
      ],
      fee: { amount: [{ denom: "uinit", amount: "3000" }], gas: "200000" },
      account: { ...OPERATOR, signer: wallet },
    });

  it("signs, journals, broadcasts once and records the inclusion of a fresh transaction", async () => {
    const journal = await openJournal();
    const hash = await runCosmosTx(context(journal), 0, tx);
    expect(journal.records.map((r) => r.type)).to.deep.equal([
      "cosmos-signed",
      "sent",
      "confirmed",
    ]);
    const signed = defined(
      recordsOf(journal.records, "cosmos-signed")[0],
      "the signed record",
    );
    expect(signed).to.deep.include({
      step: "tx0",
      chainId: BASE,
      signer: OPERATOR.bech32,
      sequence: SEQUENCE.toString(),
      hash,
    });
    const included = defined(chain().included[hash], "the chain has it");
    expect(included.code).to.equal(0);
    expect(included.msgs[0]?.full.bridge_id).to.equal("16");
    // The gas the chain says the transaction used (its `gas_used`).
    expect(included.gasUsed).to.be.greaterThan(0n);
    expect(recordsOf(journal.records, "confirmed")[0]).to.deep.include({
      hash,
      status: 1,
      blockNumber: Number(included.height),
      gasUsed: included.gasUsed.toString(),
    });
    expect(chain().broadcasts).to.equal(1);
    expect(sequence()).to.equal(SEQUENCE + 1n);
    expect(signatures).to.equal(1);
    expect(
      guardCalls,
      "the hook's check before signing and again before sending",
    ).to.equal(2);
    expect((await openJournal()).records).to.deep.equal(journal.records);
  });

  for (const type of ["cosmos-signed", "sent", "confirmed"] as const) {
    it(`resumes after a kill right after the ${type} record: the same transaction included once, never signed or broadcast again`, async () => {
      const first = await openJournal();
      killAfter(first, type);
      await killed(runCosmosTx(context(first), 0, tx));
      const broadcastsBefore = chain().broadcasts;
      expect(broadcastsBefore).to.equal(type === "cosmos-signed" ? 0 : 1);
      const resumed = await openJournal();
      const hash = await runCosmosTx(context(resumed), 0, tx);
      expect(chain().broadcasts, "one broadcast in all").to.equal(1);
      expect(signatures, "signed once").to.equal(1);
      expect(Object.keys(chain().included)).to.deep.equal([hash]);
      expect(sequence()).to.equal(SEQUENCE + 1n);
      expect(
        recordsOf(resumed.records, "cosmos-signed").map((r) => r.hash),
      ).to.deep.equal([hash]);
      expect(
        recordsOf(resumed.records, "confirmed").map((r) => [r.hash, r.status]),
      ).to.deep.equal([[hash, 1]]);
      if (type === "cosmos-signed")
        expect(lines.some((l) => /resending/.test(l))).to.equal(true);
    });
  }

  /**
   * A finished run's journal cut after its record `k` (1: cosmos-signed, 2:
   * sent, 3: confirmed), as a kill after that record leaves it when the chain
   * went on without the run: the broadcast had reached it, the transaction is
   * in a block.
   */
  for (const [k, last] of [
    [1, "cosmos-signed"],
    [2, "sent"],
    [3, "confirmed"],
  ] as const) {
    it(`resumes a journal cut after record ${k} (${last}) of a transaction the chain included: found by its hash, never signed or broadcast again`, async () => {
      const first = await openJournal();
      const hash = await runCosmosTx(context(first), 0, tx);
      const written = await journalLines();
      expect(written).to.have.length(3);
      await writeJournal(written.slice(0, k));
      const resumed = await openJournal();
      expect(await runCosmosTx(context(resumed), 0, tx)).to.equal(hash);
      expect(chain().broadcasts, "one broadcast in all").to.equal(1);
      expect(signatures, "signed once").to.equal(1);
      expect(sequence()).to.equal(SEQUENCE + 1n);
      // The cut journal, then the inclusion as the first run journalled it.
      expect(resumed.records.map((r) => r.type)).to.deep.equal(
        k === 3
          ? ["cosmos-signed", "sent", "confirmed"]
          : [...first.records.slice(0, k).map((r) => r.type), "confirmed"],
      );
      expect(resumed.records.at(-1)).to.deep.equal(first.records.at(-1));
      // A third run, on the finished journal, sends nothing.
      expect(await runCosmosTx(context(await openJournal()), 0, tx)).to.equal(
        hash,
      );
      expect(chain().broadcasts).to.equal(1);
    });
  }

  /**
   * A transaction's lines as the version before the shared records wrote them
   * (tasks/transfer/cosmos.ts at 8e4b939): its `cosmos-signed` line (this
   * version writes the same), `sent` without the sequence, `mined` with
   * `block`, `status` and the chain's `log`.
   */
  const earlierLines = (signed: string, hash: string, block: number) => [
    signed,
    `{"type":"sent","step":"tx0","hash":"${hash}"}`,
    `{"type":"mined","step":"tx0","hash":"${hash}","block":${block},"status":1,"log":""}`,
  ];

  for (const k of [1, 2, 3]) {
    it(`resumes a journal of the earlier shape (sent without its sequence, mined) cut after record ${k}: never broadcast again`, async () => {
      const first = await openJournal();
      const hash = await runCosmosTx(context(first), 0, tx);
      const [signed] = await journalLines();
      const height = Number(
        defined(chain().included[hash], "the chain has it").height,
      );
      await writeJournal(
        earlierLines(defined(signed, "the signed line"), hash, height).slice(
          0,
          k,
        ),
      );
      const resumed = await openJournal();
      expect(await runCosmosTx(context(resumed), 0, tx)).to.equal(hash);
      expect(chain().broadcasts, "one broadcast in all").to.equal(1);
      expect(signatures, "signed once").to.equal(1);
      // The earlier lines are left as they were; the inclusion, when they did
      // not hold it, is journalled in this version's words.
      expect(resumed.records.map((r) => r.type)).to.deep.equal(
        k === 3
          ? ["cosmos-signed", "sent", "mined"]
          : [...["cosmos-signed", "sent"].slice(0, k), "confirmed"],
      );
      if (k < 3)
        expect(resumed.records.at(-1)).to.deep.include({
          type: "confirmed",
          hash,
          blockNumber: height,
          status: 1,
        });
    });
  }

  it("reports an earlier-shape journal's failed transaction (mined, status 0) again with its log, sending nothing", async () => {
    const journal = await openJournal();
    killAfter(journal, "cosmos-signed");
    await killed(runCosmosTx(context(journal), 0, tx));
    const [signed] = await journalLines();
    const { hash } = defined(
      recordsOf(journal.records, "cosmos-signed")[0],
      "the signed record",
    );
    await writeJournal([
      defined(signed, "the signed line"),
      `{"type":"sent","step":"tx0","hash":"${hash}"}`,
      `{"type":"mined","step":"tx0","hash":"${hash}","block":7,"status":0,"log":"out of gas"}`,
    ]);
    const error = await refusal(
      runCosmosTx(context(await openJournal()), 0, tx),
      ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_FAILED,
    );
    expect(error.params).to.deep.include({ hash, log: "out of gas" });
    expect(chain().broadcasts).to.equal(0);
  });

  it("resumes a transaction the killed run had broadcast before journalling it sent: found by its hash, not sent again", async () => {
    const first = await openJournal();
    killAfter(first, "cosmos-signed");
    await killed(runCosmosTx(context(first), 0, tx));
    const signed = defined(
      recordsOf(first.records, "cosmos-signed")[0],
      "the signed record",
    );
    // The killed run's broadcast had reached the chain.
    await broadcastTx(base.url, Buffer.from(signed.txBytes, "base64"));
    const resumed = await openJournal();
    expect(await runCosmosTx(context(resumed), 0, tx)).to.equal(signed.hash);
    expect(chain().broadcasts).to.equal(1);
    expect(resumed.records.map((r) => r.type)).to.deep.equal([
      "cosmos-signed",
      "confirmed",
    ]);
  });

  it("resumes a transaction still in the mempool: the same bytes again, taken once (already known), waited for", async () => {
    const first = await openJournal();
    killAfter(first, "cosmos-signed");
    await killed(runCosmosTx(context(first), 0, tx));
    const signed = defined(
      recordsOf(first.records, "cosmos-signed")[0],
      "the signed record",
    );
    // The killed run's broadcast is taken into the mempool, never answered.
    chain().broadcastMode = "hold-in-mempool";
    const held = broadcastTx(base.url, Buffer.from(signed.txBytes, "base64"));
    held.catch(() => undefined);
    const resumed = await openJournal();
    const hash = await runCosmosTx(context(resumed), 0, tx);
    expect(hash).to.equal(signed.hash);
    expect(chain().refusals.map((r) => r.code)).to.deep.equal([19]);
    expect(Object.keys(chain().included)).to.deep.equal([hash]);
    expect(sequence()).to.equal(SEQUENCE + 1n);
    expect(signatures).to.equal(1);
  });

  it("stops when the journalled transaction's sequence was taken by another one (COSMOS_SEQUENCE_TAKEN), broadcasting nothing and journalling no refusal", async () => {
    const first = await openJournal();
    killAfter(first, "cosmos-signed");
    await killed(runCosmosTx(context(first), 0, tx));
    const intruder = await another(SEQUENCE);
    expect((await broadcastTx(base.url, intruder.txBytes)).code).to.equal(0);
    const broadcasts = chain().broadcasts;
    const resumed = await openJournal();
    const error = await refusal(
      runCosmosTx(context(resumed, { inclusionTimeoutMs: 200 }), 0, tx),
      ERRORS.NETWORK.COSMOS_TX.COSMOS_SEQUENCE_TAKEN,
    );
    expect(error.params.sequence).to.equal(SEQUENCE);
    expect(chain().broadcasts, "nothing broadcast").to.equal(broadcasts);
    expect(resumed.records.map((r) => r.type)).to.deep.equal(["cosmos-signed"]);
  });

  it("journals a transaction the chain refuses at broadcast (its sequence taken meanwhile: code 32), and never sends it again", async () => {
    const journal = await openJournal();
    let intruded = false;
    const refused = await refusal(
      runCosmosTx(
        context(journal, {
          beforeBroadcast: async () => {
            guardCalls++;
            // Between signing and sending, another transaction takes the
            // sequence.
            if (guardCalls === 2 && !intruded) {
              intruded = true;
              await broadcastTx(base.url, (await another(SEQUENCE)).txBytes);
            }
          },
        }),
        0,
        tx,
      ),
      ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_REFUSED,
    );
    expect(refused.params.code).to.equal(32);
    expect(chain().refusals.map((r) => r.code)).to.deep.equal([32]);
    expect(journal.records.map((r) => r.type)).to.deep.equal([
      "cosmos-signed",
      "refused",
    ]);
    expect(recordsOf(journal.records, "refused")[0]?.code).to.equal(32);
    const broadcasts = chain().broadcasts;
    const again = await refusal(
      runCosmosTx(context(await openJournal()), 0, tx),
      ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_NOT_TAKEN,
    );
    expect(again.params.hash).to.equal(refused.params.hash);
    expect(chain().broadcasts).to.equal(broadcasts);
    expect(signatures).to.equal(1);
  });

  it("journals a transaction that fails in its block (COSMOS_TX_FAILED) and reports it again from the journal", async () => {
    chain().failNext = { code: 11, log: "out of gas" };
    const journal = await openJournal();
    const error = await refusal(
      runCosmosTx(context(journal), 0, tx),
      ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_FAILED,
    );
    expect(error.params.log).to.match(/out of gas/);
    expect(recordsOf(journal.records, "confirmed")[0]?.status).to.equal(0);
    await refusal(
      runCosmosTx(context(await openJournal()), 0, tx),
      ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_FAILED,
    );
    expect(chain().broadcasts).to.equal(1);
  });

  it("never sends a transaction the op hook's check forbids after signing: journalled refused, nothing broadcast", async () => {
    const journal = await openJournal();
    const moved = new HookSequenceMoved(OPERATOR.bech32, ROLLUP, 3n, 4n);
    const error = await runCosmosTx(
      context(journal, {
        beforeBroadcast: () => {
          guardCalls++;
          return guardCalls === 2 ? Promise.reject(moved) : Promise.resolve();
        },
      }),
      0,
      tx,
    ).then(
      () => expect.fail("the transaction should not be sent"),
      (e: unknown) => e,
    );
    expect(error).to.equal(moved);
    expect(chain().broadcasts).to.equal(0);
    expect(journal.records.map((r) => r.type)).to.deep.equal([
      "cosmos-signed",
      "refused",
    ]);
    await refusal(
      runCosmosTx(context(await openJournal()), 0, tx),
      ERRORS.NETWORK.COSMOS_TX.COSMOS_TX_NOT_TAKEN,
    );
    expect(chain().broadcasts).to.equal(0);
  });
});
