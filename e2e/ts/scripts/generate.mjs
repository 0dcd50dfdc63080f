#!/usr/bin/env node
// buf generate over e2e/proto into src/gen/ (git-ignored): protoc-gen-es
// (TypeScript, `.js` import extensions, imports included) and our plugin
// (target=ts, strategy all: one request, one src/gen/ai_tools.gen.ts that
// imports the protoc-gen-es files from the same directory). Then the same
// for the shared vectors' proto (e2e/vectors/proto, in no buf module) with
// protoc, into src/gen/vectors/.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  caseOptions,
  listProtoFiles,
} from "../../../generator/scripts/lib/request.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const repoRoot = path.resolve(pkgDir, "..", "..");
const bin = (name) => path.join(pkgDir, "node_modules", ".bin", name);
const out = path.join(pkgDir, "src", "gen");

for (const p of [
  bin("buf"),
  bin("protoc-gen-es"),
  bin("protoc-gen-ai-tools"),
]) {
  if (!existsSync(p)) {
    console.error(`e2e-ts: ${p} not found: run \`npx -y pnpm@12.4.2 install\``);
    process.exit(1);
  }
}
if (!existsSync(path.join(repoRoot, "generator", "dist", "index.js"))) {
  console.error(
    "e2e-ts: generator/dist not built: run `npx -y pnpm@12.4.2 --filter protoc-gen-ai-tools build`",
  );
  process.exit(1);
}
const template = {
  version: "v2",
  plugins: [
    {
      local: bin("protoc-gen-es"),
      out,
      opt: ["target=ts", "import_extension=js"],
      include_imports: true,
    },
    {
      local: bin("protoc-gen-ai-tools"),
      out,
      // mcp=true: also src/gen/ai_tools_mcp.gen.ts (test/mcp-*.test.ts).
      // tool_search=true: the toolSearch constant (docs/tool-search.md).
      opt: "target=ts,mcp=true,tool_search=true",
      strategy: "all",
    },
  ],
};
rmSync(out, { recursive: true, force: true });
execFileSync(
  bin("buf"),
  ["generate", "e2e/proto", "--template", JSON.stringify(template)],
  { cwd: repoRoot, stdio: "inherit" },
);
const vectorsOut = path.join(out, "vectors");
mkdirSync(vectorsOut, { recursive: true });
execFileSync(
  "protoc",
  [
    `--plugin=protoc-gen-es=${bin("protoc-gen-es")}`,
    `--es_out=${vectorsOut}`,
    "--es_opt=target=ts,import_extension=js",
    `--plugin=protoc-gen-ai-tools=${bin("protoc-gen-ai-tools")}`,
    `--ai-tools_out=${vectorsOut}`,
    "--ai-tools_opt=target=ts",
    "-I",
    path.join(repoRoot, "e2e", "vectors", "proto"),
    "-I",
    path.join(repoRoot, "proto"),
    "aitest/v1/vectors.proto",
    "ai/tools/v1/annotations.proto",
  ],
  { cwd: repoRoot, stdio: "inherit" },
);
// The generator's mcp golden case (tools MCP executes without
// auto_execute, a stream, a Timestamp response), mcp=true, into
// src/gen/mcpdemo/ (test/mcp-in-process.test.ts).
const mcpdemoOut = path.join(out, "mcpdemo");
mkdirSync(mcpdemoOut, { recursive: true });
execFileSync(
  "protoc",
  [
    `--plugin=protoc-gen-es=${bin("protoc-gen-es")}`,
    `--es_out=${mcpdemoOut}`,
    "--es_opt=target=ts,import_extension=js",
    `--plugin=protoc-gen-ai-tools=${bin("protoc-gen-ai-tools")}`,
    `--ai-tools_out=${mcpdemoOut}`,
    "--ai-tools_opt=target=ts,mcp=true",
    "-I",
    path.join(repoRoot, "generator", "testdata", "protos", "mcp"),
    "-I",
    path.join(repoRoot, "proto"),
    "mcpdemo/v1/notes.proto",
    "ai/tools/v1/annotations.proto",
  ],
  { cwd: repoRoot, stdio: "inherit" },
);
// The generator's golden cases compact (schema=compact: $defs, recursion),
// validate (buf.validate keywords) and recursion (schema=compact with
// providers=openai: strict cycles), with each case's options.txt, into
// src/gen/cases/<case>/ (test/case-values.test.ts).
for (const name of ["compact", "validate", "recursion"]) {
  const caseOut = path.join(out, "cases", name);
  const caseDir = path.join(repoRoot, "generator", "testdata", "protos", name);
  mkdirSync(caseOut, { recursive: true });
  const opts = ["target=ts", caseOptions(name)].filter((o) => o !== "");
  execFileSync(
    "protoc",
    [
      `--plugin=protoc-gen-es=${bin("protoc-gen-es")}`,
      `--es_out=${caseOut}`,
      "--es_opt=target=ts,import_extension=js",
      `--plugin=protoc-gen-ai-tools=${bin("protoc-gen-ai-tools")}`,
      `--ai-tools_out=${caseOut}`,
      `--ai-tools_opt=${opts.join(",")}`,
      "-I",
      caseDir,
      "-I",
      path.join(repoRoot, "generator", "testdata", "include"),
      "-I",
      path.join(repoRoot, "proto"),
      ...listProtoFiles(caseDir),
      "ai/tools/v1/annotations.proto",
      ...(name === "validate" ? ["buf/validate/validate.proto"] : []),
    ],
    { cwd: repoRoot, stdio: "inherit" },
  );
}
for (const f of [
  "ai_tools.gen.ts",
  "ai_tools_mcp.gen.ts",
  "vectors/ai_tools.gen.ts",
  "mcpdemo/ai_tools_mcp.gen.ts",
  "cases/compact/ai_tools.gen.ts",
  "cases/validate/ai_tools.gen.ts",
  "cases/recursion/ai_tools.gen.ts",
]) {
  if (!existsSync(path.join(out, f))) {
    console.error(`e2e-ts: the plugin wrote no src/gen/${f}`);
    process.exit(1);
  }
}
console.log(
  "e2e-ts: src/gen/linkhub/v1/*_pb.ts, src/gen/ai_tools.gen.ts, src/gen/ai_tools_mcp.gen.ts, src/gen/vectors/, src/gen/mcpdemo/, src/gen/cases/",
);
// The Edition 2023 samples (e2e/editions/proto) into src/gen/editions/, with
// buf (test/editions.test.ts).
execFileSync(
  "node",
  [path.join(repoRoot, "e2e", "editions", "generate.mjs"), "ts"],
  { cwd: repoRoot, stdio: "inherit" },
);
