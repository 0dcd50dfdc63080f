// `pnpm bench`: one MCP tools/call over stdio through the gateway
// (`protoc-gen-ai-tools mcp --descriptor-set`, no generated file) and
// through the generated TypeScript MCP server (dist/mcp-server.js), both
// child processes calling the same test server process; calls alternate
// (the order swapped every round), medians and their ratio printed. The
// issue's aim: the gateway within 10% of the generated server.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, expect, it } from "vitest";
import { gatewayBin } from "./gateway-support.js";
import { callOk, connectStdio, newLinkArgs } from "./mcp-support.js";
import { newUUID, resetServer, useServer } from "./support.js";

const env = useServer({ process: true });
const warmup = 200;
const runs = 2000;
const dir = mkdtempSync(path.join(tmpdir(), "e2e-gateway-bench-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The gateway over stdio on the test API's descriptor set (buf build). */
async function connectGateway(): Promise<Client> {
  const set = path.join(dir, "linkhub.binpb");
  const buf = fileURLToPath(
    new URL("../node_modules/.bin/buf", import.meta.url),
  );
  execFileSync(buf, ["build", "e2e/proto", "-o", set], {
    cwd: fileURLToPath(new URL("../../..", import.meta.url)),
  });
  const client = new Client(
    { name: "e2e-ts-bench", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        gatewayBin,
        "mcp",
        "--descriptor-set",
        set,
        "--target",
        env.server.address,
      ],
    }),
  );
  return client;
}

it("links_get: MCP tools/call over stdio, gateway vs generated server, median of one call", async () => {
  await resetServer(env);
  const gateway = await connectGateway();
  const generated = await connectStdio(env, "2026-07-28");
  const ws = newUUID();
  // Each server's connection is its own conversation: link-1 in each.
  await callOk(gateway, "links_create", newLinkArgs(ws, "g"));
  await callOk(generated, "links_create", newLinkArgs(ws, "t"));
  const call = (client: Client) => () =>
    client.callTool({ name: "links_get", arguments: { id: "link-1" } });
  const subjects = [call(gateway), call(generated)];
  for (let i = 0; i < warmup; i++) {
    for (const fn of subjects) await fn();
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) {
      const t0 = process.hrtime.bigint();
      const r = await subjects[k]!();
      times[k]!.push(Number(process.hrtime.bigint() - t0));
      if (r.isError === true) throw new Error(JSON.stringify(r.content));
    }
  }
  await gateway.close();
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]!;
  const [viaGateway, viaGenerated] = [median(times[0]), median(times[1])];
  const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
  console.log(
    `\nbench (${runs} calls each after ${warmup} warm-up, alternating; children over stdio, 2026-07-28; test server process on 127.0.0.1):\n` +
      `  links_get via the gateway (descriptor set):  median ${us(viaGateway)}\n` +
      `  links_get via the generated TS MCP server:   median ${us(viaGenerated)}\n` +
      `  gateway / generated:                         ${(viaGateway / viaGenerated).toFixed(3)} (aim: at most 1.10)\n`,
  );
  expect(viaGateway).toBeGreaterThan(0);
});
