import { expect } from "chai";
import { type Interface, type JsonRpcProvider, Wallet } from "ethers";

import {
  type Block,
  DEPLOY_TIME,
  type Nft,
  type Tx,
  type Venue,
} from "./activity.js";
import {
  CookbookEvents__factory,
  CookbookNft__factory,
} from "../../types/ethers-contracts/index.js";
import { DEPLOYER, DEPLOYER_KEY } from "../helpers/keys.js";

/** Each venue's and each ERC-721's address, lowercase. */
export type Deployed = Record<Venue | Nft, string>;

const VENUES: Venue[] = [
  "perp",
  "city",
  "inertia",
  "echelon",
  "casino",
  "pets",
  "market",
];
const NFTS: Nft[] = ["land", "collection", "pass"];

/** Deploys one CookbookEvents per venue and one CookbookNft per ERC-721, from DEPLOY_TIME on. */
export async function deployVenues(
  provider: JsonRpcProvider,
): Promise<Deployed> {
  const wallet = new Wallet(DEPLOYER_KEY, provider);
  await provider.send("evm_setNextBlockTimestamp", [Number(DEPLOY_TIME)]);
  const deployed: Partial<Deployed> = {};
  for (const venue of VENUES) {
    const contract = await new CookbookEvents__factory(wallet).deploy();
    await contract.waitForDeployment();
    deployed[venue] = (await contract.getAddress()).toLowerCase();
  }
  for (const nft of NFTS) {
    const contract = await new CookbookNft__factory(wallet).deploy();
    await contract.waitForDeployment();
    deployed[nft] = (await contract.getAddress()).toLowerCase();
  }
  return deployed as Deployed;
}

const events = CookbookEvents__factory.createInterface();
const nfts = CookbookNft__factory.createInterface();

/** The contract a transaction goes to, and its calldata. */
function call(tx: Tx, at: Deployed): { to: string; data: string } {
  switch (tx.kind) {
    case "trade":
      return {
        to: at.perp,
        data: events.encodeFunctionData("tradeExecuted", [
          tx.trader,
          tx.marketId,
          tx.isLong,
          tx.sizeUsd,
          tx.leverageBps,
        ]),
      };
    case "points":
      return {
        to: at.city,
        data: events.encodeFunctionData("pointsEarned", [
          tx.player,
          tx.actionId,
          tx.points,
        ]),
      };
    case "lend": {
      const fn = (
        {
          Supply: "supply",
          Withdraw: "withdraw",
          Borrow: "borrow",
          Repay: "repay",
        } as const
      )[tx.event];
      return {
        to: at[tx.venue],
        data: (events as Interface).encodeFunctionData(fn, [
          tx.user,
          tx.marketId,
          tx.amount,
        ]),
      };
    }
    case "bet":
      return {
        to: at.casino,
        data: events.encodeFunctionData("betPlaced", [
          tx.player,
          tx.gameId,
          tx.amount,
        ]),
      };
    case "harvest":
      return {
        to: at.pets,
        data: events.encodeFunctionData("harvest", [
          tx.account,
          tx.kamiId,
          tx.amount,
        ]),
      };
    case "sale":
      return {
        to: at.market,
        data: events.encodeFunctionData("sale", [
          at.collection,
          tx.tokenId,
          tx.buyer,
          tx.seller,
          tx.price,
        ]),
      };
    case "nft":
      return {
        to: at[tx.nft],
        data: nfts.encodeFunctionData("move", [tx.to, tx.tokenId]),
      };
  }
}

/**
 * Mines each block at its time with its transactions, in order, from the
 * node's first account (automine off meanwhile); checks each block holds
 * them all and none failed. Returns each block's number.
 */
export async function playBlocks(
  provider: JsonRpcProvider,
  at: Deployed,
  blocks: Block[],
): Promise<number[]> {
  const numbers: number[] = [];
  await provider.send("evm_setAutomine", [false]);
  try {
    for (const block of blocks) {
      const hashes: string[] = [];
      for (const tx of block.txs)
        hashes.push(
          (await provider.send("eth_sendTransaction", [
            { from: DEPLOYER, ...call(tx, at), gas: "0x30d40" },
          ])) as string,
        );
      await provider.send("evm_mine", [Number(block.time)]);
      const mined = (await provider.send("eth_getBlockByNumber", [
        "latest",
        false,
      ])) as { number: string; timestamp: string; transactions: string[] };
      expect(mined.transactions).to.deep.equal(hashes);
      expect(BigInt(mined.timestamp)).to.equal(block.time);
      for (const hash of hashes) {
        const receipt = (await provider.send("eth_getTransactionReceipt", [
          hash,
        ])) as { status: string };
        expect(receipt.status, hash).to.equal("0x1");
      }
      numbers.push(Number(mined.number));
    }
  } finally {
    await provider.send("evm_setAutomine", [true]);
  }
  return numbers;
}
