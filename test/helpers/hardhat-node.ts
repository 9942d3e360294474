import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

import { HARDHAT_CLI, PROJECT_ROOT } from "./hardhat-cli.js";

export interface HardhatNode {
  url: string;
  chainId: bigint;
  /** The CPU time the node's process has used so far, in seconds (Linux's /proc; NaN elsewhere). */
  cpuSeconds(): number;
  close(): Promise<void>;
}

/**
 * Starts `npx hardhat node` on 127.0.0.1 with a free port and a chain id of its
 * own (so Ignition journals of different tests never share a folder; or
 * `chainId`), and waits until it answers JSON-RPC.
 */
export async function startHardhatNode(
  options: { chainId?: bigint; onOutput?: (text: string) => void } = {},
): Promise<HardhatNode> {
  const port = await freePort();
  const chainId =
    options.chainId ?? 31_337_000n + BigInt(Math.floor(Math.random() * 1000));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      HARDHAT_CLI,
      "node",
      "--port",
      String(port),
      "--hostname",
      "127.0.0.1",
      "--chain-id",
      String(chainId),
      "--no-typechain",
    ],
    { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  child.stdout?.on("data", (c: Buffer) => {
    log += c.toString();
    options.onOutput?.(c.toString());
  });
  child.stderr?.on("data", (c: Buffer) => (log += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`hardhat node exited with ${child.exitCode}:\n${log}`);
    try {
      const answer = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_chainId",
          params: [],
        }),
      });
      if (answer.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`hardhat node did not answer within 60 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    chainId,
    cpuSeconds: () => processCpuSeconds(child.pid),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A port nothing listens on now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string")
    throw new Error("no free port");
  return address.port;
}

/** Clock ticks a second in /proc's figures (`getconf CLK_TCK` on Linux). */
const TICKS_PER_SECOND = 100;

/** A process's user and system CPU time so far, from /proc/<pid>/stat. */
function processCpuSeconds(pid: number | undefined): number {
  try {
    // Fields after the command's name in parentheses: utime and stime are
    // the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
