import { Msg } from "@initia/initia.js";

import { ERRORS } from "../error-catalog.js";
import { VipError, defined } from "../errors.js";
import type { AminoJsonMsg, AminoMsg } from "./types.js";

// The amino JSON a chain signs is built by its proto rules: a field marked
// `(amino.dont_omitempty)` is always present (an empty list as []), any other
// is left out when empty; u64 values are decimal strings. The router's JSON may
// leave fields out or spell numbers as numbers, and @initia/initia.js 1.1 gets
// MsgCall wrong (it writes `access_list: null` and adds `auth_list: []`), so
// each message this tool signs is rebuilt here, field by field, from the rules
// below; a field or message type not listed is refused.

type Kind =
  "string" | "uint64" | "coin" | "coins" | "bytes" | "height" | "empty-list";

interface FieldRule {
  kind: Kind;
  /** `(amino.dont_omitempty)`: written even when empty. */
  always?: boolean;
}

interface MessageRule {
  aminoType: string;
  fields: Record<string, FieldRule>;
  /** The field naming the account that must sign. */
  signerField: string;
  /** The message in words, for the confirmation prompt. */
  describe: (value: Record<string, unknown>) => string;
}

const coinText = (coin: unknown) =>
  `${(coin as { amount: string }).amount} ${(coin as { denom: string }).denom}`;

const RULES: Record<string, MessageRule> = {
  "/opinit.ophost.v1.MsgInitiateTokenDeposit": {
    aminoType: "ophost/MsgInitiateTokenDeposit",
    fields: {
      sender: { kind: "string" },
      bridge_id: { kind: "uint64" },
      to: { kind: "string" },
      amount: { kind: "coin", always: true },
      data: { kind: "bytes" },
    },
    signerField: "sender",
    describe: (v) =>
      `deposit ${coinText(v.amount)} into OPinit bridge ${String(v.bridge_id)}, ` +
      `for ${String(v.to)} on the rollup${v.data === "" ? "" : " (with data)"}`,
  },
  "/opinit.opchild.v1.MsgInitiateTokenWithdrawal": {
    aminoType: "opchild/MsgInitiateTokenWithdrawal",
    fields: {
      sender: { kind: "string" },
      to: { kind: "string" },
      amount: { kind: "coin", always: true },
    },
    signerField: "sender",
    describe: (v) =>
      `withdraw ${coinText(v.amount)} over the OPinit bridge, to ${String(v.to)} on the base chain`,
  },
  "/minievm.evm.v1.MsgCall": {
    aminoType: "evm/MsgCall",
    fields: {
      sender: { kind: "string" },
      contract_addr: { kind: "string" },
      input: { kind: "string" },
      value: { kind: "uint64", always: true },
      access_list: { kind: "empty-list", always: true },
      auth_list: { kind: "empty-list" },
    },
    signerField: "sender",
    describe: (v) => {
      const input = String(v.input).replace(/^0x/, "");
      const selector =
        input.length >= 8 ? ` (selector 0x${input.slice(0, 8)})` : "";
      return (
        `call contract ${String(v.contract_addr)} with ${input.length / 2} bytes of input${selector}, ` +
        `sending ${String(v.value)} of the native token`
      );
    },
  },
  "/cosmos.bank.v1beta1.MsgSend": {
    aminoType: "cosmos-sdk/MsgSend",
    fields: {
      from_address: { kind: "string" },
      to_address: { kind: "string" },
      amount: { kind: "coins", always: true },
    },
    signerField: "from_address",
    describe: (v) =>
      `send ${(v.amount as unknown[]).map(coinText).join(", ")} to ${String(v.to_address)}`,
  },
  "/ibc.applications.transfer.v1.MsgTransfer": {
    aminoType: "cosmos-sdk/MsgTransfer",
    fields: {
      source_port: { kind: "string" },
      source_channel: { kind: "string" },
      token: { kind: "coin", always: true },
      sender: { kind: "string" },
      receiver: { kind: "string" },
      timeout_height: { kind: "height", always: true },
      timeout_timestamp: { kind: "uint64" },
      memo: { kind: "string" },
    },
    signerField: "sender",
    describe: (v) =>
      `IBC transfer of ${coinText(v.token)} over ${String(v.source_port)}/${String(v.source_channel)} ` +
      `to ${String(v.receiver)}${v.memo === "" ? "" : " (with a memo)"}`,
  },
};

/** The message types this tool can sign. */
const SIGNABLE_TYPES = Object.keys(RULES);

/**
 * One message checked against its type's rules: every field present, with its
 * proto default where absent.
 */
export interface CheckedMsg {
  typeUrl: string;
  aminoType: string;
  /**
   * Every field of the message, defaults filled in: what the proto encoding is
   * built from.
   */
  full: Record<string, unknown>;
  /** The account that must sign it. */
  signer: string;
  description: string;
}

/**
 * Parses a router message (`{msg_type_url, msg}`) and checks it against the
 * chain's proto rules. `where` names it in errors ("transaction 1, message 2").
 * An unknown type or field, or a value of the wrong kind, is refused: this tool
 * signs only what it can spell exactly as the chain does.
 */
export function checkMsg(msg: AminoJsonMsg, where: string): CheckedMsg {
  let value: unknown;
  try {
    value = parseLossless(msg.msg);
  } catch {
    throw new VipError(ERRORS.NETWORK.ROUTE_MESSAGES.MSG_NOT_JSON, {
      where,
      typeUrl: msg.msg_type_url,
    });
  }
  return checkValue(msg.msg_type_url, value, where);
}

/**
 * JSON.parse that keeps every digit: an integer beyond 2^53 (Skip writes IBC
 * `timeout_timestamp` in nanoseconds as a bare number) comes back as its source
 * text, which the u64 rules then check and sign exactly. `JSON.parse` alone
 * would round it, and the signature would be over another timeout than the
 * router's. (The reviver's source text needs Node 22+, which Hardhat needs
 * anyway; without it the number stays a number and is refused as not exact.)
 */
function parseLossless(text: string): unknown {
  return JSON.parse(text, function (
    this: unknown,
    _key: string,
    value: unknown,
    context?: { source?: string },
  ) {
    if (
      typeof value === "number" &&
      !Number.isSafeInteger(value) &&
      context?.source !== undefined &&
      /^-?\d+$/.test(context.source)
    )
      return context.source;
    return value;
  } as Parameters<typeof JSON.parse>[1]);
}

/**
 * Like `checkMsg`, for a message value already parsed (e.g. decoded from a
 * transaction).
 */
function checkValue(
  typeUrl: string,
  value: unknown,
  where: string,
): CheckedMsg {
  const rule = RULES[typeUrl];
  if (rule === undefined)
    throw new VipError(ERRORS.NETWORK.ROUTE_MESSAGES.MSG_TYPE_NOT_SIGNABLE, {
      where,
      typeUrl,
      types: SIGNABLE_TYPES.join(", "),
    });
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new VipError(ERRORS.NETWORK.ROUTE_MESSAGES.MSG_NOT_OBJECT, {
      where,
      typeUrl,
    });
  const given = value as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (rule.fields[name] === undefined)
      throw new VipError(ERRORS.NETWORK.ROUTE_MESSAGES.MSG_UNKNOWN_FIELD, {
        where,
        typeUrl,
        field: name,
      });
  }
  const full: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(rule.fields))
    full[name] = normalise(
      given[name],
      field.kind,
      `${where} (${typeUrl}) field ${name}`,
    );
  const signer = full[rule.signerField];
  if (typeof signer !== "string" || signer === "")
    throw new VipError(ERRORS.NETWORK.ROUTE_MESSAGES.MSG_SIGNER_MISSING, {
      where,
      typeUrl,
      field: rule.signerField,
    });
  return {
    typeUrl,
    aminoType: rule.aminoType,
    full,
    signer,
    description: rule.describe(full),
  };
}

/**
 * The message as the chain signs it: `{type, value}` with empty fields left out
 * unless always written.
 */
export function aminoForSigning(msg: CheckedMsg): AminoMsg {
  const rule = defined(
    RULES[msg.typeUrl],
    "a checked message's type has a rule",
  );
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(rule.fields)) {
    const fieldValue =
      field.kind === "height"
        ? withoutZeros(msg.full[name] as Record<string, string>)
        : msg.full[name];
    if (field.always === true || !isEmpty(fieldValue, field.kind))
      value[name] = fieldValue;
  }
  return { type: msg.aminoType, value };
}

/**
 * The message as an @initia/initia.js Msg, for its protobuf encoding (which is
 * right; only its amino JSON is not).
 */
export function initiaMsg(msg: CheckedMsg): Msg {
  return Msg.fromAmino({ type: msg.aminoType, value: msg.full } as never);
}

/**
 * A message decoded from a transaction's protobuf `Any`, checked by the same
 * rules.
 */
export function checkProtoAny(
  any: Parameters<typeof Msg.fromProto>[0],
  where: string,
): CheckedMsg {
  const typeUrl = any.typeUrl;
  if (RULES[typeUrl] === undefined)
    throw new VipError(ERRORS.NETWORK.ROUTE_MESSAGES.MSG_TYPE_NOT_READABLE, {
      where,
      typeUrl,
    });
  const { value } = Msg.fromProto(any).toAmino() as unknown as AminoMsg;
  // initia.js writes an empty list as null and adds fields the amino form
  // omits: the rules decide.
  const cleaned = Object.fromEntries(
    Object.entries(value).filter(
      ([, v]) =>
        v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0),
    ),
  );
  return checkValue(typeUrl, cleaned, where);
}

function normalise(value: unknown, kind: Kind, where: string): unknown {
  switch (kind) {
    case "string":
      if (value === undefined || value === null) return "";
      if (typeof value !== "string") throw wrongKind(where, "a string");
      return value;
    case "uint64":
      return uint64(value, where);
    case "bytes":
      if (value === undefined || value === null) return "";
      if (typeof value !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(value))
        throw wrongKind(where, "base64");
      return value;
    case "coin":
      return coin(value, where);
    case "coins":
      if (value === undefined || value === null) return [];
      if (!Array.isArray(value)) throw wrongKind(where, "a list of coins");
      return value.map((c, i) => coin(c, `${where}[${i}]`));
    case "height": {
      if (value === undefined || value === null)
        return { revision_number: "0", revision_height: "0" };
      if (typeof value !== "object" || Array.isArray(value))
        throw wrongKind(where, "an object");
      const height = value as Record<string, unknown>;
      for (const name of Object.keys(height)) {
        if (name !== "revision_number" && name !== "revision_height")
          throw new VipError(
            ERRORS.NETWORK.ROUTE_MESSAGES.MSG_UNKNOWN_SUBFIELD,
            {
              where,
              field: name,
              what: "a height",
            },
          );
      }
      return {
        revision_number: uint64(
          height.revision_number,
          `${where}.revision_number`,
        ),
        revision_height: uint64(
          height.revision_height,
          `${where}.revision_height`,
        ),
      };
    }
    case "empty-list":
      if (
        value === undefined ||
        value === null ||
        (Array.isArray(value) && value.length === 0)
      )
        return [];
      throw new VipError(ERRORS.NETWORK.ROUTE_MESSAGES.MSG_LIST_NOT_EMPTY, {
        where,
      });
  }
}

function uint64(value: unknown, where: string): string {
  if (value === undefined || value === null) return "0";
  const text =
    typeof value === "number" && Number.isSafeInteger(value)
      ? String(value)
      : value;
  if (
    typeof text !== "string" ||
    !/^\d+$/.test(text) ||
    BigInt(text) >= 2n ** 64n
  )
    throw wrongKind(where, "an unsigned 64-bit integer");
  return BigInt(text).toString();
}

function coin(
  value: unknown,
  where: string,
): { denom: string; amount: string } {
  if (typeof value !== "object" || value === null)
    throw wrongKind(where, "a coin {denom, amount}");
  const { denom, amount, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0)
    throw new VipError(ERRORS.NETWORK.ROUTE_MESSAGES.MSG_UNKNOWN_SUBFIELD, {
      where,
      field: defined(
        Object.keys(rest)[0],
        "the coin has a field besides denom and amount",
      ),
      what: "a coin",
    });
  if (typeof denom !== "string" || denom === "")
    throw wrongKind(`${where}.denom`, "a denom");
  const text =
    typeof amount === "number" && Number.isSafeInteger(amount)
      ? String(amount)
      : amount;
  if (typeof text !== "string" || !/^\d+$/.test(text))
    throw wrongKind(`${where}.amount`, "an amount in base units");
  return { denom, amount: BigInt(text).toString() };
}

/** A field whose value is not of the kind its rule says. */
function wrongKind(where: string, kind: string): VipError {
  return new VipError(ERRORS.NETWORK.ROUTE_MESSAGES.MSG_VALUE_KIND, {
    where,
    kind,
  });
}

function withoutZeros(height: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(height).filter(([, v]) => v !== "0"),
  );
}

function isEmpty(value: unknown, kind: Kind): boolean {
  if (kind === "uint64") return value === "0";
  if (kind === "height") return Object.keys(value as object).length === 0;
  return value === "" || (Array.isArray(value) && value.length === 0);
}
