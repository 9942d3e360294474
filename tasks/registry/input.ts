import { z } from "zod";

const https = z
  .string()
  .url()
  .refine((value) => value.startsWith("https://"), "must be an https:// URL");
const endpoints = z
  .array(
    z
      .object({ address: z.string().url(), provider: z.string().optional() })
      .strict(),
  )
  .min(1);

/**
 * What the operator gives `registry:entry` (`--input <file>`), the parts of the
 * entry no query can answer. The example is
 * scripts/examples/registry-input.json.
 */
export const registryInputSchema = z
  .object({
    chain_name: z
      .string()
      .regex(
        /^[a-z0-9]+$/,
        "must be lowercase letters and digits (it is the registry folder's name)",
      ),
    pretty_name: z.string().min(1),
    network_type: z.enum(["mainnet", "testnet", "devnet"]),
    website: https.optional(),
    description: z
      .string()
      .min(1)
      .max(
        140,
        "must be at most 140 characters (the registry's profile limit)",
      ),
    summary: z.string().max(50, "must be at most 50 characters").optional(),
    category: z.enum([
      "DeFi",
      "Social",
      "NFT",
      "Gaming",
      "Portfolio",
      "AI",
      "Consumer",
      "Others",
    ]),
    status: z.enum(["live", "upcoming", "hidden"]).default("upcoming"),
    logo: https.refine(
      (value) => value.endsWith(".png"),
      "must be a .png image",
    ),
    apis: z
      .object({
        rpc: endpoints,
        rest: endpoints,
        "json-rpc": endpoints,
        "json-rpc-websocket": endpoints,
        indexer: endpoints.optional(),
      })
      .strict(),
    fee_tokens: z
      .array(
        z
          .object({
            denom: z.string().min(1),
            fixed_min_gas_price: z.number().nonnegative().optional(),
            low_gas_price: z.number().nonnegative().optional(),
            average_gas_price: z.number().nonnegative().optional(),
            high_gas_price: z.number().nonnegative().optional(),
          })
          .strict(),
      )
      .min(1),
    /**
     * Base-chain denoms bridged through the rollup's OPinit bridge (e.g.
     * "uinit").
     */
    op_denoms: z.array(z.string().min(1)).min(1),
    assets: z
      .array(
        z
          .object({
            base: z.string().min(1),
            symbol: z.string().min(1),
            name: z.string().min(1).max(42, "must be at most 42 characters"),
            display: z.string().min(1),
            exponent: z.number().int().min(0).max(36),
            type_asset: z.enum(["sdk.coin", "erc20"]).optional(),
            address: z.string().optional(),
          })
          .strict(),
      )
      .min(1),
    vip: z
      .object({
        forum_url: https.optional(),
        actions: z
          .array(z.object({ title: z.string(), description: z.string() }))
          .default([]),
      })
      .default({}),
  })
  .strict();

export type RegistryInput = z.infer<typeof registryInputSchema>;
