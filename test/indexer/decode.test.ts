import { expect } from "chai";
import { AbiCoder, EventFragment, zeroPadValue } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { errorCode, isVipError } from "../../tasks/errors.js";
import {
  LogColumns,
  LogDecoder,
  type RpcLog,
} from "../../tasks/indexer/decode.js";
import { parsePolicy } from "../../tasks/policy/parse.js";
import { thrownParams } from "../helpers/failure.js";

const CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";

/** What a decode gives: its values, or the error's code and values. */
function outcome(decode: () => unknown) {
  try {
    return { decoded: decode() };
  } catch (error) {
    return {
      refused: isVipError(error) ? [error.code, error.params] : String(error),
    };
  }
}

function source(signature: string) {
  const policy = parsePolicy(
    "decode.sql",
    `-- @policy decode\n-- @from-stage 1\n-- @source t ${CONTRACT} event ${signature}\nselect 1\n`,
  );
  const [first] = policy.sources;
  if (first === undefined) throw new Error("no source");
  return first;
}

/** A seeded generator, so a failure repeats. */
function words(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state;
  };
  return () => {
    let hex = "";
    // Words of every shape: zero, small, full width, high bits set.
    const shape = next() % 4;
    for (let i = 0; i < 64; i++)
      hex +=
        shape === 0
          ? "0"
          : shape === 1 && i < 56
            ? "0"
            : (next() % 16).toString(16);
    return hex;
  };
}

function log(topics: string[], data: string): RpcLog {
  return {
    address: CONTRACT,
    topics,
    data,
    blockNumber: "0x10",
    blockHash: `0x${"ab".repeat(32)}`,
    transactionHash: `0x${"cd".repeat(32)}`,
    transactionIndex: "0x2",
    logIndex: "0x3",
  };
}

describe("decoding logs: the fast path reads words exactly as ethers does", () => {
  const SIGNATURES = [
    "Trade(address indexed trader, uint256 notional, uint16 leverage)",
    "Mixed(uint8 indexed small, int16 signed, bool flag, bytes4 tag, int256 wide, address who)",
    "Indexed(string indexed label, bytes32 indexed key, uint64 amount)",
  ];
  for (const signature of SIGNATURES)
    it(`agrees with ethers on 500 random logs of ${signature.split("(")[0]}, dirty bits included`, () => {
      const s = source(signature);
      const fast = new LogDecoder(s);
      const slow = new LogDecoder(s, { fast: false });
      const word = words(signature.length);
      const event = EventFragment.from(signature);
      const indexed = event.inputs.filter((i) => i.indexed === true).length;
      const dataWords = event.inputs.length - indexed;
      let decoded = 0;
      for (let n = 0; n < 500; n++) {
        const topics = [
          s.topic,
          ...Array.from({ length: indexed }, () => `0x${word()}`),
        ];
        const data = `0x${Array.from({ length: dataWords }, word).join("")}`;
        const entry = log(topics, data);
        const expected = outcome(() => slow.decode(entry, 7n));
        const actual = outcome(() => fast.decode(entry, 7n));
        expect(actual, `${topics.join(",")} ${data}`).to.deep.equal(expected);
        if ("decoded" in expected) decoded++;
      }
      // Most logs decode: the comparison is not only of refusals.
      expect(decoded).to.be.greaterThan(200);
    });

  it("refuses a value beyond a 128-bit column, naming the log", () => {
    const s = source(
      "Trade(address indexed trader, uint256 notional, uint16 leverage)",
    );
    const huge = new AbiCoder().encode(["uint256", "uint16"], [2n ** 200n, 3]);
    const topics = [
      s.topic,
      zeroPadValue("0x1000000000000000000000000000000000000001", 32),
    ];
    const wide = thrownParams(
      () => new LogDecoder(s).decode(log(topics, huge), 1n),
      ERRORS.INDEXER.LOGS.VALUE_TOO_WIDE,
    );
    expect(wide.where).to.match(
      /^log 3 of transaction 0xcdcd.* \(block 16, source t\)$/,
    );
    expect([wide.column, wide.value]).to.deep.equal(["notional", 2n ** 200n]);
  });

  it("decodes a dynamic parameter with ethers, and a short log is refused as ethers refuses it", () => {
    const s = source("Named(address indexed who, string name, uint256 amount)");
    const data = new AbiCoder().encode(["string", "uint256"], ["alice", 5n]);
    const topics = [
      s.topic,
      zeroPadValue("0x1000000000000000000000000000000000000001", 32),
    ];
    expect(
      new LogDecoder(s).decode(log(topics, data), 1n).values,
    ).to.deep.equal([
      "0x1000000000000000000000000000000000000001",
      "alice",
      5n,
    ]);
    const short = thrownParams(
      () => new LogDecoder(s).decode(log(topics, "0x1234"), 1n),
      ERRORS.INDEXER.LOGS.LOG_NOT_DECODABLE,
    );
    expect(short.event).to.match(/^event Named\(/);
  });

  it("appends to columns what ethers decodes, from lowercase and uppercase hex alike", () => {
    const s = source(
      "Mixed(uint8 indexed small, int16 signed, bool flag, bytes4 tag, int256 wide, address who)",
    );
    const decoder = new LogDecoder(s);
    const ethers = new LogDecoder(s, { fast: false });
    const word = words(11);
    const columns = new LogColumns(s.columns.length);
    const rows = [];
    for (let n = 0; n < 200; n++) {
      const who = `${"0".repeat(24)}${word().slice(24)}`;
      const data = `0x${[word(), word(), word(), word(), who].join("")}`;
      const topic = `0x${word()}`;
      const upper = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;
      const entry = {
        ...(n % 2 === 0
          ? log([s.topic, topic], data)
          : log([s.topic, upper(topic)], upper(data))),
        logIndex: `0x${n.toString(16)}`,
        blockNumber: `0x${(100 + (n >> 3)).toString(16)}`,
      };
      rows.push(ethers.decode(entry, 7n));
      decoder.decodeInto(columns, entry, BigInt(entry.blockNumber), 7n);
    }
    const appended = Array.from({ length: columns.length }, (_, i) => ({
      blockNumber: columns.blockNumber[i],
      blockTime: columns.blockTime[i],
      txHash: columns.txHash[i],
      txIndex: columns.txIndex[i],
      logIndex: columns.logIndex[i],
      values: columns.values.map((values) => values[i]),
    }));
    expect(appended).to.deep.equal(rows);
    expect(columns.length).to.equal(200);
  });

  it("refuses a word with a character that is not a hex digit in its data or topic, as ethers does, and a field that is not text", () => {
    const s = source(
      "Trade(address indexed trader, uint256 notional, uint16 leverage)",
    );
    const data = new AbiCoder().encode(["uint256", "uint16"], [5n, 3]);
    const topic = zeroPadValue(
      "0x1000000000000000000000000000000000000001",
      32,
    );
    const spoilt = (hex: string, at: number, char: string) =>
      `${hex.slice(0, at)}${char}${hex.slice(at + 1)}`;
    const refusals = [];
    // Past the lowercase digits on either side: "/" and ":" around 0-9,
    // "`" and "g" around a-f, a letter beyond ASCII, a space.
    for (const char of ["/", ":", "`", "g", "G", "\u00e9", " "]) {
      for (const [topics, body] of [
        [[s.topic, topic], spoilt(data, 70, char)],
        [[s.topic, spoilt(topic, 40, char)], data],
      ] as const) {
        const fast = outcome(() =>
          new LogDecoder(s).decode(log([...topics], body), 1n),
        );
        const ethers = outcome(() =>
          new LogDecoder(s, { fast: false }).decode(log([...topics], body), 1n),
        );
        expect(fast).to.deep.equal(ethers);
        refusals.push(fast.refused?.[0]);
      }
    }
    expect(new Set(refusals)).to.deep.equal(
      new Set([errorCode(ERRORS.INDEXER.LOGS.LOG_NOT_DECODABLE)]),
    );
    // An answer's fields are not checked one by one before decoding.
    const notText = outcome(() =>
      new LogDecoder(s).decode(
        log([s.topic, topic], [...data] as unknown as string),
        1n,
      ),
    );
    expect(notText.refused?.[0]).to.equal(
      errorCode(ERRORS.INDEXER.LOGS.LOG_NOT_DECODABLE),
    );
  });

  it("holds a uint128 up to 2^127 - 1 and refuses 2^127 (a HUGEINT column holds 127 bits and a sign), and an int128 down to its minimum", () => {
    const s = source("Wide(uint128 big, int128 signed)");
    const coder = new AbiCoder();
    const decode = (big: bigint, signed: bigint) =>
      new LogDecoder(s).decode(
        log([s.topic], coder.encode(["uint128", "int128"], [big, signed])),
        1n,
      ).values;
    expect(decode(2n ** 127n - 1n, -(2n ** 127n))).to.deep.equal([
      2n ** 127n - 1n,
      -(2n ** 127n),
    ]);
    const wide = thrownParams(
      () => decode(2n ** 127n, 0n),
      ERRORS.INDEXER.LOGS.VALUE_TOO_WIDE,
    );
    expect([wide.column, wide.value]).to.deep.equal(["big", 2n ** 127n]);
  });

  it("refuses a log whose logIndex is not a hex quantity, naming it, and appends nothing", () => {
    const s = source(
      "Trade(address indexed trader, uint256 notional, uint16 leverage)",
    );
    const data = new AbiCoder().encode(["uint256", "uint16"], [5n, 3]);
    const topics = [
      s.topic,
      zeroPadValue("0x1000000000000000000000000000000000000001", 32),
    ];
    const columns = new LogColumns(s.columns.length);
    for (const logIndex of ["0x1g", "", "3", "0x"]) {
      expect(
        thrownParams(
          () =>
            new LogDecoder(s).decodeInto(
              columns,
              { ...log(topics, data), logIndex },
              16n,
              1n,
            ),
          ERRORS.INDEXER.LOGS.LOG_INDEX_NOT_HEX,
        ),
      ).to.deep.equal({
        logIndex,
        place: `0x${"cd".repeat(32)} (block 0x10, source t)`,
      });
    }
    expect(columns.length).to.equal(0);
    new LogDecoder(s).decodeInto(
      columns,
      { ...log(topics, data), logIndex: "0x1F" },
      16n,
      1n,
    );
    expect(columns.logIndex).to.deep.equal([31]);
  });
});
