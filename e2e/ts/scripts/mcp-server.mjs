#!/usr/bin/env node
// The generated TypeScript MCP server of the test API in one command:
//
//   node e2e/ts/scripts/mcp-server.mjs --grpc 127.0.0.1:8080              # stdio
//   node e2e/ts/scripts/mcp-server.mjs --grpc 127.0.0.1:8080 --http 3000  # HTTP, 127.0.0.1:3000/mcp
//
// (--handle-argument adds the argument "conversation" to every tool.) It
// generates src/gen/ and compiles dist/ (the package's build) when
// dist/mcp-server.js is missing, then runs it with the arguments given.
// Stdout is the MCP stream over stdio (over HTTP, one "listening
// http://…/mcp" line): everything else goes to stderr.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const server = path.join(pkgDir, "dist", "mcp-server.js");

/** Run a build step with its output on stderr; exit on failure. */
function step(command, args) {
  const r = spawnSync(command, args, {
    cwd: pkgDir,
    stdio: ["ignore", 2, 2],
  });
  if (r.status !== 0) {
    console.error(`mcp-server: ${command} ${args.join(" ")} failed`);
    process.exit(1);
  }
}

if (!existsSync(server)) {
  const tsc = path.join(pkgDir, "node_modules", ".bin", "tsc");
  step(process.execPath, [path.join(pkgDir, "scripts", "generate.mjs")]);
  step(tsc, ["-p", "tsconfig.build.json"]);
}
await import(pathToFileURL(server).href);
