import { expect } from "chai";
import hre from "hardhat";

/**
 * The reference contract's ABI (initia-labs/vip-score-evm), which the VIP agent and dashboards call.
 * Each entry: kind, signature, and for functions the output types (with names where readers use them).
 */
const REFERENCE = [
  "function getScores(uint64,uint64,uint64) view returns ((address addr,uint64 amount,uint64 index)[])",
  "function stages(uint64) view returns (uint64 stage,uint64 totalScore,bool isFinalized)",
  "function scores(uint64,address) view returns (bool isIndexed,uint64 amount)",
  "function initStage() view returns (uint64)",
  "function allowList(address) view returns (bool)",
  "function updateScores(uint64,address[],uint64[])",
  "function updateScore(uint64,address,uint64)",
  "function increaseScore(uint64,address,uint64)",
  "function decreaseScore(uint64,address,uint64)",
  "function finalizeStage(uint64)",
  "function addAllowList(address)",
  "function removeAllowList(address)",
  "event CreateStage(uint64)",
  "event FinalizeStage(uint64)",
  "event UpdateScore(address indexed,uint64 indexed,uint64,uint64)",
  "error PermissionDenied(address)",
  "error ZeroStage()",
  "error AddrsAndAmountsLengthMistmatch()",
  "error StageNotFound(uint64)",
  "error StageFinalized(uint64)",
  "error PreviousStageNotFinalized(uint64)",
];

interface AbiParam {
  type: string;
  name: string;
  indexed?: boolean;
  components?: AbiParam[];
}
interface AbiEntry {
  type: string;
  name?: string;
  stateMutability?: string;
  inputs?: AbiParam[];
  outputs?: AbiParam[];
}

function paramType(p: AbiParam, withName: boolean): string {
  const base = p.type.startsWith("tuple")
    ? `(${(p.components ?? []).map((c) => paramType(c, true)).join(",")})${p.type.slice("tuple".length)}`
    : p.type;
  return (p.indexed ? `${base} indexed` : base) + (withName && p.name ? ` ${p.name}` : "");
}

function signature(entry: AbiEntry): string {
  const inputs = (entry.inputs ?? []).map((p) => paramType(p, false)).join(",");
  const head = `${entry.type} ${entry.name}(${inputs})`;
  if (entry.type !== "function") return head;
  const view = entry.stateMutability === "view" || entry.stateMutability === "pure" ? " view" : "";
  const outputs = entry.outputs ?? [];
  return outputs.length === 0 ? head + view : `${head}${view} returns (${outputs.map((p) => paramType(p, true)).join(",")})`;
}

describe("VipScore ABI", () => {
  it("contains every function, event and error of the reference, with the same signature", async () => {
    const artifact = await hre.artifacts.readArtifact("VipScore");
    const compiled = new Set((artifact.abi as AbiEntry[]).map(signature));
    const missing = REFERENCE.filter((s) => !compiled.has(s));
    expect(missing, `missing or changed:\n${missing.join("\n")}`).to.deep.equal([]);
  });

  it("takes the start stage as its only constructor argument", async () => {
    const artifact = await hre.artifacts.readArtifact("VipScore");
    const constructor = (artifact.abi as AbiEntry[]).find((e) => e.type === "constructor");
    expect(constructor?.inputs?.map((p) => p.type)).to.deep.equal(["uint64"]);
  });
});
