// `protoc-gen-ai-tools mcp` (the MCP gateway) run as a process: its help,
// and each bad input refused with one line naming the input and the fix,
// exit code 2, nothing on stdout (the stdio transport), no stack trace.
// Its tools and calls: e2e/ts/test/gateway.test.ts.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..");
const bin = join(root, "generator", "bin", "protoc-gen-ai-tools");
const dir = mkdtempSync(join(tmpdir(), "gateway-cli-"));
const noServices = join(dir, "annotations.binpb");
const example = join(dir, "example.binpb");
const withoutImports = join(dir, "without-imports.binpb");

beforeAll(() => {
  const protoc = (out: string, file: string) =>
    execFileSync("protoc", [
      `-I${join(root, "proto")}`,
      `-I${join(root, "proto", "examples")}`,
      "--include_imports",
      "--include_source_info",
      `--descriptor_set_out=${out}`,
      file,
    ]);
  protoc(noServices, "ai/tools/v1/annotations.proto");
  protoc(example, "acme/links/v1/links.proto");
  execFileSync("protoc", [
    `-I${join(root, "proto")}`,
    `-I${join(root, "proto", "examples")}`,
    `--descriptor_set_out=${withoutImports}`,
    "acme/links/v1/links.proto",
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `protoc-gen-ai-tools mcp ARGS` with stdin closed, in `env`. */
function mcpIn(env: NodeJS.ProcessEnv, ...args: string[]) {
  return spawnSync(process.execPath, [bin, "mcp", ...args], {
    encoding: "utf8",
    input: "",
    env,
  });
}

/** Runs `protoc-gen-ai-tools mcp ARGS` with stdin closed. */
function mcp(...args: string[]) {
  return mcpIn(process.env, ...args);
}

/** Expects a usage error: exit 2, one message on stderr, nothing on stdout. */
function expectRefused(res: ReturnType<typeof mcp>, message: string) {
  expect(res.stdout).toBe("");
  expect(res.status).toBe(2);
  expect(res.stderr).toContain(`protoc-gen-ai-tools mcp: ${message}`);
  expect(res.stderr).not.toMatch(/^\s+at /m);
}

describe("protoc-gen-ai-tools mcp", () => {
  it("prints its help with --help, exit code 0", () => {
    const res = mcp("--help");
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^usage: protoc-gen-ai-tools mcp /);
    expect(res.stdout).toContain("--descriptor-set FILE");
    expect(res.stdout).toContain("never tools");
    for (const flag of [
      "--auth-issuer URL",
      "--allow-unauthenticated",
      "--redis URL",
      "--provider NAME",
      "--search-first",
      "--always-loaded NAME",
    ]) {
      expect(res.stdout).toContain(flag);
    }
  });

  it("refuses bad flags, naming the flag and the fix", () => {
    expectRefused(mcp(), "give --descriptor-set FILE");
    expectRefused(mcp("--nope"), "Unknown option '--nope'");
    expectRefused(
      mcp("--descriptor-set", example),
      "--descriptor-set needs --target HOST:PORT",
    );
    expectRefused(
      mcp("--descriptor-set", example, "--target", "localhost"),
      '--target "localhost": write HOST:PORT',
    );
    expectRefused(
      mcp("--grpc", "127.0.0.1:1", "--include", "a,b"),
      '--include "a,b": give one value per flag',
    );
    expectRefused(
      mcp("--grpc", "127.0.0.1:1", "--provider", "o"),
      '--provider "o": write openai, anthropic or gemini (the provider whose generated form each tool lists), or leave it out',
    );
  });

  it("refuses HTTP beyond loopback without tokens, and orphan HTTP flags", () => {
    const grpc = ["--grpc", "127.0.0.1:1"];
    expectRefused(
      mcp(...grpc, "--http", "0.0.0.0:8080"),
      '--http "0.0.0.0:8080": a non-loopback address needs --auth-issuer URL (with --public-url URL) so that every request carries a token, or --allow-unauthenticated',
    );
    expectRefused(
      mcp(...grpc, "--http", "0.0.0.0:0", "--auth-issuer", "https://id.test"),
      "--auth-issuer needs --public-url URL, the URL clients use",
    );
    expectRefused(
      mcp(...grpc, "--http", "127.0.0.1:0", "--auth-scope", "links.read"),
      "--auth-scope needs --auth-issuer URL",
    );
    expectRefused(
      mcp(...grpc, "--http", "127.0.0.1:0", "--public-url", "tools.test/mcp"),
      '--public-url "tools.test/mcp": not an http(s) URL',
    );
    expectRefused(
      mcp(...grpc, "--allow-unauthenticated"),
      "--allow-unauthenticated applies to --http only: add --http HOST:PORT",
    );
    expectRefused(
      mcp(...grpc, "--redis", "redis://127.0.0.1:1"),
      "--redis applies to --http only",
    );
    expectRefused(
      mcp(...grpc, "--http", "127.0.0.1:0", "--store-ttl", "1.5"),
      '--store-ttl "1.5": write a positive whole number of seconds',
    );
  });

  it("refuses http: keys, and tokens sent in clear, beyond loopback", () => {
    const http = ["--grpc", "127.0.0.1:1", "--http", "0.0.0.0:0"];
    const publicUrl = ["--public-url", "https://tools.test/mcp"];
    expectRefused(
      mcp(...http, ...publicUrl, "--auth-issuer", "http://id.test"),
      '--auth-issuer "http://id.test": the keys must come over https (http only on a loopback host)',
    );
    expectRefused(
      mcp(
        ...http,
        ...publicUrl,
        "--auth-issuer",
        "https://id.test",
        "--auth-jwks-url",
        "http://10.0.0.8/jwks.json",
      ),
      '--auth-jwks-url "http://10.0.0.8/jwks.json": the keys must come over https (http only on a loopback host)',
    );
    expectRefused(
      mcp(
        ...http,
        "--public-url",
        "http://tools.test/mcp",
        "--auth-issuer",
        "https://id.test",
      ),
      '--public-url "http://tools.test/mcp": bearer tokens would travel in clear; write an https URL (http only on a loopback host)',
    );
    // On loopback hosts http: passes these checks: the gateway goes on to
    // reflection, refused for the unreachable server.
    expectRefused(
      mcp(
        ...http,
        "--public-url",
        "http://[::1]:8000/mcp",
        "--auth-issuer",
        "http://localhost:9000",
        "--auth-jwks-url",
        "http://127.0.0.1:9000/jwks.json",
      ),
      'cannot reach the gRPC server "127.0.0.1:1"',
    );
  });

  /** The example set over HTTP on loopback, calls to a closed port. */
  const exampleOverHttp = [
    "--descriptor-set",
    example,
    "--target",
    "127.0.0.1:1",
    "--http",
    "127.0.0.1:0",
  ];

  it("never prints a Redis password; --redis-env NAME reads the URL", () => {
    const http = exampleOverHttp;
    const url = "redis://user:s3cret-pw@127.0.0.1:1";
    const flag = mcp(...http, "--redis", url);
    expectRefused(
      flag,
      '--redis "redis://user:***@127.0.0.1:1": cannot connect (',
    );
    const fromEnv = mcpIn(
      { ...process.env, GATEWAY_REDIS: url },
      ...http,
      "--redis-env",
      "GATEWAY_REDIS",
    );
    expectRefused(
      fromEnv,
      '--redis-env "GATEWAY_REDIS" ("redis://user:***@127.0.0.1:1"): cannot connect (',
    );
    const unparsable = mcp(...http, "--redis", "rediss://user:s3cret-pw@[bad");
    expectRefused(unparsable, '--redis "rediss://…": ');
    for (const res of [flag, fromEnv, unparsable]) {
      expect(res.stderr).not.toContain("s3cret");
    }
    expectRefused(
      mcpIn(
        { ...process.env, GATEWAY_REDIS: "" },
        ...http,
        "--redis-env",
        "GATEWAY_REDIS",
      ),
      '--redis-env "GATEWAY_REDIS": the environment variable is not set; set it to the Redis URL',
    );
    expectRefused(
      mcp(...http, "--redis", url, "--redis-env", "GATEWAY_REDIS"),
      "--redis and --redis-env both name the Redis: keep one",
    );
  });

  it("refuses a Redis it cannot reach", () => {
    expectRefused(
      mcp(...exampleOverHttp, "--redis", "redis://127.0.0.1:1"),
      '--redis "redis://127.0.0.1:1": cannot connect (',
    );
  });

  it("refuses a file that is missing or not a descriptor set", () => {
    expectRefused(
      mcp(
        "--descriptor-set",
        join(dir, "none.binpb"),
        "--target",
        "127.0.0.1:1",
      ),
      `cannot read the descriptor set ${JSON.stringify(join(dir, "none.binpb"))}: ENOENT`,
    );
    const notASet = join(root, "generator", "package.json");
    expectRefused(
      mcp("--descriptor-set", notASet, "--target", "127.0.0.1:1"),
      `the descriptor set ${JSON.stringify(notASet)} is not a FileDescriptorSet`,
    );
  });

  it("refuses a set without services, a file it lacks, and a bad plugin option", () => {
    expectRefused(
      mcp("--descriptor-set", noServices, "--target", "127.0.0.1:1"),
      `the descriptor set ${JSON.stringify(noServices)} declares no service of its own`,
    );
    expectRefused(
      mcp("--descriptor-set", withoutImports, "--target", "127.0.0.1:1"),
      `the descriptor set ${JSON.stringify(withoutImports)} lacks "ai/tools/v1/annotations.proto", imported by acme/links/v1/links.proto: write it with its imports`,
    );
    const target = ["--descriptor-set", example, "--target", "127.0.0.1:1"];
    expectRefused(
      mcp(...target, "--file", "nope.proto"),
      '--file "nope.proto": the descriptor set',
    );
    expectRefused(
      mcp(...target, "--tools", "most"),
      'invalid value "most" for option "tools"',
    );
    expectRefused(
      mcp(...target, "--include", "nothing.*"),
      'option "include=nothing.*" matches no method of the files to generate',
    );
    expectRefused(
      mcp(...target, "--exclude", "acme.*"),
      `no method of the descriptor set ${JSON.stringify(example)} becomes a tool: --tools, --include and --exclude leave none`,
    );
    expectRefused(
      mcp(...target, "--always-loaded", "links_list"),
      "--always-loaded applies to --search-first only (without it every tool is listed): add --search-first, or leave it out",
    );
    expectRefused(
      mcp(...target, "--search-first", "--always-loaded", "links_list,"),
      '--always-loaded "links_list,": give tool names, e.g. --always-loaded links_get',
    );
    expectRefused(
      mcp(...target, "--search-first", "--always-loaded", "links_gett"),
      '--always-loaded "links_gett": no tool has that name; give a name tools/list gives without --search-first',
    );
  });

  it("refuses a CA file it cannot read, for calls and for reflection", () => {
    expectRefused(
      mcp(
        "--descriptor-set",
        example,
        "--target",
        "127.0.0.1:1",
        "--grpc-tls-ca",
        join(dir, "none.pem"),
      ),
      `--grpc-tls-ca ${JSON.stringify(join(dir, "none.pem"))}: cannot read it (ENOENT)`,
    );
    expectRefused(
      mcp("--grpc", "127.0.0.1:1", "--grpc-tls-ca", join(dir, "none.pem")),
      `--grpc-tls-ca ${JSON.stringify(join(dir, "none.pem"))}: cannot read it (ENOENT)`,
    );
  });

  it("refuses a server it cannot reach for reflection", () => {
    expectRefused(
      mcp("--grpc", "127.0.0.1:1"),
      'cannot reach the gRPC server "127.0.0.1:1"',
    );
  });
});
