import { AccAddress, bcs } from "@initia/initia.js";

import { GOV_AUTHORITY } from "./correction.js";
import { formatScaled, type Rate } from "./rates.js";

/** VM type of an EVM rollup in `vip::register` (0 Move, 1 Wasm, 2 EVM). */
const VM_TYPE_EVM = 2n;

/** What `vip::register` takes after its signer, in order. */
export interface RegisterArgs {
  /**
   * The operator's 20-byte account, as 0x… (it receives the operator rewards).
   */
  operator: string;
  bridgeId: bigint;
  /** The bridge's 32-byte account on the base chain, as init1…. */
  bridgeAddress: string;
  /**
   * The scoring contract on the rollup, as the text the VIP agent will call.
   */
  scoreContract: string;
  maxRate: Rate;
  maxChangeRate: Rate;
  rate: Rate;
}

export interface ProposalText {
  title: string;
  summary: string;
  /** The forum post's URL. */
  metadata: string;
  /** Coins, e.g. `100000000uinit`. */
  deposit: string;
}

/**
 * The arguments of `vip::register`, BCS-encoded in order, base64 as
 * `MsgGovExecute.args` carries them.
 */
export function encodeRegisterArgs(args: RegisterArgs): string[] {
  return [
    bcs.address().serialize(args.operator).toBase64(),
    bcs.u64().serialize(args.bridgeId).toBase64(),
    bcs.address().serialize(args.bridgeAddress).toBase64(),
    bcs.string().serialize(args.scoreContract).toBase64(),
    bcs.bigdecimal().serialize(formatScaled(args.maxRate.scaled)).toBase64(),
    bcs
      .bigdecimal()
      .serialize(formatScaled(args.maxChangeRate.scaled))
      .toBase64(),
    bcs.bigdecimal().serialize(formatScaled(args.rate.scaled)).toBase64(),
    bcs.u64().serialize(VM_TYPE_EVM).toBase64(),
  ];
}

/**
 * The proposal file `initiad tx gov submit-proposal <file>` reads: one
 * `MsgGovExecute` of `vip::register`, executed by the gov module, sent in the
 * name of the VIP module's own account.
 */
export function whitelistProposal(
  vipModuleAddress: string,
  args: RegisterArgs,
  text: ProposalText,
) {
  const vipModule = AccAddress.fromHex(vipModuleAddress);
  return {
    messages: [
      {
        "@type": "/initia.move.v1.MsgGovExecute",
        authority: GOV_AUTHORITY,
        sender: vipModule,
        module_address: vipModule,
        module_name: "vip",
        function_name: "register",
        type_args: [],
        args: encodeRegisterArgs(args),
      },
    ],
    metadata: text.metadata,
    deposit: text.deposit,
    title: text.title,
    summary: text.summary,
    expedited: false,
  };
}

/**
 * The arguments decoded back from the bytes that will be voted on, in words:
 * what a voter, and the operator before submitting, should read instead of
 * base64.
 */
export function describeRegisterArgs(encoded: string[]): string[] {
  const bytes = (i: number) => Buffer.from(encoded[i] ?? "", "base64");
  const operator = bcs.address().parse(bytes(0));
  const bridgeAddress = bcs.address().parse(bytes(2));
  const vmType = BigInt(bcs.u64().parse(bytes(7)));
  const operatorHex = `0x${operator.slice(-40)}`;
  return [
    `operator                 ${AccAddress.fromHex(operatorHex)} (${operatorHex}): ` +
      "receives the operator rewards",
    `bridge id                ${bcs.u64().parse(bytes(1))}`,
    `bridge address           ${AccAddress.fromHex(bridgeAddress)}`,
    `score contract           ${bcs.string().parse(bytes(3))} (on the rollup)`,
    `commission max rate      ${bcs.bigdecimal().parse(bytes(4))}`,
    `commission max change    ${bcs.bigdecimal().parse(bytes(5))} per change`,
    `commission rate          ${bcs.bigdecimal().parse(bytes(6))}`,
    `vm type                  ${vmType}${vmType === VM_TYPE_EVM ? " (EVM)" : " (not EVM!)"}`,
  ];
}
