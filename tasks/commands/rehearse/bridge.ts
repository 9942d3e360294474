import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { BridgeStandIn__factory, TestToken__factory } from "../../../types/ethers-contracts/index.js";
import { RouterClient } from "../../clients/router.js";
import { VipError } from "../../errors.js";
import { Journal } from "../../journal/journal.js";
import type { Connection } from "../../network/connect.js";
import { field, type Output } from "../../output.js";
import type { OperatorSigner } from "../../signer/signer.js";
import { opinitRoute, startRouterStandIn } from "../../stand-ins/router.js";
import { transferJournalPath, type TransferRecord } from "../../transfer/records.js";
import { runTransfer } from "../bridge-transfer/run.js";

/**
 * bridge:transfer as an operator runs it, on the in-process chain: a test token and a stand-in bridge
 * contract, the stand-in router on 127.0.0.1 answering route, msgs, track and status; the approval, the
 * transaction, one track, the status followed to its end.
 */
export async function rehearseTransfer(connection: Connection, signer: OperatorSigner, destChain: string, restUrls: Record<string, string>, out: Output): Promise<void> {
  const token = await new TestToken__factory(signer.signer).deploy(signer.hex, 10n ** 24n);
  const bridge = await new BridgeStandIn__factory(signer.signer).deploy();
  await Promise.all([token.waitForDeployment(), bridge.waitForDeployment()]);
  const [tokenAddress, bridgeAddress] = await Promise.all([token.getAddress(), bridge.getAddress()]);
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  const amount = 1_000_000n;
  const route = opinitRoute({ from: chainId.toString(), to: destChain, denomIn: tokenAddress, denomOut: "l2/rehearsal", bridgeId: "16", amountIn: amount, opHook: false });
  route.msgs = { evm: { chainId: chainId.toString(), bridge: bridgeAddress, token: tokenAddress } };
  const router = await startRouterStandIn({ routes: [route] });
  const dir = await mkdtemp(path.join(tmpdir(), "vip-rehearsal-transfer-"));
  try {
    out.line(field("router", `stand-in at ${router.url}; token ${tokenAddress}, bridge ${bridgeAddress}`));
    const intent = { fromChain: chainId.toString(), fromDenom: tokenAddress, toChain: destChain, toDenom: "l2/rehearsal", amount: amount.toString(), recipient: signer.bech32, signer: signer.hex };
    await runTransfer(intent, { slippagePercent: "1", pollMs: 50 }, {
      router: new RouterClient(router.url),
      journal: await Journal.open<TransferRecord>(transferJournalPath(dir, intent)),
      signer,
      provider: connection.ethers.provider,
      chainId,
      restUrl: async (id) => restUrls[id] ?? Promise.reject(new VipError(`no stand-in serves chain ${id}`)),
      out,
      confirm: async (lines) => {
        for (const line of lines) out.line(line);
        return true;
      },
    });
    out.line(field("bridge holds", `${await token.balanceOf(bridgeAddress)} of the test token`));
  } finally {
    await Promise.all([router.close(), rm(dir, { recursive: true, force: true })]);
  }
}
