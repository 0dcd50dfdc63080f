// The CodeGeneratorRequest buf hands a plugin for one directory of protos,
// captured by a stand-in plugin that keeps its stdin and answers nothing.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
);

/**
 * A capturer of requests: `capture(root, api, parameter)` runs
 * `buf generate root --path root/api` with the stand-in plugin and returns
 * the request's bytes, or throws an Error naming the fix. Its temporary
 * directory goes when the process exits.
 */
export function createRequestCapture() {
  const buf = join(repoRoot, "node_modules", ".bin", "buf");
  if (!existsSync(buf)) {
    throw new Error(`${buf} not found: run pnpm install`);
  }
  const work = mkdtempSync(join(tmpdir(), "ai-tools-buf-request-"));
  process.on("exit", () => rmSync(work, { recursive: true, force: true }));
  const plugin = join(work, "capture.cjs");
  writeFileSync(
    plugin,
    `#!${process.execPath}\nrequire("node:fs").writeFileSync(process.env.AI_TOOLS_CAPTURE, require("node:fs").readFileSync(0));\n`,
    { mode: 0o755 },
  );
  return (root, api, parameter = "") => {
    if (!existsSync(join(root, api))) {
      throw new Error(`${JSON.stringify(api)}: no such directory in ${root}`);
    }
    const out = join(work, "request.binpb");
    const template = join(work, "buf.gen.yaml");
    writeFileSync(
      template,
      `version: v2\nplugins:\n  - local: ${plugin}\n    out: ${join(work, "out")}\n    strategy: all\n${parameter === "" ? "" : `    opt: [${JSON.stringify(parameter)}]\n`}`,
    );
    const r = spawnSync(
      buf,
      ["generate", root, "--template", template, "--path", join(root, api)],
      {
        cwd: work,
        encoding: "utf8",
        env: { ...process.env, AI_TOOLS_CAPTURE: out },
      },
    );
    if (r.status !== 0) {
      throw new Error(
        `buf generate on ${api} failed (exit ${r.status}):\n${r.stderr}`,
      );
    }
    return readFileSync(out);
  };
}
