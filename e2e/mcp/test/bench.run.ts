// `pnpm bench`: the median latency of one tools/call over stdio per
// language (links_get, TypeScript SDK client, 2025-11-25), next to the same
// GetLink made directly over gRPC (a Connect client, one HTTP/2 connection)
// against the shared test server. The calls interleave after a warm-up, so
// that every column sees the same machine state.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import {
  createFileRegistry,
  fromBinary,
  type DescService,
} from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, expect, inject, it } from "vitest";
import { connectTs } from "./clients.js";
import { languages, repoRoot, type LanguageName } from "./languages.js";
import { newLinkArgs } from "./steps.js";

const warmup = 50;
const runs = 200;
const names: LanguageName[] = ["go", "py", "ts"];
const clients: Client[] = [];
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
});

/** linkhub.v1.LinkService, from a `buf build` of e2e/proto. */
function linkService(): DescService {
  const image = execFileSync(
    path.join(repoRoot, "node_modules", ".bin", "buf"),
    ["build", "e2e/proto", "--as-file-descriptor-set", "-o", "-"],
    { cwd: repoRoot, maxBuffer: 1 << 28 },
  );
  const registry = createFileRegistry(
    fromBinary(FileDescriptorSetSchema, new Uint8Array(image)),
  );
  const service = registry.getService("linkhub.v1.LinkService");
  if (service === undefined) throw new Error("no linkhub.v1.LinkService");
  return service;
}

it("tools/call over stdio per language vs the direct gRPC call (median of one call)", async () => {
  const grpc = inject("grpc");
  const ws = randomUUID();
  const mcp = new Map<LanguageName, Client>();
  for (const name of names) {
    const client = await connectTs(languages[name].stdio(grpc), "2025-11-25");
    clients.push(client);
    mcp.set(name, client);
    const created = await client.callTool({
      name: "links_create",
      arguments: newLinkArgs(ws, 1),
    });
    expect(created.isError ?? false, name).toBe(false);
  }
  const links = createClient(
    linkService(),
    createGrpcTransport({ baseUrl: `http://${grpc}` }),
  ) as unknown as {
    listLinks(r: { workspaceId: string }): Promise<{ links: { id: string }[] }>;
    getLink(r: { id: string }): Promise<unknown>;
  };
  const id = (await links.listLinks({ workspaceId: ws })).links[0]!.id;

  const columns: [string, () => Promise<unknown>][] = [
    ["direct gRPC GetLink (Connect client)", () => links.getLink({ id })],
    ...names.map(
      (name) =>
        [
          `${name} MCP server: tools/call links_get`,
          async () => {
            const r = await mcp.get(name)!.callTool({
              name: "links_get",
              arguments: { id: "link-1" },
            });
            if (r.isError === true)
              throw new Error(`${name}: links_get failed`);
          },
        ] as [string, () => Promise<unknown>],
    ),
  ];
  for (let i = 0; i < warmup; i++) {
    for (const [, fn] of columns) await fn();
  }
  const times = columns.map((): number[] => []);
  for (let i = 0; i < runs; i++) {
    for (const [c, [, fn]] of columns.entries()) {
      const t0 = process.hrtime.bigint();
      await fn();
      times[c]!.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  const medians = times.map(median);
  const width = Math.max(...columns.map(([label]) => label.length));
  const lines = [
    `one call, median of ${runs} after ${warmup} warm-up calls (stdio, TypeScript SDK client, 2025-11-25):`,
    `${"".padEnd(width)}  median µs  vs direct`,
    ...columns.map(([label], c) => {
      const us = medians[c]!;
      const vs = c === 0 ? "" : `+${(us - medians[0]!).toFixed(0)} µs`;
      return `${label.padEnd(width)}  ${us.toFixed(0).padStart(9)}  ${vs}`;
    }),
  ];
  console.log(lines.join("\n"));
});
