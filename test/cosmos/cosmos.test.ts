import {
  Coins,
  Fee,
  MsgCall,
  MsgInitiateTokenDeposit,
  RawKey,
  SignMode,
  Tx,
  TxBody,
  AuthInfo as InitiaAuthInfo,
  Msg,
} from "@initia/initia.js";
import { AuthInfo, TxRaw } from "@initia/initia.proto/cosmos/tx/v1beta1/tx.js";
import { expect } from "chai";
import { hashMessage, hexlify, recoverAddress, Wallet } from "ethers";

import {
  accountInfo,
  broadcastTx,
  getTx,
} from "../../tasks/clients/cosmos-tx.js";
import { checkMsg } from "../../tasks/cosmos/amino.js";
import { checkHookSequence, signOpHook } from "../../tasks/cosmos/op-hook.js";
import { stdSignDocJson } from "../../tasks/cosmos/sign-doc.js";
import { signCosmosTx, txHash } from "../../tasks/cosmos/sign.js";
import { TxRejection, verifySignedOpHook } from "../../tasks/cosmos/verify.js";
import { ERRORS } from "../../tasks/error-catalog.js";
import { defined, isVipError, type VipError } from "../../tasks/errors.js";
import { accountAddresses } from "../../tasks/signer/addresses.js";
import {
  type L1RestStandIn,
  startL1RestStandIn,
} from "../../tasks/stand-ins/l1-rest.js";
import { caught, refusal } from "../helpers/failure.js";
import { DEPLOYER, DEPLOYER_KEY, OUTSIDER_KEY } from "../helpers/keys.js";

const SIGNER = accountAddresses(DEPLOYER, "test");
const account = { ...SIGNER, signer: new Wallet(DEPLOYER_KEY) };
const HOOK_CONTRACT = "0x4f06c4d5f5d8e2f2e3b3c4a1a2b3c4d5e6f70819";

const deposit = (extra: Record<string, unknown> = {}) =>
  checkMsg(
    {
      msg_type_url: "/opinit.ophost.v1.MsgInitiateTokenDeposit",
      msg: JSON.stringify({
        sender: SIGNER.bech32,
        bridge_id: 16,
        to: SIGNER.bech32,
        amount: { denom: "uinit", amount: 1000000 },
        ...extra,
      }),
    },
    "test message",
  );
const hookCall = () => ({
  msg_type_url: "/minievm.evm.v1.MsgCall",
  msg: JSON.stringify({
    sender: SIGNER.bech32,
    contract_addr: HOOK_CONTRACT,
    input: "0xabcd",
    value: "0",
  }),
});

/**
 * The 64-byte signature in a transaction, and the address it recovers to over
 * `signedText` (EIP-191).
 */
function signerOver(txBytes: Uint8Array, signedText: string): string {
  const signature = defined(
    TxRaw.decode(txBytes).signatures[0],
    "TxRaw.decode(txBytes).signatures[0]",
  );
  const r = hexlify(signature.subarray(0, 32));
  const s = hexlify(signature.subarray(32));
  const candidates = [27, 28].map((v) =>
    recoverAddress(hashMessage(signedText), { r, s, v }),
  );
  return (
    candidates.find((a) => a === DEPLOYER) ??
    defined(candidates[0], "candidates[0]")
  );
}

describe("Cosmos transactions: amino sign bytes, EIP-191 signing, and the chain stand-in's verification", () => {
  describe("sign bytes, checked against JSON written out by hand from the chains' proto rules", () => {
    it("MsgInitiateTokenDeposit: bridge_id a string, amount always, empty data left out, keys sorted", async () => {
      const expected =
        `{"account_number":"12","chain_id":"interwoven-1","fee":{"amount":[{"amount":"2520","denom":"uinit"}],"gas":"168000"},"memo":"",` +
        `"msgs":[{"type":"ophost/MsgInitiateTokenDeposit","value":{"amount":{"amount":"1000000","denom":"uinit"},"bridge_id":"16",` +
        `"sender":"${SIGNER.bech32}","to":"${SIGNER.bech32}"}}],"sequence":"5"}`;
      const fee = {
        amount: [{ denom: "uinit", amount: "2520" }],
        gas: "168000",
      };
      const signed = await signCosmosTx({
        chainId: "interwoven-1",
        accountNumber: 12n,
        sequence: 5n,
        msgs: [deposit()],
        fee,
        account,
      });
      expect(
        signerOver(signed.txBytes, expected),
        "the signature is over exactly the hand-written bytes",
      ).to.equal(DEPLOYER);
      expect(signed.hash)
        .to.equal(txHash(signed.txBytes))
        .and.match(/^[0-9A-F]{64}$/);
    });

    it("MsgCall (the op hook's): value and access_list always, auth_list left out; initia.js 1.1's amino signs other bytes", async () => {
      const expected =
        `{"account_number":"3","chain_id":"rehearsal-1","fee":{"amount":[],"gas":"1"},"memo":"",` +
        `"msgs":[{"type":"evm/MsgCall","value":{"access_list":[],"contract_addr":"${HOOK_CONTRACT}","input":"0xabcd","sender":"${SIGNER.bech32}","value":"0"}}],"sequence":"0"}`;
      const msg = checkMsg(hookCall(), "hook");
      const signed = await signCosmosTx({
        chainId: "rehearsal-1",
        accountNumber: 3n,
        sequence: 0n,
        msgs: [msg],
        fee: { amount: [], gas: "1" },
        account,
      });
      expect(signerOver(signed.txBytes, expected)).to.equal(DEPLOYER);

      // The trap stays caught: initia.js writes access_list as null, and its
      // proto decoding adds auth_list.
      const initiaMsg = MsgCall.fromAmino({
        type: "evm/MsgCall",
        value: {
          sender: SIGNER.bech32,
          contract_addr: HOOK_CONTRACT,
          input: "0xabcd",
          value: "0",
        },
      } as never);
      const doc = (msgs: unknown[]) =>
        stdSignDocJson({
          chainId: "rehearsal-1",
          accountNumber: 3n,
          sequence: 0n,
          fee: { amount: [], gas: "1" },
          memo: "",
          msgs: msgs as never,
        });
      expect(doc([initiaMsg.toAmino()])).to.include('"access_list":null');
      expect(doc([initiaMsg.toAmino()])).to.not.equal(expected);
      expect(doc([Msg.fromProto(initiaMsg.packAny()).toAmino()])).to.include(
        '"auth_list":[]',
      );
    });

    it("escapes &, < and > as the chain's Go JSON does, and refuses what it cannot spell exactly", () => {
      const json = stdSignDocJson({
        chainId: "c",
        accountNumber: 0n,
        sequence: 0n,
        fee: { amount: [], gas: "1" },
        memo: "a<b>&c",
        msgs: [],
      });
      expect(json).to.include('"memo":"a\\u003cb\\u003e\\u0026c"');
      expect(
        caught(
          () =>
            checkMsg(
              {
                msg_type_url: "/cosmos.staking.v1beta1.MsgDelegate",
                msg: "{}",
              },
              "transaction 1, message 1",
            ),
          ERRORS.NETWORK.ROUTE_MESSAGES.MSG_TYPE_NOT_SIGNABLE,
        ).params,
      ).to.deep.include({
        where: "transaction 1, message 1",
        typeUrl: "/cosmos.staking.v1beta1.MsgDelegate",
      });
      expect(
        caught(
          () => deposit({ memo: "x" }),
          ERRORS.NETWORK.ROUTE_MESSAGES.MSG_UNKNOWN_FIELD,
        ).params.field,
      ).to.equal("memo");
      expect(
        caught(
          () => deposit({ amount: { denom: "uinit", amount: "-1" } }),
          ERRORS.NETWORK.ROUTE_MESSAGES.MSG_VALUE_KIND,
        ).params.where,
      ).to.match(/field amount\.amount$/);
      caught(
        () =>
          checkMsg(
            {
              ...hookCall(),
              msg: JSON.stringify({
                sender: SIGNER.bech32,
                contract_addr: HOOK_CONTRACT,
                input: "0x",
                access_list: [{ address: "0x1" }],
              }),
            },
            "hook",
          ),
        ERRORS.NETWORK.ROUTE_MESSAGES.MSG_LIST_NOT_EMPTY,
      );
    });
  });

  describe("against the base chain's REST stand-in", () => {
    let chain: L1RestStandIn;

    beforeEach(async () => {
      chain = await startL1RestStandIn();
      chain.state.chain.accounts[SIGNER.bech32] = {
        accountNumber: 12n,
        sequence: 5n,
      };
    });

    afterEach(() => chain.close());

    const signDeposit = (
      overrides: {
        chainId?: string;
        accountNumber?: bigint;
        sequence?: bigint;
      } = {},
    ) =>
      signCosmosTx({
        chainId: overrides.chainId ?? "interwoven-1",
        accountNumber: overrides.accountNumber ?? 12n,
        sequence: overrides.sequence ?? 5n,
        msgs: [deposit()],
        fee: { amount: [{ denom: "uinit", amount: "3000" }], gas: "200000" },
        account,
      });

    it("takes a signed deposit: the hash known before broadcast is the chain's, the sequence moves, the transaction is found by hash", async () => {
      const signed = await signDeposit();
      expect(
        await getTx(chain.url, signed.hash),
        "not there before it is sent",
      ).to.equal(undefined);
      const answer = await broadcastTx(chain.url, signed.txBytes);
      expect(answer).to.deep.equal({ hash: signed.hash, code: 0, log: "" });
      expect(await accountInfo(chain.url, SIGNER.bech32)).to.deep.equal({
        accountNumber: 12n,
        sequence: 6n,
      });
      const found = await getTx(chain.url, signed.hash);
      expect(found?.code).to.equal(0);
      expect(
        chain.state.chain.included[signed.hash]?.msgs[0]?.full.bridge_id,
      ).to.equal("16");
      expect(chain.state.chain.included[signed.hash]?.mode).to.equal("EIP-191");
      const again = await broadcastTx(chain.url, signed.txBytes);
      expect(again.code, "the same bytes are taken at most once").to.equal(19);
    });

    it("refuses, in the chain's shape, a tampered signature, another chain id, another account number and a stale sequence", async () => {
      const tampered = await signDeposit();
      const raw = TxRaw.decode(tampered.txBytes);
      const signature = defined(raw.signatures[0], "raw.signatures[0]");
      signature[10] = defined(signature[10], "signature[10]") ^ 1;
      const cases: [Uint8Array, number, RegExp][] = [
        [
          TxRaw.encode(raw).finish(),
          4,
          /^signature verification failed; please verify account number \(12\), sequence \(5\) and chain-id \(interwoven-1\): unauthorized$/,
        ],
        [
          (await signDeposit({ chainId: "interwoven-2" })).txBytes,
          4,
          /signature verification failed/,
        ],
        [
          (await signDeposit({ accountNumber: 13n })).txBytes,
          4,
          /signature verification failed/,
        ],
        [
          (await signDeposit({ sequence: 4n })).txBytes,
          32,
          /^account sequence mismatch, expected 5, got 4: incorrect account sequence$/,
        ],
      ];
      for (const [bytes, code, log] of cases) {
        const answer = await broadcastTx(chain.url, bytes);
        expect(answer.code).to.equal(code);
        expect(answer.log).to.match(log);
      }
      expect(
        defined(
          chain.state.chain.accounts[SIGNER.bech32],
          "chain.state.chain.accounts[SIGNER.bech32]",
        ).sequence,
        "nothing was taken",
      ).to.equal(5n);
      expect(Object.keys(chain.state.chain.included)).to.deep.equal([]);
    });

    it("refuses a transaction whose public key is not the messages' signer", async () => {
      const outsider = new Wallet(OUTSIDER_KEY);
      const forged = await signCosmosTx({
        chainId: "interwoven-1",
        accountNumber: 12n,
        sequence: 5n,
        msgs: [deposit()],
        fee: { amount: [{ denom: "uinit", amount: "3000" }], gas: "200000" },
        account: { ...SIGNER, signer: outsider },
      }).then(
        () => "signed",
        (error: unknown) => error,
      );
      expect(
        isVipError(forged, ERRORS.NETWORK.COSMOS_TX.SIGNATURE_WRONG_ACCOUNT),
        "the signer itself refuses a signature by another key",
      ).to.equal(true);
      expect(
        (
          forged as VipError<
            typeof ERRORS.NETWORK.COSMOS_TX.SIGNATURE_WRONG_ACCOUNT
          >
        ).params.hex,
      ).to.equal(SIGNER.hex);
    });

    it("verifies a DIRECT signature made by @initia/initia.js's own eth_secp256k1 key, an independent signer", async () => {
      const key = new RawKey(Buffer.from(DEPLOYER_KEY.slice(2), "hex"));
      expect(key.accAddress).to.equal(SIGNER.bech32);
      const unsigned = new Tx(
        new TxBody([
          MsgInitiateTokenDeposit.fromAmino({
            type: "ophost/MsgInitiateTokenDeposit",
            value: {
              sender: SIGNER.bech32,
              bridge_id: "16",
              to: SIGNER.bech32,
              amount: { denom: "uinit", amount: "1000000" },
            },
          } as never),
        ]),
        new InitiaAuthInfo([], new Fee(200000, new Coins("3000uinit"))),
        [],
      );
      const signed = await key.signTx(unsigned, {
        accountNumber: 12,
        sequence: 5,
        chainId: "interwoven-1",
        signMode: SignMode.SIGN_MODE_DIRECT,
      });
      const answer = await broadcastTx(chain.url, signed.toBytes());
      expect(answer.code, answer.log).to.equal(0);
      expect(chain.state.chain.included[answer.hash]?.mode).to.equal("DIRECT");
      expect(
        AuthInfo.decode(TxRaw.decode(signed.toBytes()).authInfoBytes)
          .signerInfos[0]?.publicKey?.typeUrl,
      ).to.equal("/initia.crypto.v1beta1.ethsecp256k1.PubKey");
    });

    it("signs the op hook at the account's sequence, two ahead on the source chain itself, with no fee; a stale one is refused", async () => {
      const hook = { chain_id: "interwoven-1", hook: [hookCall()] };
      const elsewhere = await signOpHook({
        hook,
        account,
        restUrl: chain.url,
        sourceChainId: "rehearsal-1",
      });
      expect([
        elsewhere.accountNumber,
        elsewhere.sequence,
        elsewhere.baseSequence,
      ]).to.deep.equal([12n, 5n, 5n]);
      const lookup = {
        chainId: "interwoven-1",
        account: (a: string) => chain.state.chain.accounts[a],
      };
      expect(
        verifySignedOpHook(elsewhere.signedOpHook.hook, lookup).fee,
      ).to.deep.equal({ amount: [], gas: "1" });

      const sameChain = await signOpHook({
        hook,
        account,
        restUrl: chain.url,
        sourceChainId: "interwoven-1",
      });
      expect(sameChain.sequence).to.equal(7n);
      expect(
        verifySignedOpHook(sameChain.signedOpHook.hook, {
          ...lookup,
          sequenceOffset: 2n,
        }).signer,
      ).to.equal(SIGNER.bech32);
      expect(() =>
        verifySignedOpHook(sameChain.signedOpHook.hook, lookup),
      ).to.throw(TxRejection, "account sequence mismatch, expected 5, got 7");

      // Another transaction from the account after the hook was signed: the
      // hook is stale, and the re-check says so.
      defined(
        chain.state.chain.accounts[SIGNER.bech32],
        "chain.state.chain.accounts[SIGNER.bech32]",
      ).sequence = 6n;
      expect(() =>
        verifySignedOpHook(elsewhere.signedOpHook.hook, lookup),
      ).to.throw(TxRejection, "account sequence mismatch, expected 6, got 5");
      expect(
        (
          await refusal(
            checkHookSequence(chain.url, SIGNER.bech32, "interwoven-1", 5n),
            ERRORS.NETWORK.COSMOS_TX.HOOK_SEQUENCE_MOVED,
          )
        ).params,
      ).to.deep.equal({
        account: SIGNER.bech32,
        chainId: "interwoven-1",
        from: 5n,
        to: 6n,
      });
    });

    it("refuses to sign an op hook for another account or for an account the chain does not have", async () => {
      const other = accountAddresses(
        new Wallet(OUTSIDER_KEY).address,
        "x",
      ).bech32;
      const foreign = {
        chain_id: "interwoven-1",
        hook: [
          {
            ...hookCall(),
            msg: JSON.stringify({
              sender: other,
              contract_addr: HOOK_CONTRACT,
              input: "0x",
              value: "0",
            }),
          },
        ],
      };
      expect(
        (
          await refusal(
            signOpHook({
              hook: foreign,
              account,
              restUrl: chain.url,
              sourceChainId: "x",
            }),
            ERRORS.NETWORK.COSMOS_TX.HOOK_SIGNER_MISMATCH,
          )
        ).params,
      ).to.deep.equal({ expected: other, signer: SIGNER.bech32 });
      delete chain.state.chain.accounts[SIGNER.bech32];
      expect(
        (
          await refusal(
            signOpHook({
              hook: { chain_id: "interwoven-1", hook: [hookCall()] },
              account,
              restUrl: chain.url,
              sourceChainId: "x",
            }),
            ERRORS.NETWORK.COSMOS_TX.HOOK_NO_ACCOUNT,
          )
        ).params,
      ).to.deep.equal({ account: SIGNER.bech32, chainId: "interwoven-1" });
    });
  });
});
