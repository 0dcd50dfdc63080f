// Generate the protobuf-es code of the shared vectors' proto
// (e2e/vectors/proto/aitest/v1/vectors.proto) into test/src/gen/, for the
// executor tests. The proto is in no module of the root buf.yaml, so this
// builds a throw-away buf workspace of symlinks: the vectors' proto and
// proto/ai (for ai/tools/v1/annotations.proto). Well-known types come with buf.
import { execFileSync } from "node:child_process";
import {
  mkdtempSync,
  mkdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = path.resolve(pkgDir, "../..");
// test/src/gen/ matches the repository's ignore rule for generated code (**/src/gen/).
const out = path.join(pkgDir, "test", "src", "gen");
const bin = path.join(pkgDir, "node_modules", ".bin");

const ws = mkdtempSync(path.join(tmpdir(), "ai-tools-runtime-gen-"));
try {
  symlinkSync(
    path.join(repoRoot, "e2e", "vectors", "proto"),
    path.join(ws, "vectors"),
  );
  mkdirSync(path.join(ws, "annotations"));
  symlinkSync(
    path.join(repoRoot, "proto", "ai"),
    path.join(ws, "annotations", "ai"),
  );
  writeFileSync(
    path.join(ws, "buf.yaml"),
    "version: v2\nmodules:\n  - path: vectors\n  - path: annotations\n",
  );
  writeFileSync(
    path.join(ws, "buf.gen.yaml"),
    [
      "version: v2",
      "clean: true",
      "plugins:",
      `  - local: ${JSON.stringify(path.join(bin, "protoc-gen-es"))}`,
      `    out: ${JSON.stringify(out)}`,
      "    include_imports: true",
      "    opt: [target=ts, import_extension=js]",
      "",
    ].join("\n"),
  );
  execFileSync(
    path.join(bin, "buf"),
    ["generate", "--path", "vectors/aitest"],
    {
      cwd: ws,
      stdio: "inherit",
    },
  );
} finally {
  rmSync(ws, { recursive: true, force: true });
}
console.log(`generated ${path.relative(pkgDir, out)}/`);
