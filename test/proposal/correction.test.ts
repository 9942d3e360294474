import { createHash } from "node:crypto";

import { MsgGovExecuteJSON } from "@initia/initia.js";
import { MsgGovExecuteJSON as MsgGovExecuteJSONProto } from "@initia/initia.proto/initia/move/v1/tx.js";
import { bech32 } from "bech32";
import { expect } from "chai";
import { getAddress } from "ethers";

import { MAINNET_VIP_MODULE_ADDRESS } from "../../tasks/config/constants.js";
import {
  contractUpdateText,
  correctionMessages,
  correctionProposal,
  correctionText,
  describeCorrectionMessages,
  GOV_AUTHORITY,
} from "../../tasks/proposal/correction.js";
import {
  changedAddressesCsv,
  type ForumPostPlan,
  correctionForumPost,
} from "../../tasks/proposal/forum-post.js";

/** The VIP module's account on mainnet, bech32 (facts §4, §11). */
const VIP_MODULE =
  "init182yxkv4gqfvz7tjyde6dfgjdr4ldqxklgmf23aju2u3cslnss7ys6dy6w8";
const MAINNET_GOV = "init10d07y265gmmuvt4z0w9aw880jnsr700j55nka3";
const CONTRACT = getAddress("0x39e1a4b4a85fe1b2c0d5a4e0f1b3b1f7aa0c3d11");
/**
 * The proto's field names in field-number order (initia/move/v1/tx.proto,
 * `MsgGovExecuteJSON`, fields 1 to 7).
 */
const PROTO_FIELDS = [
  "authority",
  "sender",
  "module_address",
  "module_name",
  "function_name",
  "type_args",
  "args",
];

/** Stage 12 of bridge 29, corrected; stage 13 challenged too, given twice and out of order. */
function messages() {
  return correctionMessages({
    vipModuleAddress: MAINNET_VIP_MODULE_ADDRESS,
    bridgeId: 29n,
    newContract: CONTRACT.toLowerCase(),
    challengeStages: [13n, 12n, 13n],
  });
}

/** A message as written by hand from facts §11: no code of the plugin. */
function handWritten(functionName: string, args: string[]) {
  return {
    "@type": "/initia.move.v1.MsgGovExecuteJSON",
    authority: MAINNET_GOV,
    sender: VIP_MODULE,
    module_address: VIP_MODULE,
    module_name: "vip",
    function_name: functionName,
    type_args: [],
    args,
  };
}

/**
 * The (field number, string) pairs of protobuf bytes whose fields are all
 * strings (wire type 2), read without any library.
 */
function wireFields(bytes: Uint8Array): [number, string][] {
  const fields: [number, string][] = [];
  let at = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const tag = varint();
    expect(tag & 7, "wire type").to.equal(2);
    const length = varint();
    fields.push([
      tag >> 3,
      Buffer.from(bytes.subarray(at, at + length)).toString("utf8"),
    ]);
    at += length;
  }
  return fields;
}

describe("the correction proposal's messages", () => {
  it("derives the gov authority as the SDK does, equal to mainnet's", () => {
    const hash = createHash("sha256").update("gov").digest().subarray(0, 20);
    expect(bech32.encode("init", bech32.toWords(hash))).to.equal(MAINNET_GOV);
    expect(GOV_AUTHORITY).to.equal(MAINNET_GOV);
  });

  it("are the contract update, then one challenge per stage ascending, as written by hand", () => {
    expect(messages()).to.deep.equal([
      handWritten("update_l2_score_contract", ['"29"', `"${CONTRACT}"`]),
      handWritten("execute_rollup_challenge", ['"29"', '"12"']),
      handWritten("execute_rollup_challenge", ['"29"', '"13"']),
    ]);
    // EIP-55 mixed case, as mainnet proposal 40 gave it.
    expect(CONTRACT).to.not.equal(CONTRACT.toLowerCase());
  });

  it("hold exactly the proto's field names, in its field order, and decode back", () => {
    for (const message of messages()) {
      expect(Object.keys(message)).to.deep.equal(["@type", ...PROTO_FIELDS]);
      expect(message["@type"]).to.equal("/initia.move.v1.MsgGovExecuteJSON");
      const [bridge, value, ...rest] = message.args.map(
        (arg) => JSON.parse(arg) as unknown,
      );
      expect(rest).to.deep.equal([]);
      expect(bridge).to.equal("29");
      expect(BigInt(bridge as string)).to.equal(29n);
      if (message.function_name === "update_l2_score_contract")
        expect(value).to.equal(CONTRACT);
      else expect(value).to.be.oneOf(["12", "13"]);
    }
  });

  it("round-trip through initia.js and through initia.proto's encoder, byte for byte", () => {
    for (const message of messages()) {
      const msg = MsgGovExecuteJSON.fromData(message);
      expect(msg.toData()).to.deep.equal(message);
      const any = msg.packAny();
      expect(any.typeUrl).to.equal(message["@type"]);
      // initia.proto's own decoder reads the bytes initia.js's bundled encoder wrote.
      const decoded = MsgGovExecuteJSONProto.decode(any.value);
      expect(decoded).to.deep.equal({
        authority: message.authority,
        sender: message.sender,
        moduleAddress: message.module_address,
        moduleName: message.module_name,
        functionName: message.function_name,
        typeArgs: message.type_args,
        args: message.args,
      });
      expect(
        Buffer.from(MsgGovExecuteJSONProto.encode(decoded).finish()),
      ).to.deep.equal(Buffer.from(any.value));
      expect(MsgGovExecuteJSON.unpackAny(any).toData()).to.deep.equal(message);
      // On the wire, field n carries the JSON's n-th field (type_args, 6, is empty).
      expect(
        wireFields(any.value).map(([number, text]) => [
          PROTO_FIELDS[number - 1],
          text,
        ]),
      ).to.deep.equal([
        ["authority", message.authority],
        ["sender", message.sender],
        ["module_address", message.module_address],
        ["module_name", "vip"],
        ["function_name", message.function_name],
        ...message.args.map((arg) => ["args", arg]),
      ]);
    }
  });

  it("are read back into words: the function, the bridge, the stage or the contract", () => {
    const lines = describeCorrectionMessages(messages());
    expect(lines).to.have.length(3);
    expect(lines[0]).to.match(
      new RegExp(
        `^vip::update_l2_score_contract +bridge 29, new score contract ${CONTRACT}$`,
      ),
    );
    expect(lines[1]).to.match(
      /^vip::execute_rollup_challenge +bridge 29, stage 12: its snapshot is deleted/,
    );
    expect(lines[2]).to.match(/ bridge 29, stage 13: /);
    const [update] = messages();
    if (update === undefined) expect.fail("no contract update");
    const tampered = {
      ...update,
      authority: VIP_MODULE,
      args: ['"2x9"', "not json"],
    };
    const [words] = describeCorrectionMessages([tampered]);
    expect(words).to.include("bridge unreadable");
    expect(words).to.include("new score contract unreadable (not json)");
    expect(words).to.include(`authority ${VIP_MODULE} is not the gov module`);
  });

  it("make an expedited proposal file, and a contract-update-only one of exactly one message", () => {
    const text = correctionText({
      bridgeId: 29n,
      stages: [12n],
      newContract: CONTRACT,
    });
    expect(text.title).to.equal("Correct VIP stage 12 of bridge 29");
    expect(text.summary).to.include(CONTRACT);
    expect(text.summary).to.include(
      "take stage 12 again from the new contract",
    );
    const proposal = correctionProposal({
      messages: messages(),
      ...text,
      metadata: "https://forum.initia.xyz/t/correction/1",
      deposit: "100000000000uinit",
    });
    expect(Object.keys(proposal)).to.deep.equal([
      "messages",
      "metadata",
      "deposit",
      "title",
      "summary",
      "expedited",
    ]);
    expect(proposal.expedited).to.equal(true);
    expect(proposal.messages).to.have.length(3);

    const updateOnly = correctionProposal({
      messages: correctionMessages({
        vipModuleAddress: MAINNET_VIP_MODULE_ADDRESS,
        bridgeId: 29n,
        newContract: CONTRACT,
        challengeStages: [],
      }),
      ...contractUpdateText({
        bridgeId: 29n,
        stages: [12n, 13n],
        newContract: CONTRACT,
        closesAt: 1_750_000_000n,
      }),
      metadata: "https://forum.initia.xyz/t/correction/1",
      deposit: "100000000000uinit",
    });
    expect(updateOnly.messages).to.deep.equal([
      handWritten("update_l2_score_contract", ['"29"', `"${CONTRACT}"`]),
    ]);
    expect(updateOnly.title).to.equal(
      "Update the VIP score contract of bridge 29",
    );
    expect(updateOnly.summary).to.include(
      "stages 12 and 13 closes at 2025-06-15T15:06:40Z",
    );
  });

  it("refuse a stage that does not fit a u64", () => {
    expect(() =>
      correctionMessages({
        vipModuleAddress: MAINNET_VIP_MODULE_ADDRESS,
        bridgeId: 29n,
        newContract: CONTRACT,
        challengeStages: [2n ** 64n],
      }),
    ).to.throw(/fits a u64/);
  });
});

describe("the correction's forum post and CSV", () => {
  const plan = (overrides: Partial<ForumPostPlan> = {}): ForumPostPlan => ({
    bridgeId: 29n,
    policy: { name: "perp-volume.sql", sha256: "ab".repeat(32) },
    stages: [
      {
        stage: 13n,
        oldTotalScore: 5_000n,
        newTotalScore: 4_900n,
        changedAddresses: 1,
        window: { state: "no-snapshot" },
      },
      {
        stage: 12n,
        oldTotalScore: 1_000_000n,
        newTotalScore: 1_250_000n,
        changedAddresses: 2,
        window: { state: "open", closesAt: 1_750_000_000n },
      },
      {
        stage: 11n,
        oldTotalScore: 10n,
        newTotalScore: 10n,
        changedAddresses: 0,
        window: { state: "closed", closedAt: 1_749_000_000n },
      },
    ],
    finalFiles: [
      { name: "stage-12.final.csv", sha256: "cd".repeat(32) },
      { name: "stage-13.final.csv", sha256: "ef".repeat(32) },
    ],
    newContract: { address: CONTRACT.toLowerCase(), deploymentId: "chain-29" },
    messages: correctionMessages({
      vipModuleAddress: MAINNET_VIP_MODULE_ADDRESS,
      bridgeId: 29n,
      newContract: CONTRACT,
      challengeStages: [12n],
    }),
    contractUpdateOnly: {
      messages: correctionMessages({
        vipModuleAddress: MAINNET_VIP_MODULE_ADDRESS,
        bridgeId: 29n,
        newContract: CONTRACT,
        challengeStages: [],
      }),
    },
    changedAddressesFile: "changed-addresses.csv",
    ...overrides,
  });

  it("says each required part", () => {
    const post = correctionForumPost(plan());
    expect(post).to.match(
      /^# Correction of VIP stages 11, 12 and 13 of bridge 29\n/,
    );
    expect(post).to.include(
      "The scores finalized for stages 11, 12 and 13 of bridge 29 were wrong",
    );
    expect(post).to.include(
      `Scoring policy: \`perp-volume.sql\`, sha256 \`${"ab".repeat(32)}\`.`,
    );
    // Stages ascending, with both totals, the change and the deadline in words.
    const rows = post.split("\n").filter((line) => /^\| 1\d /.test(line));
    expect(rows).to.deep.equal([
      "| 11 | 10 | 10 | 0 | 0 | past its window (closed 2025-06-04T01:20:00Z) |",
      "| 12 | 1,000,000 | 1,250,000 | +250,000 | 2 | challenge before 2025-06-15T15:06:40Z |",
      "| 13 | 5,000 | 4,900 | -100 | 1 | no snapshot yet |",
    ]);
    expect(post).to.include("attached `changed-addresses.csv`");
    expect(post).to.include(
      `- \`stage-12.final.csv\`: sha256 \`${"cd".repeat(32)}\``,
    );
    expect(post).to.include(
      `- \`stage-13.final.csv\`: sha256 \`${"ef".repeat(32)}\``,
    );
    expect(post).to.include(
      `\`${CONTRACT}\`, Ignition deployment \`chain-29\`.`,
    );
    for (const line of describeCorrectionMessages(plan().messages))
      expect(post).to.include(line);
    expect(post).to.include(
      "please take the snapshot of stage 12 of bridge 29 again, from the new score contract",
    );
    expect(post).to.include("stage 13 has no snapshot yet");
    expect(post).to.include("stage 11 can no longer be challenged in time");
    expect(post).to.include("## If the challenge window closes first");
    expect(
      correctionForumPost(plan({ contractUpdateOnly: undefined })),
    ).to.not.include("If the challenge window closes first");
  });

  it("escapes a hostile reason and hostile file names: no link, tag, heading or table cell", () => {
    const post = correctionForumPost(
      plan({
        reason:
          "Wrong window](javascript:alert(1)) <script>alert(1)</script>\n# heading\n| a | b |\n![x](https://evil.example/p.png)\n\u001b[2J",
        finalFiles: [
          { name: "a`](javascript:alert(1))<img src=x>\n# file", sha256: "0" },
        ],
        changedAddressesFile: "x.csv\n## injected",
      }),
    );
    // A file name is a code span whose fence is longer than any backtick run in it.
    const fileName = "``a`](javascript:alert(1))<img src=x>\\n# file``";
    expect(post).to.include(`- ${fileName}: sha256 \`0\``);
    const outsideCode = post.replace(fileName, "");
    expect(outsideCode).to.not.include("](javascript");
    expect(outsideCode).to.not.include("<img");
    expect(post).to.not.match(/(^|[^\\])<script>/);
    expect(post).to.not.match(/(^|[^\\])!\[/);
    expect(post).to.not.include("\u001b");
    const headings = post.split("\n").filter((line) => line.startsWith("#"));
    expect(
      headings.every((h) => /^#{1,2} [A-Z]/.test(h) && !h.includes("heading")),
    ).to.equal(true);
    expect(headings).to.not.include("## injected");
    expect(post).to.include(
      "Wrong window\\]\\(javascript\\:alert\\(1\\)\\) \\<script\\>alert\\(1\\)\\<\\/script\\>\n\\# heading\n\\| a \\| b \\|",
    );
    expect(post).to.include("attached `x.csv\\n## injected`");
  });

  it("writes the CSV of 3 stages byte for byte, by stage then address, integers only", () => {
    const a = "0x00000000000000000000000000000000000000aA";
    const b = getAddress("0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    const c = "0x1111111111111111111111111111111111111111";
    const csv = changedAddressesCsv([
      { address: b, stage: 14n, oldScore: 7n, newScore: 0n },
      {
        address: b,
        stage: 12n,
        oldScore: 0n,
        newScore: 123456789012345678901n,
      },
      { address: c, stage: 13n, oldScore: 10n, newScore: 11n },
      {
        address: a.toLowerCase(),
        stage: 12n,
        oldScore: 2n ** 64n - 1n,
        newScore: 1n,
      },
      { address: c, stage: 12n, oldScore: 5n, newScore: 5n },
    ]);
    expect(csv).to.equal(
      "address,stage,old_score,new_score,delta\n" +
        "0x00000000000000000000000000000000000000aa,12,18446744073709551615,1,-18446744073709551614\n" +
        "0x1111111111111111111111111111111111111111,12,5,5,0\n" +
        "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb,12,0,123456789012345678901,123456789012345678901\n" +
        "0x1111111111111111111111111111111111111111,13,10,11,1\n" +
        "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb,14,7,0,-7\n",
    );
    expect(changedAddressesCsv([])).to.equal(
      "address,stage,old_score,new_score,delta\n",
    );
  });
});
