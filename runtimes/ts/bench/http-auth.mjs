// The cost of bearer-token verification per MCP HTTP request: two servers
// over loopback sockets, one without auth and one verifying an ES256 JWT
// against a test issuer's JWKS (fetched once, then cached), sent the same
// 2026-07-28 tools/list alternately (which goes first swaps each round) on
// keep-alive connections; p50 and p90 of each, and of the verifier alone.
// Run after `build` (imports dist/).
import { Agent, request } from "node:http";
import { createTestIssuer } from "@protoc-gen-ai-tools/testkit";
import { createMcpToolServer, serveHttp } from "../dist/mcp/index.js";
import { createJwtVerifier } from "../dist/mcp/jwt-verifier.js";

const publicUrl = "https://mcp.example.test/mcp";
const issuer = await createTestIssuer();
const auth = { issuer: issuer.issuer, jwksUrl: issuer.jwksUrl };
const open = await serveHttp(createMcpToolServer());
const guarded = await serveHttp(createMcpToolServer(), { publicUrl, auth });
const authorization = await issuer.authorization(
  {},
  { audience: publicUrl, expiresIn: 3600 },
);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const body = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/list",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});

/** One tools/list; resolves with its time in µs. */
function timed(url, headers) {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const { port } = new URL(url);
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/list",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode !== 200) {
            reject(new Error(`status ${res.statusCode}`));
          }
          resolve(Number(process.hrtime.bigint() - start) / 1000);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];

const runs = 2000;
const without = [];
const withAuth = [];
const one = () => timed(open.url, {});
const two = () => timed(guarded.url, { authorization });
for (let i = 0; i < 200; i++) {
  await one();
  await two();
}
for (let i = 0; i < runs; i++) {
  if (i % 2 === 0) {
    without.push(await one());
    withAuth.push(await two());
  } else {
    withAuth.push(await two());
    without.push(await one());
  }
}
if (issuer.jwksFetches() !== 1) {
  throw new Error(`the JWKS was fetched ${issuer.jwksFetches()} times`);
}

const verify = await createJwtVerifier(auth, publicUrl);
const token = authorization.slice("Bearer ".length);
const alone = [];
for (let i = 0; i < 200; i++) await verify(token);
for (let i = 0; i < runs; i++) {
  const start = process.hrtime.bigint();
  await verify(token);
  alone.push(Number(process.hrtime.bigint() - start) / 1000);
}

const f = (x) => x.toFixed(0);
console.log(
  `MCP HTTP tools/list, ${runs} each, alternating: without auth p50 ${f(percentile(without, 0.5))} µs (p90 ${f(percentile(without, 0.9))}); ` +
    `with a verified ES256 token p50 ${f(percentile(withAuth, 0.5))} µs (p90 ${f(percentile(withAuth, 0.9))}); ` +
    `difference of p50 ${f(percentile(withAuth, 0.5) - percentile(without, 0.5))} µs; ` +
    `the verifier alone p50 ${f(percentile(alone, 0.5))} µs (1 JWKS fetch)`,
);

agent.destroy();
await open.close();
await guarded.close();
await issuer.close();
