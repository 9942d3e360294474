import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { Journal } from "../../tasks/journal/journal.js";
import { nextAction } from "../../tasks/journal/next-action.js";
import {
  cosmosNextAction,
  cosmosStepState,
} from "../../tasks/transfer/cosmos-step-state.js";
import { type TransferRecord, underWay } from "../../tasks/transfer/records.js";
import { stepState, transactionsOut } from "../../tasks/transfer/step-state.js";

const FROM = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const APPROVE =
  "0x095ea7b3000000000000000000000000e7f1725e7734ce288f8367e1bb143e90bb3f051200000000000000000000000000000000000000000000000000000000000f4240";
const APPROVE_HASH =
  "0xa0513ae17a2738a0b1d4171cb2164bbf4969c33630ff552fd9c51043894ba995";
const DEPOSIT_HASH =
  "0x5960f089391a279ccf494877d101ee6ad81449d5ea89ff75a146f5bea45db3bf";

/**
 * A transfer journal's EVM lines as the version before the shared records
 * wrote them (copied from a run of test/transfer/evm.test.ts's fresh
 * transfer; the deposit's calldata shortened, as nothing reads it here):
 * `sending` with `fromBlock`, `sent` without its nonce, `mined` with `block`
 * and no gas.
 */
const LINES = [
  `{"type":"sending","step":"tx0-approve0","chainId":"31337","from":"${FROM}","nonce":2,"to":"0x5FbDB2315678afecb367f032d93F642f64180aa3","data":"${APPROVE}","value":"0","fromBlock":2}`,
  `{"type":"sent","step":"tx0-approve0","hash":"${APPROVE_HASH}"}`,
  `{"type":"mined","step":"tx0-approve0","hash":"${APPROVE_HASH}","block":3,"status":1}`,
  `{"type":"sending","step":"tx0","chainId":"31337","from":"${FROM}","nonce":3,"to":"0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512","data":"0x19e5c034","value":"0","fromBlock":3}`,
  `{"type":"sent","step":"tx0","hash":"${DEPOSIT_HASH}"}`,
  `{"type":"mined","step":"tx0","hash":"${DEPOSIT_HASH}","block":4,"status":1}`,
];

const COSMOS_HASH =
  "E3D1F180F1737BDA0BBFC9A184278F225F346CF41D14518E6BA424135265F0D7";
const COSMOS_TX_BYTES =
  "Cp0BCpoBCikvb3Bpbml0Lm9waG9zdC52MS5Nc2dJbml0aWF0ZVRva2VuRGVwb3NpdBJtCitpbml0MTd3MGFkZWc2NGt5MGRheHdkMnVneXVuZWVsbG1qZ254ZHRtcHF6EBAaKjB4ZjM5RmQ2ZTUxYWFkODhGNkY0Y2U2YUI4ODI3Mjc5Y2ZmRmI5MjI2NiIQCgV1aW5pdBIHMTAwMDAwMBJzClwKUQoqL2luaXRpYS5jcnlwdG8udjFiZXRhMS5ldGhzZWNwMjU2azEuUHViS2V5EiMKIQODGFNbVBBdSnquYMCPxF+WhxgbT9/GJb0adT+nOX/tdRIFCgMIvwEYBRITCg0KBXVpbml0EgQyNTIwEMCgChpAEMONl5W4DuQruJjuyrWNz5sa5WavOoSJ4pf/qfCDn352O6OK8zHVqKXgJMm20C5QDCe5XNpfNV6LLQl1AiBElQ==";

/**
 * A transfer journal's Cosmos lines as the version before the shared records
 * wrote them (copied from a run of test/transfer/cosmos.test.ts's fresh
 * transaction at 8e4b939): `cosmos-signed` (which this version still writes),
 * `sent` without the sequence, `mined` with `block`, `status` and the chain's
 * `log`.
 */
const COSMOS_LINES = [
  `{"type":"cosmos-signed","step":"tx0","chainId":"interwoven-1","signer":"init17w0adeg64ky0daxwd2ugyuneellmjgnxdtmpqz","sequence":"5","hash":"${COSMOS_HASH}","txBytes":"${COSMOS_TX_BYTES}"}`,
  `{"type":"sent","step":"tx0","hash":"${COSMOS_HASH}"}`,
  `{"type":"mined","step":"tx0","hash":"${COSMOS_HASH}","block":101,"status":1,"log":""}`,
];

describe("transfer journals of the version before the shared transaction records", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vip-earlier-transfer-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** The journal of `lines`, opened as the transfer opens it. */
  async function journalOf(lines: string[]): Promise<Journal<TransferRecord>> {
    const file = path.join(dir, "transfer.jsonl");
    await writeFile(file, lines.map((line) => `${line}\n`).join(""));
    return Journal.open<TransferRecord>(file);
  }

  it("reads a finished transfer's mined records as confirmed: done, with the block and no gas", async () => {
    const { records } = await journalOf(LINES);
    for (const [step, hash, blockNumber] of [
      ["tx0-approve0", APPROVE_HASH, 3],
      ["tx0", DEPOSIT_HASH, 4],
    ] as const) {
      expect(nextAction(stepState(records, step))).to.deep.equal({
        action: "done",
        confirmed: {
          status: "confirmed",
          hash,
          blockNumber,
          gasUsed: 0n,
          success: true,
        },
      });
    }
  });

  it("resumes each kill point of the earlier shape with the action of the same point today", async () => {
    const expected: [number, string, unknown][] = [
      [0, "send", undefined],
      [
        4,
        "check-nonce",
        { status: "sending", nonce: 3, block: 3, data: "0x19e5c034" },
      ],
      // The nonce of an earlier `sent` is its `sending` record's.
      [5, "wait-for-receipt", { status: "sent", nonce: 3, hash: DEPOSIT_HASH }],
    ];
    for (const [length, action, state] of expected) {
      const { records } = await journalOf(LINES.slice(0, length));
      const next = nextAction(stepState(records, "tx0"));
      expect(next.action, `${length} lines`).to.equal(action);
      if (next.action === "check-nonce")
        expect(next.sending).to.deep.equal(state);
      if (next.action === "wait-for-receipt")
        expect(next.sent).to.deep.equal(state);
    }
  });

  it("reads an earlier reverted mined record as reverted, never to be sent again", async () => {
    const reverted = LINES.slice(0, 5).concat(
      `{"type":"mined","step":"tx0","hash":"${DEPOSIT_HASH}","block":4,"status":0}`,
    );
    const { records } = await journalOf(reverted);
    expect(nextAction(stepState(records, "tx0")).action).to.equal("reverted");
  });

  it("resumes each kill point of a Cosmos step's earlier shape with the action of the same point today", async () => {
    const signed = {
      hash: COSMOS_HASH,
      txBytes: Buffer.from(COSMOS_TX_BYTES, "base64"),
      sequence: 5n,
    };
    const expected: [number, unknown, unknown][] = [
      [0, { action: "send" }, { status: "planned" }],
      [
        1,
        { action: "check-nonce", signed },
        // The sequence plays the nonce's part.
        { status: "sending", nonce: 5 },
      ],
      [
        2,
        { action: "wait-for-receipt", signed },
        // The nonce of an earlier `sent` is its `cosmos-signed` sequence.
        { status: "sent", nonce: 5, hash: COSMOS_HASH },
      ],
      [
        3,
        { action: "done", hash: COSMOS_HASH },
        {
          status: "confirmed",
          hash: COSMOS_HASH,
          blockNumber: 101,
          gasUsed: 0n,
          success: true,
        },
      ],
    ];
    for (const [length, action, state] of expected) {
      const { records } = await journalOf(COSMOS_LINES.slice(0, length));
      const step = cosmosStepState(records, "tx0");
      expect(step.state, `${length} lines`).to.deep.equal(state);
      expect(stepState(records, "tx0")).to.deep.equal(state);
      expect(cosmosNextAction(step), `${length} lines`).to.deep.equal(action);
    }
  });

  it("reads a Cosmos step's earlier failed mined record as reverted, with the chain's log", async () => {
    const { records } = await journalOf([
      ...COSMOS_LINES.slice(0, 2),
      `{"type":"mined","step":"tx0","hash":"${COSMOS_HASH}","block":101,"status":0,"log":"out of gas"}`,
    ]);
    expect(cosmosNextAction(cosmosStepState(records, "tx0"))).to.deep.equal({
      action: "reverted",
      hash: COSMOS_HASH,
      log: "out of gas",
    });
  });

  it("reads what earlier journals sent as out, and a signed one as under way", async () => {
    for (const [length, out, busy] of [
      [1, [], true],
      [2, [COSMOS_HASH], true],
      [3, [COSMOS_HASH], true],
    ] as const) {
      const { records } = await journalOf(COSMOS_LINES.slice(0, length));
      expect(transactionsOut(records), `${length} lines`).to.deep.equal(out);
      expect(underWay(records), `${length} lines`).to.equal(busy);
    }
    const evm = await journalOf(LINES.slice(0, 5));
    expect(transactionsOut(evm.records)).to.deep.equal([
      APPROVE_HASH,
      DEPOSIT_HASH,
    ]);
    expect(underWay(evm.records)).to.equal(true);
  });
});
