// `pnpm bench`: one MCP tools/call over stdio against the real server.
// Median wall time of links_get called by the official SDK client through
// the generated MCP server (a child process over stdio: JSON-RPC, the
// executor, the gRPC call, the result written as JSON), next to the same
// GetLink made directly with a Connect client.
import { expect, it } from "vitest";
import { callOk, connectStdio, newLinkArgs } from "./mcp-support.js";
import { linkIds, newUUID, resetServer, useServer } from "./support.js";

const env = useServer({ process: true });
const warmup = 200;
const runs = 2000;

it("links_get: MCP tools/call over stdio vs direct call, median of one call", async () => {
  await resetServer(env);
  const ws = newUUID();
  const client = await connectStdio(env, "2026-07-28");
  await callOk(client, "links_create", newLinkArgs(ws, "b"));
  const [id] = await linkIds(env, ws);
  const call = () =>
    client.callTool({ name: "links_get", arguments: { id: "link-1" } });
  const direct = () => env.links.getLink({ id: id! });
  for (let i = 0; i < warmup; i++) {
    await call();
    await direct();
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [fn, out] of [
      [call, times[0]],
      [direct, times[1]],
    ] as const) {
      const t0 = process.hrtime.bigint();
      await fn();
      out.push(Number(process.hrtime.bigint() - t0));
    }
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]!;
  const [mcp, grpc] = [median(times[0]), median(times[1])];
  const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
  console.log(
    `\nbench (${runs} calls after ${warmup} warm-up; MCP server child over stdio, 2026-07-28; test server process on 127.0.0.1):\n` +
      `  links_get via MCP tools/call (TypeScript): median ${us(mcp)}\n` +
      `  GetLink via a Connect client:              median ${us(grpc)}\n`,
  );
  expect(mcp).toBeGreaterThan(0);
});
