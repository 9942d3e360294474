/**
 * One JSON-RPC request to the benchmark's node; its result. A module of its
 * own, importing nothing: the plain client's process loads it alone, so its
 * heap holds little but what it parses.
 */
export async function rpc(
  url: string,
  method: string,
  params: unknown[],
): Promise<unknown> {
  const answer = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await answer.json()) as { result: unknown }).result;
}
