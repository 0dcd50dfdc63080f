// Shared by the gateway e2e tests: the plugin's bin as the e2e package
// installs it, and `protoc-gen-ai-tools mcp … --http` run as a child whose
// start-up line gives the URL it serves.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));

/** bin/protoc-gen-ai-tools of the workspace's plugin package. */
export const gatewayBin = path.join(
  pkgDir,
  "node_modules",
  "protoc-gen-ai-tools",
  "bin",
  "protoc-gen-ai-tools",
);

/** A gateway serving HTTP: the URL of its start-up line, its port. */
export interface HttpGateway {
  /** As logged, e.g. `http://0.0.0.0:40123/mcp`. */
  readonly url: string;
  readonly port: number;
  /** The start-up line. */
  readonly line: string;
}

const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const child of children.splice(0)) child.kill("SIGTERM");
});

/**
 * Start `protoc-gen-ai-tools mcp ARGS` (ARGS with --http) and resolve on
 * its `serving http://…` line; it is stopped (SIGTERM) after the file's
 * tests. Rejects with its stderr when it exits first.
 */
export function startHttpGateway(
  args: readonly string[],
): Promise<HttpGateway> {
  const child = spawn(process.execPath, [gatewayBin, "mcp", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /^.*serving (http:\/\/\S+:([0-9]+)\/mcp)\S*.*$/m.exec(err);
      if (m !== null) {
        resolve({ url: m[1]!, port: Number(m[2]), line: m[0] });
      }
    });
    child.once("exit", () => reject(new Error(`gateway exited: ${err}`)));
  });
}
