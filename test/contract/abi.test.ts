import { readFile } from "node:fs/promises";

import { expect } from "chai";
import { artifacts } from "hardhat";

import { defined } from "../../tasks/errors.js";

/**
 * The reference contract's ABI (initia-labs/vip-score-evm), which the VIP agent
 * and dashboards call. Each entry: kind, signature, and for functions the
 * output types (with names where readers use them).
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
  return (
    (p.indexed ? `${base} indexed` : base) +
    (withName && p.name ? ` ${p.name}` : "")
  );
}

function signature(entry: AbiEntry): string {
  const inputs = (entry.inputs ?? []).map((p) => paramType(p, false)).join(",");
  const head = `${entry.type} ${entry.name}(${inputs})`;
  if (entry.type !== "function") return head;
  const view =
    entry.stateMutability === "view" || entry.stateMutability === "pure"
      ? " view"
      : "";
  const outputs = entry.outputs ?? [];
  return outputs.length === 0
    ? head + view
    : `${head}${view} returns (${outputs.map((p) => paramType(p, true)).join(",")})`;
}

describe("VipScore ABI", () => {
  it("contains every function, event and error of the reference, with the same signature", async () => {
    const artifact = await artifacts.readArtifact("VipScore");
    const compiled = new Set((artifact.abi as AbiEntry[]).map(signature));
    const missing = REFERENCE.filter((s) => !compiled.has(s));
    expect(missing, `missing or changed:\n${missing.join("\n")}`).to.deep.equal(
      [],
    );
  });

  it("takes the start stage as its only constructor argument", async () => {
    const artifact = await artifacts.readArtifact("VipScore");
    const constructor = (artifact.abi as AbiEntry[]).find(
      (e) => e.type === "constructor",
    );
    expect(constructor?.inputs?.map((p) => p.type)).to.deep.equal(["uint64"]);
  });
});

/**
 * The reference's file-level events and errors: code written for it uses them
 * by these bare names.
 */
const REFERENCE_GLOBALS = [
  "CreateStage",
  "FinalizeStage",
  "UpdateScore",
  "PermissionDenied",
  "ZeroStage",
  "AddrsAndAmountsLengthMistmatch",
  "StageNotFound",
  "StageFinalized",
  "PreviousStageNotFinalized",
];

/**
 * Every name that `import "forge-std/Test.sol"` or `"forge-std/Script.sol"` can
 * bring into a file's global scope: the top-level declarations of forge-std's
 * src/ (foundry-rs/forge-std at 2575595, June 2026), plus the alias `console2`.
 * A name of ours among them would break a project that uses real forge-std.
 */
const FORGE_STD_GLOBALS = [
  "CommonBase",
  "Config",
  "FindData",
  "IERC1155",
  "IERC165",
  "IERC20",
  "IERC4626",
  "IERC6909",
  "IERC6909ContentURI",
  "IERC6909Metadata",
  "IERC6909TokenSupply",
  "IERC721",
  "IERC721Enumerable",
  "IERC721Metadata",
  "IERC721TokenReceiver",
  "IERC7540",
  "IERC7540Deposit",
  "IERC7540Operator",
  "IERC7540Redeem",
  "IERC7575",
  "IERC7575Share",
  "IMulticall3",
  "LibVariable",
  "Script",
  "ScriptBase",
  "StdAssertions",
  "StdChains",
  "StdCheats",
  "StdCheatsSafe",
  "StdConfig",
  "StdConstants",
  "StdInvariant",
  "StdStorage",
  "StdStyle",
  "StdUtils",
  "Test",
  "TestBase",
  "Type",
  "TypeKind",
  "Variable",
  "Vm",
  "VmSafe",
  "console",
  "console2",
  "safeconsole",
  "stdError",
  "stdJson",
  "stdMath",
  "stdStorage",
  "stdStorageSafe",
  "stdToml",
];

describe("VipScore at the source level", () => {
  /**
   * The names a whole-file `import "src/VipScore.sol"` brings into scope, from
   * the compiler's own AST.
   */
  async function exportedSymbols(): Promise<string[]> {
    const artifact = await artifacts.readArtifact("VipScore");
    const outputPath = await artifacts.getBuildInfoOutputPath(
      defined(artifact.buildInfoId, "artifact.buildInfoId"),
    );
    const output = JSON.parse(
      await readFile(defined(outputPath, "outputPath"), "utf8"),
    ) as {
      output: {
        sources: Record<
          string,
          { ast: { exportedSymbols: Record<string, unknown> } }
        >;
      };
    };
    const source = Object.entries(output.output.sources).find(([name]) =>
      name.endsWith("contracts/VipScore.sol"),
    );
    return Object.keys(defined(source, "source")[1].ast.exportedSymbols);
  }

  it("exports the reference's events and errors by their bare names, as the reference's file does", async () => {
    expect(await exportedSymbols()).to.include.members([
      ...REFERENCE_GLOBALS,
      "VipScore",
    ]);
  });

  it("brings no name into the global scope that forge-std declares", async () => {
    expect(
      (await exportedSymbols()).filter((name) =>
        FORGE_STD_GLOBALS.includes(name),
      ),
    ).to.deep.equal([]);
  });
});
