#!/usr/bin/env node
// The generated Go MCP server of the test API in one command:
//
//   node e2e/go/scripts/mcp-server.mjs --grpc 127.0.0.1:8080              # stdio
//   node e2e/go/scripts/mcp-server.mjs --grpc 127.0.0.1:8080 --http 3000  # HTTP, 127.0.0.1:3000/mcp
//
// (--handle-argument adds the argument "conversation" to every tool.) It
// generates gentools/ (scripts/run.mjs --generate) when
// gentools/ai_tools_mcp.gen.go is missing, builds cmd/linkhub-mcp into
// bin/, then runs it with the arguments given. Stdout is the MCP stream
// over stdio (over HTTP, one "listening http://…/mcp" line): everything
// else goes to stderr.

import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const bin = path.join(pkgDir, "bin", "linkhub-mcp");

/** Run a step with its output on stderr; exit on failure. */
function step(command, args) {
  const r = spawnSync(command, args, {
    cwd: pkgDir,
    stdio: ["ignore", 2, 2],
  });
  if (r.status !== 0) {
    console.error(`mcp-server: ${command} ${args.join(" ")} failed`);
    process.exit(r.status ?? 1);
  }
}

if (!existsSync(path.join(pkgDir, "gentools", "ai_tools_mcp.gen.go"))) {
  step(process.execPath, [path.join(here, "run.mjs"), "--generate"]);
}
step("go", ["build", "-o", bin, "./cmd/linkhub-mcp"]);

const child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
