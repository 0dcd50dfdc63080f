#!/usr/bin/env node
// Compile and test the golden Go files.
//
//   node scripts/go-test.mjs [--install-tools]
//
// 1. Install protoc-gen-go and protoc-gen-go-grpc into <repo>/.tools/bin
//    (idempotent; pinned in scripts/lib/go-tools.mjs).
// 2. `buf generate` every case of testdata/protos (and its imports) into
//    test-go/pb/... (module example.com/aitools/testgo); files without a
//    go_package get one through an M option. The mcp case's gRPC code is
//    written without generic streams (use_generic_streams_experimental=false).
// 3. In test-go: `gofmt -l golden` must print nothing, then `go vet ./...`
//    and `go test -count=1 ./...` (with -race when AI_TOOLS_NIGHTLY=1).
//
// Without a Go toolchain it fails. --install-tools only does step 1.

import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { ensureGoTools, exec, haveGo, toolsBin } from "./lib/go-tools.mjs";
import {
  buildCase,
  bufBin,
  goldenDir,
  goModulePath,
  listCases,
  makeWorkspace,
  protosDir,
  run,
  testGoDir,
} from "./lib/request.mjs";

const args = new Set(process.argv.slice(2));
for (const a of args) {
  if (a !== "--install-tools") die(`unknown argument ${a}`);
}
// The Go target's tests compile and run the generated code: without Go
// they fail, they are never skipped.
if (!(await haveGo())) {
  die("Go toolchain not found (go is not on PATH); install Go 1.24 or later");
}

step("install Go code generators");
let tools;
try {
  tools = await ensureGoTools();
} catch (e) {
  die(e.message);
}
if (args.has("--install-tools")) {
  console.log(`go-test: tools ready in ${toolsBin}`);
  process.exit(0);
}

const cases = listCases(protosDir);
if (cases.length === 0) die(`no cases under ${protosDir}`);
const goldenCount = cases.filter((c) =>
  existsSync(path.join(goldenDir, c, "ai_tools.gen.go")),
).length;
if (goldenCount === 0) {
  die(
    `no golden files in ${goldenDir}: run \`pnpm --filter protoc-gen-ai-tools run golden\` first`,
  );
}

step("buf generate test-go/pb");
const pbDir = path.join(testGoDir, "pb");
rmSync(pbDir, { recursive: true, force: true });
for (const c of cases) {
  try {
    await generateCase(c);
  } catch (e) {
    die(`case ${c}: buf generate failed:\n${e.message}`);
  }
}

step("gofmt -l golden");
{
  const r = await exec("gofmt", ["-l", "golden"], { cwd: testGoDir });
  if (r.code !== 0) die(`gofmt failed:\n${r.stderr}`);
  if (r.stdout.trim() !== "") {
    die(`golden files are not gofmt-clean (gofmt -d shows how):\n${r.stdout}`);
  }
}

step("go vet ./...");
await goOrDie(["vet", "./..."]);

// -race in the nightly run (scripts/nightly.sh large sets AI_TOOLS_NIGHTLY):
// the golden files inline runtimes/go, whose own tests run under -race in
// every run; here it tripled the CPU time (16.6 against 5.0 s, cached builds).
const race = process.env.AI_TOOLS_NIGHTLY === "1" ? ["-race"] : [];
step(["go test", ...race, "-count=1 ./..."].join(" "));
await goOrDie(["test", ...race, "-count=1", "./..."], true);

console.log("\ngo-test: ok");

// ---------------------------------------------------------------------------

async function generateCase(c) {
  // One build to learn which files lack a go_package (they get an M option).
  const { files, protoFile } = await buildCase(c);
  const opts = [`module=${goModulePath}`];
  for (const f of protoFile) {
    if (f.name.startsWith("google/protobuf/")) continue;
    const own = f.options?.goPackage ?? "";
    if (f.name === "ai/tools/v1/annotations.proto") {
      // Its real go_package is outside the test module.
      opts.push(`M${f.name}=${goModulePath}/pb/ai/tools/v1;toolsv1`);
    } else if (f.name === "buf/validate/validate.proto") {
      // The test copy keeps protovalidate's own go_package.
      opts.push(`M${f.name}=${goModulePath}/pb/buf/validate;validate`);
    } else if (own === "") {
      const dir = path.posix.dirname(f.name);
      const parts = dir.split("/").filter((p) => p !== "." && p !== "");
      const name = (parts.join("") || "root")
        .replace(/[^a-zA-Z0-9_]/g, "_")
        .toLowerCase();
      opts.push(
        `M${f.name}=${goModulePath}/pb/${parts.join("/") || "root"};${name}`,
      );
    } else if (!own.split(";")[0].startsWith(`${goModulePath}/`)) {
      throw new Error(
        `${f.name}: go_package ${own} is outside ${goModulePath}`,
      );
    }
  }
  // The mcp case's gRPC code has a stream interface per method, as
  // protoc-gen-go-grpc wrote it before 1.5 (and many published modules
  // still ship): the MCP file must build against both forms.
  const grpcOpts =
    c === "mcp" ? [...opts, "use_generic_streams_experimental=false"] : opts;
  const template = JSON.stringify({
    version: "v2",
    plugins: [
      { local: tools["protoc-gen-go"], out: testGoDir, opt: opts },
      { local: tools["protoc-gen-go-grpc"], out: testGoDir, opt: grpcOpts },
    ],
  });
  const ws = await makeWorkspace(c);
  try {
    const a = [
      "generate",
      ws.root,
      "--config",
      ws.config,
      "--template",
      template,
      "--include-imports",
    ];
    for (const f of files) a.push("--path", ws.casePath(f));
    try {
      await run(bufBin(), a, { cwd: ws.root });
    } catch (e) {
      e.message = ws.unmap(e.message);
      throw e;
    }
  } finally {
    await ws.dispose();
  }
  console.log(`  ${c}: ${files.length} file(s)`);
}

async function goOrDie(goArgs, stream = false) {
  const r = await exec("go", goArgs, { cwd: testGoDir });
  if (stream || r.code !== 0) process.stdout.write(r.stdout);
  if (r.code !== 0) {
    process.stderr.write(r.stderr);
    die(`go ${goArgs.join(" ")} failed (exit ${r.code}) in ${testGoDir}`);
  }
  if (r.stderr.trim() !== "") process.stderr.write(r.stderr);
}

function step(name) {
  console.log(`\n== ${name}`);
}

function die(msg) {
  console.error(`\ngo-test: FAILED: ${msg}`);
  process.exit(1);
}
