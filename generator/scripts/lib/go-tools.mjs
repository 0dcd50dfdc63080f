// The Go code generators the Go tests need, installed into a repo-local GOBIN
// (<repo>/.tools/bin, git-ignored). Used by scripts/go-test.mjs and, through
// `node generator/scripts/go-test.mjs --install-tools`, by scripts/install.sh.

import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./request.mjs";

export const toolsBin = path.join(repoRoot, ".tools", "bin");

export const goTools = [
  {
    name: "protoc-gen-go",
    pkg: "google.golang.org/protobuf/cmd/protoc-gen-go",
    version: "v1.36.12",
    // `protoc-gen-go --version` prints "protoc-gen-go v1.36.12".
    versionLine: "protoc-gen-go v1.36.12",
  },
  {
    name: "protoc-gen-go-grpc",
    pkg: "google.golang.org/grpc/cmd/protoc-gen-go-grpc",
    // v1.6.0 needs Go 1.24 (v1.6.2 needs 1.25), like the test module.
    version: "v1.6.0",
    // `protoc-gen-go-grpc --version` prints "protoc-gen-go-grpc 1.6.0".
    versionLine: "protoc-gen-go-grpc 1.6.0",
  },
  {
    // The connect-go clients of e2e/go (ForwardToConnect...Client, option
    // go_connect); v1.21.1 needs Go 1.26.
    name: "protoc-gen-connect-go",
    pkg: "connectrpc.com/connect/cmd/protoc-gen-connect-go",
    version: "v1.21.1",
    // `protoc-gen-connect-go --version` prints "1.21.1".
    versionLine: "1.21.1",
  },
  {
    // Checks .github/workflows (generator/test/ci-workflow.test.ts).
    name: "actionlint",
    pkg: "github.com/rhysd/actionlint/cmd/actionlint",
    version: "v1.7.12",
    // `actionlint --version` prints "v1.7.12", then how it was built.
    versionLine: "v1.7.12",
  },
];

/** Resolve with { code, stdout, stderr }; never rejects (code -1 when the command is missing). */
export function exec(cmd, args, options = {}) {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { maxBuffer: 1 << 28, ...options },
      (err, stdout, stderr) => {
        let code = 0;
        if (err) code = typeof err.code === "number" ? err.code : -1;
        resolve({
          code,
          stdout: String(stdout ?? ""),
          stderr:
            String(stderr ?? "") || (err && code === -1 ? err.message : ""),
        });
      },
    );
  });
}

/** True when `go` runs. */
export async function haveGo() {
  return (await exec("go", ["version"])).code === 0;
}

/**
 * Install every tool whose binary is missing or reports another version.
 * Returns the map name -> absolute binary path. Throws with go's output on
 * failure.
 */
export async function ensureGoTools({ quiet = false } = {}) {
  mkdirSync(toolsBin, { recursive: true });
  const paths = {};
  for (const t of goTools) {
    const bin = path.join(toolsBin, t.name);
    paths[t.name] = bin;
    if (existsSync(bin)) {
      const v = await exec(bin, ["--version"]);
      if (v.code === 0 && firstLine(v.stdout) === t.versionLine) continue;
    }
    if (!quiet)
      console.log(`installing ${t.pkg}@${t.version} into ${toolsBin}`);
    const r = await exec("go", ["install", `${t.pkg}@${t.version}`], {
      env: { ...process.env, GOBIN: toolsBin },
    });
    if (r.code !== 0) {
      throw new Error(
        `go install ${t.pkg}@${t.version} failed:\n${r.stderr || r.stdout}`,
      );
    }
    const v = await exec(bin, ["--version"]);
    if (firstLine(v.stdout) !== t.versionLine) {
      throw new Error(
        `${bin} --version printed ${JSON.stringify(v.stdout.trim())}, expected ${JSON.stringify(t.versionLine)}`,
      );
    }
  }
  return paths;
}

/** The first line of a tool's `--version` output, trimmed. */
function firstLine(text) {
  return text.trim().split("\n")[0].trim();
}
