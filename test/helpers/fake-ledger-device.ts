/**
 * A stand-in Ledger: preloaded into a Hardhat CLI process (`node --import`), it
 * replaces the USB transport that hardhat-ledger opens with one that answers
 * the Ethereum app's APDUs with a software key. Everything above the USB layer
 * is real: hardhat-ledger's handler, @ledgerhq/hw-app-eth's chunking and
 * parsing, and the signed transaction the node checks.
 *
 * Environment: FAKE_LEDGER_KEY (the device's key, a public test key),
 * FAKE_LEDGER_LOG (a file the instructions it served are appended to, one per
 * line, so the test can see what the device was asked).
 */
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";

import { getBytes, keccak256, SigningKey, computeAddress } from "ethers";

/**
 * Node loads this file alone (`--import`, type stripping only), where
 * `../../tasks/errors.js` does not resolve to its .ts source: so a local check
 * instead of the package's `defined`.
 */
function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`fake Ledger: ${what} is missing`);
  return value;
}

const OK = Buffer.from([0x90, 0x00]);
const INS_NOT_SUPPORTED = Buffer.from([0x6d, 0x00]);
const DEFAULT_PATH = "m/44'/60'/0'/0/0";

function pathOf(data: Buffer): { path: string; rest: Buffer } {
  const count = defined(data[0], "data[0]");
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const value = data.readUInt32BE(1 + 4 * i);
    parts.push(value >= 0x80000000 ? `${value - 0x80000000}'` : String(value));
  }
  return { path: `m/${parts.join("/")}`, rest: data.subarray(1 + 4 * count) };
}

/**
 * Installs the fake device; the Ledger packages are loaded only here, when a
 * test asks for the device.
 */
function installFakeLedger(privateKey: string, log: string | undefined): void {
  // Resolved from hardhat-ledger itself: the very classes it loads, not copies
  // a dependency of ours would pin.
  const require = createRequire(
    import.meta.resolve("@nomicfoundation/hardhat-ledger"),
  );
  /* eslint-disable import/no-extraneous-dependencies -- hardhat-ledger's own dependencies, by design */
  const Transport = require("@ledgerhq/hw-transport").default;
  const NodeHidTransport = require("@ledgerhq/hw-transport-node-hid").default;
  /* eslint-enable import/no-extraneous-dependencies */

  class FakeEthereumApp extends Transport {
    key: SigningKey;
    log: string | undefined;
    signing: { path: string; payload: Buffer } | undefined;
    personal: { path: string; length: number; message: Buffer } | undefined;

    constructor(privateKey: string, log: string | undefined) {
      super();
      this.key = new SigningKey(privateKey);
      this.log = log;
      this.signing = undefined;
      this.personal = undefined;
    }

    record(what: string): void {
      if (this.log !== undefined) appendFileSync(this.log, what + "\n");
    }

    async exchange(apdu: Buffer): Promise<Buffer> {
      const ins = defined(apdu[1], "apdu[1]");
      const p1 = defined(apdu[2], "apdu[2]");
      const data = apdu.subarray(5, 5 + defined(apdu[4], "apdu[4]"));
      if (ins === 0x06) {
        this.record("GET_APP_CONFIGURATION");
        return Buffer.concat([Buffer.from([0x01, 1, 10, 0]), OK]);
      }
      if (ins === 0x02) {
        const { path } = pathOf(data);
        this.record(`GET_ADDRESS ${path}`);
        // Only the first account holds the key; other paths answer unrelated
        // addresses, as a real device would.
        const publicKey =
          path === DEFAULT_PATH
            ? this.key.publicKey
            : SigningKey.computePublicKey(keccak256(Buffer.from(path)), false);
        const address = computeAddress(publicKey).slice(2);
        const pub = Buffer.from(getBytes(publicKey));
        return Buffer.concat([
          Buffer.from([pub.length]),
          pub,
          Buffer.from([address.length]),
          Buffer.from(address, "ascii"),
          OK,
        ]);
      }
      if (ins === 0x04) {
        if (p1 === 0x00) {
          const { path, rest } = pathOf(data);
          this.signing = { path, payload: Buffer.from(rest) };
          this.record(`SIGN_TRANSACTION ${path} type ${rest[0]}`);
        } else if (this.signing !== undefined) {
          this.signing.payload = Buffer.concat([this.signing.payload, data]);
        }
        const payload = defined(this.signing, "this.signing").payload;
        if (defined(payload[0], "payload[0]") >= 0x7f) {
          // Legacy transactions carry EIP-155 in v; hardhat-ledger sends typed
          // ones, so none is expected here.
          this.record("SIGN_TRANSACTION legacy (refused)");
          return INS_NOT_SUPPORTED;
        }
        // Each chunk is answered with a signature of what has arrived so far;
        // the last answer signs it all.
        const signature = this.key.sign(keccak256(payload));
        return Buffer.concat([
          Buffer.from([signature.yParity]),
          Buffer.from(getBytes(signature.r)),
          Buffer.from(getBytes(signature.s)),
          OK,
        ]);
      }
      if (ins === 0x08) {
        // personal_sign: path, the message's length (4 bytes), then the message
        // over as many chunks as it takes.
        if (p1 === 0x00) {
          const { path, rest } = pathOf(data);
          this.personal = {
            path,
            length: rest.readUInt32BE(0),
            message: Buffer.from(rest.subarray(4)),
          };
        } else if (this.personal !== undefined) {
          this.personal.message = Buffer.concat([this.personal.message, data]);
        }
        const personal = defined(this.personal, "this.personal");
        if (personal.message.length < personal.length) return OK;
        this.record(
          `SIGN_PERSONAL_MESSAGE ${personal.path} ${personal.message.length} bytes`,
        );
        const prefix = Buffer.from(
          `\x19Ethereum Signed Message:\n${personal.message.length}`,
          "utf8",
        );
        const signature = this.key.sign(
          keccak256(Buffer.concat([prefix, personal.message])),
        );
        this.personal = undefined;
        return Buffer.concat([
          Buffer.from([27 + signature.yParity]),
          Buffer.from(getBytes(signature.r)),
          Buffer.from(getBytes(signature.s)),
          OK,
        ]);
      }
      this.record(`UNSUPPORTED 0x${ins.toString(16)}`);
      return INS_NOT_SUPPORTED;
    }

    async close(): Promise<void> {}
  }

  NodeHidTransport.create = async () => new FakeEthereumApp(privateKey, log);
}

// Mocha also loads every file under test/; there, without FAKE_LEDGER_KEY, this
// file does nothing.
const fakeLedgerKey = process.env.FAKE_LEDGER_KEY;
if (fakeLedgerKey !== undefined)
  installFakeLedger(fakeLedgerKey, process.env.FAKE_LEDGER_LOG);
