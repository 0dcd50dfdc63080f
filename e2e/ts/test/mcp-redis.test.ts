// MCP across instances (issue 12, point 5): two instances of the generated
// TypeScript MCP server (HTTP, 2026-07-28, handles) keep their
// conversations on one real redis-server; a round-robin proxy started here
// sends each request to the next instance, and one conversation handle
// works whichever instance takes the call. Without Redis (each instance in
// its own memory), the same handle is unknown to the other instance.
import http from "node:http";
import { startRedis, type RedisServer } from "@protoc-gen-ai-tools/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  callOk,
  callTool,
  connectHttp,
  handleKey,
  linkIdOf,
  newLinkArgs,
  startHttp,
  type HttpServer,
} from "./mcp-support.js";
import { linkIds, newUUID, useServer } from "./support.js";

const env = useServer();
let redis: RedisServer;
const proxies: http.Server[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const p of proxies) p.close();
  await redis?.stop();
});

/** A proxy that sends each request to the next backend in turn. */
async function roundRobin(
  backends: HttpServer[],
): Promise<HttpServer & { calls: number[] }> {
  const calls = backends.map(() => 0);
  let next = 0;
  const proxy = http.createServer((req, res) => {
    const i = next++ % backends.length;
    const target = backends[i]!.url;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (body.includes('"tools/call"')) calls[i]!++;
      const out = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on("error", () => {
        res.writeHead(502).end();
      });
      out.end(body);
    });
  });
  proxies.push(proxy);
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  const { port } = proxy.address() as { port: number };
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), calls };
}

it("two instances on one Redis serve one handle, call after call", async () => {
  const flags = ["--handle-argument", "--redis", redis.url];
  const proxy = await roundRobin([
    await startHttp(env, flags),
    await startHttp(env, flags),
  ]);
  const client = await connectHttp(proxy, "2026-07-28");
  const ws = newUUID();
  const first = await callOk(client, "links_create", newLinkArgs(ws, "t1"));
  const handle = first._meta?.[handleKey] as string;
  expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(linkIdOf(first)).toBe("link-1");
  const meta = { [handleKey]: handle };
  for (let i = 2; i <= 6; i++) {
    // Even calls carry the handle in _meta, odd ones as the argument (as
    // a model would).
    const r =
      i % 2 === 0
        ? await callOk(client, "links_create", newLinkArgs(ws, `t${i}`), meta)
        : await callOk(client, "links_create", {
            ...newLinkArgs(ws, `t${i}`),
            conversation: handle,
          });
    expect(linkIdOf(r)).toBe(`link-${i}`);
    expect(r._meta?.[handleKey]).toBe(handle);
  }
  // Each alias reaches its own link, whichever instance resolves it.
  const ids = await linkIds(env, ws);
  for (let i = 1; i <= 6; i++) {
    const r = await callOk(client, "links_get", { id: `link-${i}` }, meta);
    expect(linkIdOf(r)).toBe(`link-${i}`);
    expect(
      (r.structuredContent as { link: { title: string } }).link.title,
    ).toBe(`t${i}`);
  }
  expect(ids).toHaveLength(6);
  const unknown = await callTool(client, "links_get", { id: "link-7" }, meta);
  expect(unknown.isError).toBe(true);
  expect(unknown.content[0]!.text).toBe(
    'invalid arguments, nothing was sent:\n- "id": unknown alias "link-7"; valid link aliases: link-1, link-2, link-3, link-4, link-5, link-6',
  );
  // Both instances took tool calls.
  expect(proxy.calls.every((n) => n >= 5)).toBe(true);
});

it("without Redis, the other instance does not know the handle", async () => {
  const proxy = await roundRobin([
    await startHttp(env, ["--handle-argument"]),
    await startHttp(env, ["--handle-argument"]),
  ]);
  const client = await connectHttp(proxy, "2026-07-28");
  const results = [];
  const ws = newUUID();
  const first = await callOk(client, "links_create", newLinkArgs(ws, "a"));
  const meta = { [handleKey]: first._meta?.[handleKey] };
  for (let i = 0; i < 3; i++) {
    results.push(await callTool(client, "links_get", { id: "link-1" }, meta));
  }
  expect(
    results.some(
      (r) =>
        r.isError === true &&
        r.content[0]!.text!.startsWith("unknown or expired conversation"),
    ),
  ).toBe(true);
});
