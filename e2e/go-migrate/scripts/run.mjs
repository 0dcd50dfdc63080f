#!/usr/bin/env node
// The protoc-gen-go-mcp migration test (docs/migrate-go-mcp.md), from nothing
// to a verdict:
//
//   1. protoc-gen-go, protoc-gen-go-grpc and protoc-gen-connect-go into
//      <repo>/.tools/bin (node ../../generator/scripts/go-test.mjs
//      --install-tools);
//   2. buf generate over proto/testdata (protoc-gen-go-mcp's three testdata
//      protos, proto/README.md) with generator/testdata/include for
//      google/api/field_behavior.proto and buf/validate/validate.proto
//      (buf managed mode: go_package under gen/, except validate.proto's,
//      which is protovalidate's own Go module): the Go, gRPC and connect-go
//      code into gen/, our plugin (target=go,mcp=true,tools=all,
//      unannotated_tools=run,go_connect=true,go_mcp_compat=true) into
//      testdatamcp/;
//   3. gofmt -l, go vet ./..., go test -race -count=1 ./... (readme/: the
//      usage of protoc-gen-go-mcp's README, import paths changed, served on
//      the official SDK and on mcp-go and listed by their real clients).
//
//   node scripts/run.mjs            everything (the `test` script)
//   node scripts/run.mjs --generate steps 1-2
//   node scripts/run.mjs --build    steps 1-2, gofmt, go vet
//
// Exits non-zero on any failure; without Go it fails, it never skips.

import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createSuiteRunner } from "../../../scripts/lib/suite-runner.mjs";
import {
  listProtoFiles,
  makeWorkspace,
} from "../../../generator/scripts/lib/request.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const repoRoot = path.resolve(pkgDir, "..", "..");
const toolsBin = path.join(repoRoot, ".tools", "bin");
const { run, must, step, finish, die, prepareGo, workspaceTools } =
  createSuiteRunner({
    label: "e2e-go-migrate",
    cwd: pkgDir,
  });

const modes = ["--generate", "--build", "--test"];
const args = process.argv.slice(2);
if (args.length > 1 || (args.length === 1 && !modes.includes(args[0])))
  die(`give at most one of ${modes.join(", ")}`);
const mode = args[0] ?? "--test";

await prepareGo(repoRoot);

step("buf generate proto/testdata → gen/, testdatamcp/");
{
  const { plugin, buf } = workspaceTools(repoRoot);
  const module = "example.com/aitools/gomigrate";
  const template = {
    version: "v2",
    managed: {
      enabled: true,
      override: [{ file_option: "go_package_prefix", value: `${module}/gen` }],
      disable: [
        { file_option: "go_package", path: "buf/validate/validate.proto" },
      ],
    },
    plugins: [
      ...["protoc-gen-go", "protoc-gen-go-grpc", "protoc-gen-connect-go"].map(
        (p) => ({
          local: path.join(toolsBin, p),
          out: pkgDir,
          opt: [`module=${module}`],
        }),
      ),
      {
        local: plugin,
        out: path.join(pkgDir, "testdatamcp"),
        opt: [
          "target=go",
          "mcp=true",
          "tools=all",
          // protoc-gen-go-mcp asks no approval: without this, the
          // unannotated methods that are not read-only would ask one.
          "unannotated_tools=run",
          "go_connect=true",
          "go_mcp_compat=true",
        ],
        strategy: "all",
      },
    ],
  };
  rmSync(path.join(pkgDir, "gen"), { recursive: true, force: true });
  for (const f of ["ai_tools.gen.go", "ai_tools_mcp.gen.go"])
    rmSync(path.join(pkgDir, "testdatamcp", f), { force: true });
  const ws = await makeWorkspace(path.join(pkgDir, "proto"));
  try {
    const bufArgs = ["generate", ws.root, "--config", ws.config];
    for (const f of listProtoFiles(ws.caseDir))
      bufArgs.push("--path", ws.casePath(f));
    // Imported, and with no Go package elsewhere in this module's deps.
    bufArgs.push("--path", "include/google/api/field_behavior.proto");
    bufArgs.push("--template", JSON.stringify(template));
    await must(buf, bufArgs, { cwd: ws.root });
  } finally {
    await ws.dispose();
  }
  for (const f of ["ai_tools.gen.go", "ai_tools_mcp.gen.go"])
    if (!existsSync(path.join(pkgDir, "testdatamcp", f)))
      die(`the plugin wrote no testdatamcp/${f}`);
  console.log("  gen/…/*.go, testdatamcp/ai_tools.gen.go, ai_tools_mcp.gen.go");
}
if (mode === "--generate") finish(mode);

step("gofmt -l .");
{
  const r = await run("gofmt", ["-l", "."], { quiet: true });
  if (r.code !== 0 || r.stdout.trim() !== "")
    die(`not gofmt-clean (gofmt -d shows how):\n${r.stdout}${r.stderr}`);
}
step("go vet ./...");
await must("go", ["vet", "./..."]);
if (mode === "--build") finish(mode);

step("go test -race -count=1 -v ./...");
await must("go", ["test", "-race", "-count=1", "-v", "./..."]);
finish(mode);
