import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { expect } from "chai";

import {
  fetchBridgeInfos,
  fetchGovParams,
  fetchMinDeposit,
  fetchRegisteredBridgeIds,
  fetchVipStage,
} from "../../tasks/clients/l1-rest.js";
import { fetchSnapshot } from "../../tasks/clients/vip-snapshots.js";
import { MAINNET_VIP_MODULE_ADDRESS } from "../../tasks/config/constants.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import {
  startL1RestStandIn,
  type L1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import {
  startServer,
  type StandInServer,
} from "../../tasks/stand-ins/server.js";
import { refusal } from "../helpers/failure.js";

const VIP = MAINNET_VIP_MODULE_ADDRESS;

/**
 * `SnapshotKey { bridge_id: encode_u64(29), version: encode_u64(1) }` in BCS,
 * written out by hand: each field a `vector<u8>`, its length (0x08) then the
 * u64's 8 bytes big-endian.
 */
const KEY_29_1 = Buffer.from([
  0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1d, 0x08, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x01,
]);
/** `encode_u64(20)` as a `vector<u8>` in BCS: stage 20's key in stage_data. */
const STAGE_20_KEY = Buffer.from([
  0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14,
]);

/**
 * A gateway in front of the stand-in: it records every path and query asked,
 * and answers in the stand-in's place when `override` gives an answer.
 */
interface Gateway extends StandInServer {
  asked: URL[];
  override?: (url: URL) => { status: number; body: unknown } | undefined;
}

async function startGateway(upstream: string): Promise<Gateway> {
  const gateway: Gateway = { url: "", asked: [], close: async () => {} };
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://gateway");
      gateway.asked.push(url);
      const answer = gateway.override?.(url);
      if (answer !== undefined) {
        response.writeHead(answer.status, {
          "content-type": "application/json",
        });
        response.end(JSON.stringify(answer.body));
        return;
      }
      void fetch(upstream + (request.url ?? "/"), {
        method: request.method,
        headers: { "content-type": "application/json" },
        body: request.method === "GET" ? undefined : body,
      }).then(async (upstreamAnswer) => {
        response.writeHead(upstreamAnswer.status, {
          "content-type": "application/json",
        });
        response.end(await upstreamAnswer.text());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gateway.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return gateway;
}

/** A server answering every request with `body` (JSON) and `status`. */
async function answering(body: unknown, status = 200): Promise<StandInServer> {
  return startServer(() => ({ status, body: JSON.stringify(body) }));
}

/** Reads a table entry from the stand-in directly, by the key's bytes. */
async function tableEntry(
  rest: L1RestStandIn,
  handle: string,
  key: string,
): Promise<{ status: number; body: { table_entry?: { value: string } } }> {
  const answer = await fetch(
    `${rest.url}/initia/move/v1/tables/${handle}/entries/by_key_bytes?key_bytes=${encodeURIComponent(key)}`,
  );
  return {
    status: answer.status,
    body: (await answer.json()) as { table_entry?: { value: string } },
  };
}

/**
 * Each stage's `snapshots` table as its stage_data entry gives it, read with
 * the stage's key written out by hand.
 */
async function snapshotsTables(
  rest: L1RestStandIn,
  stages: bigint[],
): Promise<{ handle: string; length: string }[]> {
  const stageDataHandle =
    (await fetchVipStage(rest.url, VIP)).stageDataHandle ?? "";
  return Promise.all(
    stages.map(async (stage) => {
      const key = Buffer.from([0x08, 0, 0, 0, 0, 0, 0, 0, Number(stage)]);
      const entry = await tableEntry(
        rest,
        stageDataHandle,
        key.toString("base64"),
      );
      expect(entry.status).to.equal(200);
      return (
        JSON.parse(entry.body.table_entry?.value ?? "{}") as {
          snapshots: { handle: string; length: string };
        }
      ).snapshots;
    }),
  );
}

describe("base-chain REST client: snapshots, bridge infos, gov params", () => {
  let rest: L1RestStandIn;
  beforeEach(
    async () =>
      (rest = await startL1RestStandIn({
        stage: 21n,
        stageStartTime: 1_700_000_000n,
        stageEndTime: 1_700_100_000n,
        stageInterval: 100_000n,
        now: 1_700_050_000n,
      })),
  );
  afterEach(async () => rest.close());

  describe("the ModuleStore's challenge period", () => {
    it("reads challenge_period, and the stand-in serves what its state says", async () => {
      expect((await fetchVipStage(rest.url, VIP)).challengePeriod).to.equal(
        259_200n,
      );
      rest.state.challengePeriod = 3_600n;
      expect((await fetchVipStage(rest.url, VIP)).challengePeriod).to.equal(
        3_600n,
      );
    });

    it("leaves it undefined for a ModuleStore without it (an older module)", async () => {
      const store = { type: "x::vip::ModuleStore", data: { stage: "3" } };
      const server = await answering({
        resource: { move_resource: JSON.stringify(store) },
      });
      try {
        const stage = await fetchVipStage(server.url, VIP);
        expect(stage.stage).to.equal(3n);
        expect(stage.challengePeriod).to.equal(undefined);
      } finally {
        await server.close();
      }
    });
  });

  describe("a stage's snapshot", () => {
    it("reads a past stage's snapshot of a bridge and version", async () => {
      rest.state.snapshots.set(
        20n,
        new Map([
          [
            "29:1",
            {
              createTime: 1_700_000_100n,
              upsertTime: 1_700_000_900n,
              totalL2Score: 123_456_789n,
              merkleRoot: "AB".repeat(31) + "0F",
            },
          ],
          ["30:1", { createTime: 1_700_000_200n }],
        ]),
      );
      expect(await fetchSnapshot(rest.url, VIP, 20n, 29n, 1n)).to.deep.equal({
        createTime: 1_700_000_100n,
        upsertTime: 1_700_000_900n,
        totalL2Score: 123_456_789n,
        merkleRoot: `0x${"ab".repeat(31)}0f`,
      });
      // Never upserted: the stand-in serves upsert_time = create_time.
      expect(await fetchSnapshot(rest.url, VIP, 20n, 30n, 1n)).to.deep.include({
        createTime: 1_700_000_200n,
        upsertTime: 1_700_000_200n,
        totalL2Score: 0n,
      });
    });

    it("answers undefined for a stage without it, for another version or bridge, and for the open stage", async () => {
      rest.state.snapshots.set(
        20n,
        new Map([["29:1", { createTime: 1_700_000_100n }]]),
      );
      rest.state.snapshots.set(
        21n,
        new Map([["29:1", { createTime: 1_700_000_100n }]]),
      );
      expect(await fetchSnapshot(rest.url, VIP, 19n, 29n, 1n)).to.equal(
        undefined,
      );
      expect(await fetchSnapshot(rest.url, VIP, 20n, 29n, 2n)).to.equal(
        undefined,
      );
      expect(await fetchSnapshot(rest.url, VIP, 20n, 28n, 1n)).to.equal(
        undefined,
      );
      // The chain takes snapshots of ended stages only: the open stage has
      // none, whatever the stand-in holds.
      expect(await fetchSnapshot(rest.url, VIP, 21n, 29n, 1n)).to.equal(
        undefined,
      );
      expect(await fetchSnapshot(rest.url, VIP, 20n, 29n, 1n)).to.not.equal(
        undefined,
      );
    });

    it("sends the SnapshotKey as the 18 bytes written out by hand, to the stage's own snapshots table", async () => {
      rest.state.snapshots.set(
        20n,
        new Map([["29:1", { createTime: 1_700_000_100n }]]),
      );
      const gateway = await startGateway(rest.url);
      try {
        await fetchSnapshot(gateway.url, VIP, 20n, 29n, 1n);
        const tables = gateway.asked.filter((url) =>
          url.pathname.startsWith("/initia/move/v1/tables/"),
        );
        expect(
          tables.map((url) => url.searchParams.get("key_bytes")),
        ).to.deep.equal([
          STAGE_20_KEY.toString("base64"),
          KEY_29_1.toString("base64"),
        ]);
        expect(KEY_29_1.toString("base64")).to.equal(
          "CAAAAAAAAAAdCAAAAAAAAAAB",
        );
        const [stageData, snapshots] = tables.map((url) => url.pathname);
        expect(snapshots).to.not.equal(stageData);
      } finally {
        await gateway.close();
      }
    });

    it("has the stand-in decode the key as the chain encodes it, and refuse any other with the chain's 404", async () => {
      rest.state.snapshots.set(
        20n,
        new Map([["29:1", { createTime: 1_700_000_100n }]]),
      );
      const handle = (await snapshotsTables(rest, [20n]))[0]?.handle ?? "";
      const found = await tableEntry(rest, handle, KEY_29_1.toString("base64"));
      expect(found.status).to.equal(200);
      expect(JSON.parse(found.body.table_entry?.value ?? "{}")).to.deep.equal({
        create_time: "1700000100",
        upsert_time: "1700000100",
        merkle_root: "ab".repeat(32),
        total_l2_score: "0",
      });
      const other = [
        KEY_29_1.subarray(0, 17), // one byte short
        Buffer.concat([KEY_29_1, Buffer.from([0])]), // one byte more
        Buffer.from([0x09, ...KEY_29_1.subarray(1)]), // a wrong length
        Buffer.from([0x1d, 0x01]), // BCS u64s, not vector<u8>s
      ].map((key) => key.toString("base64"));
      // The same 18 bytes, but not in canonical base64 (padding where none
      // belongs): Go's decoder refuses it.
      other.push(`${KEY_29_1.toString("base64")}=`);
      for (const key of other) {
        const refused = await tableEntry(rest, handle, key);
        expect(refused.status, key).to.equal(404);
        expect(refused.body).to.deep.equal({
          code: 5,
          message: "collections: not found",
          details: [],
        });
      }
    });

    it("gives each stage its own snapshots table, its length the number of snapshots", async () => {
      rest.state.snapshots.set(
        20n,
        new Map([
          ["29:1", { createTime: 1n }],
          ["29:2", { createTime: 2n }],
        ]),
      );
      const stageDataHandle =
        (await fetchVipStage(rest.url, VIP)).stageDataHandle ?? "";
      const tables = await snapshotsTables(rest, [19n, 20n]);
      expect(tables.map((t) => t.length)).to.deep.equal(["0", "2"]);
      expect(
        new Set([stageDataHandle, ...tables.map((t) => t.handle)]).size,
      ).to.equal(3);
    });

    it("reads an empty merkle root, which the chain writes as [], and refuses one that is not hex", async () => {
      rest.state.snapshots.set(
        20n,
        new Map([
          ["29:1", { createTime: 1n, merkleRoot: "" }],
          ["29:2", { createTime: 1n, merkleRoot: "not hex" }],
        ]),
      );
      expect(
        (await fetchSnapshot(rest.url, VIP, 20n, 29n, 1n))?.merkleRoot,
      ).to.equal("0x");
      const wrong = (
        await refusal(
          fetchSnapshot(rest.url, VIP, 20n, 29n, 2n),
          ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
        )
      ).params;
      expect(wrong.field).to.equal("merkle_root");
      expect(wrong.what).to.match(
        /^the snapshot of bridge 29 \(version 2\) for stage 20 at http:\/\/127\.0\.0\.1:\d+\/initia\/move\/v1\/tables\/0x[0-9a-f]+\/entries\/by_key_bytes \(table_entry\.value\)$/,
      );
    });

    it("refuses a stage that has not started, and an earlier one the program has no entry for", async () => {
      expect(
        (
          await refusal(
            fetchSnapshot(rest.url, VIP, 22n, 29n, 1n),
            ERRORS.NETWORK.PROGRAM.STAGE_NOT_STARTED,
          )
        ).params,
      ).to.deep.equal({ stage: 22n, current: 21n });
      const missing = (
        await refusal(
          fetchSnapshot(rest.url, VIP, 0n, 29n, 1n),
          ERRORS.NETWORK.PROGRAM.STAGE_WINDOW_NOT_FOUND,
        )
      ).params;
      expect(missing.stage).to.equal(0n);
      expect(missing.what).to.match(/^stage 0's entry in stage_data at /);
    });

    it("gives the documented HTTP error when the snapshots table answers 500", async () => {
      const gateway = await startGateway(rest.url);
      const stageDataHandle =
        (await fetchVipStage(rest.url, VIP)).stageDataHandle ?? "";
      gateway.override = (url) =>
        url.pathname.startsWith("/initia/move/v1/tables/") &&
        !url.pathname.includes(stageDataHandle)
          ? { status: 500, body: { code: 2, message: "internal error" } }
          : undefined;
      try {
        const status = (
          await refusal(
            fetchSnapshot(gateway.url, VIP, 20n, 29n, 1n),
            ERRORS.NETWORK.HTTP.HTTP_STATUS,
          )
        ).params;
        expect(status.status).to.equal(500);
        expect(status.reason).to.equal("internal error");
        expect(status.url).to.match(
          /\/initia\/move\/v1\/tables\/0x[0-9a-f]+\/entries\/by_key_bytes\?key_bytes=/,
        );
      } finally {
        await gateway.close();
      }
    });
  });

  describe("the bridges' infos", () => {
    it("reads each bridge's version, score contract and first stage from get_bridge_infos", async () => {
      rest.state.registeredBridges = [29n, 3n];
      rest.state.bridgeVersions.set(29n, 2n);
      rest.state.scoreContracts.set(
        29n,
        "0x5Fbdb2315678afecb367f032d93F642f64180aa3",
      );
      expect(await fetchBridgeInfos(rest.url, VIP)).to.deep.equal([
        {
          bridgeId: 29n,
          version: 2n,
          scoreContract: "0x5Fbdb2315678afecb367f032d93F642f64180aa3",
          initStage: 1n,
        },
        {
          bridgeId: 3n,
          version: 1n,
          scoreContract: "0x0000000000000000000000000000000000000001",
          initStage: 1n,
        },
      ]);
      expect(await fetchRegisteredBridgeIds(rest.url, VIP)).to.deep.equal([
        29n,
        3n,
      ]);
    });

    it("names a bridge without a version, and reads one without init_stage", async () => {
      const info = { bridge_id: "7", vip_l2_score_contract: "0x1" };
      const server = await answering({
        data: JSON.stringify([{ ...info, version: "4" }, info]),
      });
      try {
        const unversioned = (
          await refusal(
            fetchBridgeInfos(server.url, VIP),
            ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
          )
        ).params;
        expect(unversioned).to.deep.include({
          field: "1.version",
          problem: "is missing",
        });
        expect(unversioned.what).to.match(
          /^vip::get_bridge_infos at .* \(data\)$/,
        );
      } finally {
        await server.close();
      }
      const unstaged = await answering({
        data: JSON.stringify([
          { bridge_id: "7", version: "4", vip_l2_score_contract: "0x1" },
        ]),
      });
      try {
        expect(await fetchBridgeInfos(unstaged.url, VIP)).to.deep.equal([
          {
            bridgeId: 7n,
            version: 4n,
            scoreContract: "0x1",
            initStage: undefined,
          },
        ]);
      } finally {
        await unstaged.close();
      }
    });

    it("gives the documented HTTP error when the view answers 500, and names data that is not JSON", async () => {
      rest.state.view = "http-error";
      const status = (
        await refusal(
          fetchBridgeInfos(rest.url, VIP),
          ERRORS.NETWORK.HTTP.HTTP_STATUS,
        )
      ).params;
      expect(status).to.deep.include({ status: 500, reason: "internal error" });
      expect(status.url).to.equal(`${rest.url}/initia/move/v1/view/json`);
      rest.state.view = "bad-data";
      expect(
        (
          await refusal(
            fetchRegisteredBridgeIds(rest.url, VIP),
            ERRORS.NETWORK.HTTP.NOT_A_JSON_STRING,
          )
        ).params.field,
      ).to.equal("data");
    });
  });

  describe("the gov params", () => {
    it("reads the deposits as coins text and the voting periods in seconds", async () => {
      expect(await fetchGovParams(rest.url)).to.deep.equal({
        minDeposit: "100000000uinit",
        votingPeriodSeconds: 604_800n,
        expeditedVotingPeriodSeconds: 86_400n,
        expeditedMinDeposit: "500000000uinit",
      });
      expect(await fetchMinDeposit(rest.url)).to.equal("100000000uinit");
      rest.state.votingPeriod = 259_200n;
      rest.state.expeditedVotingPeriod = 3_600n;
      expect(await fetchGovParams(rest.url)).to.deep.include({
        votingPeriodSeconds: 259_200n,
        expeditedVotingPeriodSeconds: 3_600n,
      });
    });

    it("rounds a fraction of a second up, never down", async () => {
      for (const [text, seconds] of [
        ["1.5s", 2n],
        ["86400.000000001s", 86_401n],
        ["0.000000001s", 1n],
        ["10.000s", 10n],
        ["0s", 0n],
      ] as const) {
        rest.state.votingPeriod = text;
        expect(
          (await fetchGovParams(rest.url)).votingPeriodSeconds,
          text,
        ).to.equal(seconds);
      }
    });

    it("refuses a malformed duration with its code, naming the field", async () => {
      for (const text of [
        "7d",
        "604800",
        " 604800s",
        "1.s",
        ".5s",
        "-1s",
        "1e3s",
        "1h0m0s",
        "",
      ]) {
        rest.state.votingPeriod = text;
        expect(
          (
            await refusal(
              fetchGovParams(rest.url),
              ERRORS.NETWORK.GOVERNANCE.GOV_DURATION_INVALID,
            )
          ).params,
          text,
        ).to.deep.equal({
          what: `gov params at ${rest.url}/initia/gov/v1/params`,
          field: "params.voting_period",
          value: JSON.stringify(text),
        });
      }
      rest.state.votingPeriod = 604_800n;
      rest.state.expeditedVotingPeriod = "24h";
      const expedited = (
        await refusal(
          fetchGovParams(rest.url),
          ERRORS.NETWORK.GOVERNANCE.GOV_DURATION_INVALID,
        )
      ).params;
      expect(expedited).to.deep.include({
        field: "params.expedited_voting_period",
        value: '"24h"',
      });
      // The minimum deposit comes from the same read, and fails with it.
      await refusal(
        fetchMinDeposit(rest.url),
        ERRORS.NETWORK.GOVERNANCE.GOV_DURATION_INVALID,
      );
    });

    it("reads gov params without the expedited ones, and names a missing voting period", async () => {
      const older = await answering({
        params: {
          min_deposit: [
            { denom: "uinit", amount: "5" },
            { denom: "uusdc", amount: "7" },
          ],
          voting_period: "172800s",
          expedited_voting_period: null,
        },
      });
      try {
        expect(await fetchGovParams(older.url)).to.deep.equal({
          minDeposit: "5uinit,7uusdc",
          votingPeriodSeconds: 172_800n,
          expeditedVotingPeriodSeconds: undefined,
          expeditedMinDeposit: undefined,
        });
      } finally {
        await older.close();
      }
      const noPeriod = await answering({
        params: { min_deposit: [{ denom: "uinit", amount: "5" }] },
      });
      try {
        expect(
          (
            await refusal(
              fetchGovParams(noPeriod.url),
              ERRORS.NETWORK.HTTP.UNEXPECTED_ANSWER,
            )
          ).params,
        ).to.deep.include({
          field: "params.voting_period",
          problem: "is missing",
        });
      } finally {
        await noPeriod.close();
      }
    });

    it("gives the documented HTTP error when the endpoint answers 500", async () => {
      const server = await answering(
        { code: 2, message: "internal error", details: [] },
        500,
      );
      try {
        expect(
          (
            await refusal(
              fetchGovParams(server.url),
              ERRORS.NETWORK.HTTP.HTTP_STATUS,
            )
          ).params,
        ).to.deep.equal({
          url: `${server.url}/initia/gov/v1/params`,
          status: 500,
          reason: "internal error",
        });
      } finally {
        await server.close();
      }
    });
  });
});
