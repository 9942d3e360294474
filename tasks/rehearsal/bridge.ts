import {
  BridgeStandIn__factory,
  TestToken__factory,
} from "../../types/ethers-contracts/index.js";
import { RouterClient } from "../clients/router.js";
import { ERRORS } from "../error-catalog.js";
import { VipError, defined } from "../errors.js";
import { Journal } from "../journal/journal.js";
import type { Connection } from "../network/connect.js";
import { field, type Output } from "../output.js";
import type { OperatorSigner } from "../signer/signer.js";
import type { CosmosChainState } from "../stand-ins/cosmos-chain.js";
import {
  opinitRoute,
  type RouterState,
  startRouterStandIn,
} from "../stand-ins/router.js";
import {
  transferJournalPath,
  type TransferIntent,
  type TransferRecord,
} from "../transfer/records.js";
import { runTransfer } from "../transfer/resumable-transfer.js";

/** Chain id → REST URL of the stand-in chains. */
type RestUrls = Record<string, string>;

/**
 * bridge:transfer as an operator runs it, on the in-process chain: a test token
 * and a stand-in bridge contract, the stand-in router on 127.0.0.1 answering
 * route, msgs, track and status; the approval, the transaction, one track, the
 * status followed to its end.
 */
export async function rehearseTransfer(
  connection: Connection,
  signer: OperatorSigner,
  destChain: string,
  restUrls: RestUrls,
  journalDir: string,
  out: Output,
): Promise<void> {
  const token = await new TestToken__factory(signer.signer).deploy(
    signer.hex,
    10n ** 24n,
  );
  const bridge = await new BridgeStandIn__factory(signer.signer).deploy();
  await Promise.all([token.waitForDeployment(), bridge.waitForDeployment()]);
  const [tokenAddress, bridgeAddress] = await Promise.all([
    token.getAddress(),
    bridge.getAddress(),
  ]);
  const chainId = (await connection.ethers.provider.getNetwork()).chainId;
  const route = opinitRoute({
    from: chainId.toString(),
    to: destChain,
    denomIn: tokenAddress,
    denomOut: "l2/rehearsal",
    bridgeId: "16",
    amountIn: AMOUNT,
    opHook: false,
  });
  route.msgs = {
    evm: {
      chainId: chainId.toString(),
      bridge: bridgeAddress,
      token: tokenAddress,
    },
  };
  out.line(
    field("contracts", `token ${tokenAddress}, bridge ${bridgeAddress}`),
  );
  const intent = {
    fromChain: chainId.toString(),
    fromDenom: tokenAddress,
    toChain: destChain,
    toDenom: "l2/rehearsal",
    amount: AMOUNT.toString(),
    recipient: signer.bech32,
    signer: signer.hex,
  };
  await transferThroughStandIn(
    { routes: [route] },
    intent,
    connection,
    signer,
    restUrls,
    journalDir,
    out,
  );
  out.line(
    field(
      "bridge holds",
      `${await token.balanceOf(bridgeAddress)} of the test token`,
    ),
  );
}

/**
 * Funding the deployer on the rollup from the base chain, as the README shows
 * it: the router answers a Cosmos deposit on the base chain and requires an op
 * hook, which the deployer signs for its rollup account; the base-chain
 * stand-in verifies the deposit's signature, the router stand-in the hook's.
 */
export async function rehearseFunding(
  connection: Connection,
  signer: OperatorSigner,
  chains: { base: CosmosChainState; rollup: CosmosChainState },
  restUrls: RestUrls,
  journalDir: string,
  out: Output,
): Promise<void> {
  const { base, rollup } = chains;
  base.accounts[signer.bech32] ??= { accountNumber: 12n, sequence: 0n };
  rollup.accounts[signer.bech32] ??= { accountNumber: 3n, sequence: 0n };
  const route = opinitRoute({
    from: base.chainId,
    to: rollup.chainId,
    denomIn: "uinit",
    denomOut: "l2/rehearsal",
    bridgeId: "16",
    amountIn: AMOUNT,
    opHook: true,
  });
  route.msgs = {
    cosmos: { chainId: base.chainId, message: "deposit", bridgeId: "16" },
  };
  const intent = {
    fromChain: base.chainId,
    fromDenom: "uinit",
    toChain: rollup.chainId,
    toDenom: "l2/rehearsal",
    amount: AMOUNT.toString(),
    recipient: signer.hex,
    signer: signer.hex,
  };
  await transferThroughStandIn(
    { routes: [route], chains: { [rollup.chainId]: rollup } },
    intent,
    connection,
    signer,
    restUrls,
    journalDir,
    out,
  );
  const deposits = Object.values(base.included).filter(
    (tx) => tx.signer === signer.bech32,
  );
  const account = defined(
    rollup.accounts[signer.bech32],
    "the signer's rollup account was opened above",
  );
  const modes = deposits.map((tx) => tx.mode).join(", ");
  out.line(
    field(
      "base chain took",
      `${deposits.length} deposit, signed ${modes}; ` +
        `the rollup account's sequence is still ${account.sequence}, as the hook needs`,
    ),
  );
}

const AMOUNT = 1_000_000n;

/**
 * One transfer through a stand-in router, journalled in `journalDir` (kept
 * with the rehearsal's other journals).
 */
async function transferThroughStandIn(
  routerState: Partial<RouterState>,
  intent: TransferIntent,
  connection: Connection,
  signer: OperatorSigner,
  restUrls: RestUrls,
  journalDir: string,
  out: Output,
): Promise<void> {
  const router = await startRouterStandIn(routerState);
  try {
    out.line(field("router", `stand-in at ${router.url}`));
    await runTransfer(
      intent,
      { slippagePercent: "1", pollMs: 50 },
      {
        router: new RouterClient(router.url),
        journal: await Journal.open<TransferRecord>(
          transferJournalPath(journalDir, intent),
        ),
        signer,
        provider: connection.ethers.provider,
        chainId: (await connection.ethers.provider.getNetwork()).chainId,
        restUrl: async (id) =>
          restUrls[id] ??
          Promise.reject(
            new VipError(ERRORS.REHEARSE.GENERAL.NO_STAND_IN_FOR_CHAIN, {
              chain: id,
            }),
          ),
        out,
        confirm: async (lines) => {
          for (const line of lines) out.line(line);
          return true;
        },
      },
    );
  } finally {
    await router.close();
  }
}
