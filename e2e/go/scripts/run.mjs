#!/usr/bin/env node
// The Go end-to-end suite, from nothing to a verdict:
//
//   1. protoc-gen-go, protoc-gen-go-grpc, protoc-gen-connect-go into <repo>/.tools/bin
//      (node ../../generator/scripts/go-test.mjs --install-tools);
//   2. buf generate over e2e/proto (and the annotations proto): protoc-gen-go,
//      protoc-gen-go-grpc and protoc-gen-connect-go into gen/
//      (google/longrunning's Go code is the real module cloud.google.com/go/longrunning/autogen/longrunningpb,
//      so imports are not generated), our plugin (target=go,mcp=true,
//      strategy all) into
//      gentools/ai_tools.gen.go and gentools/ai_tools_mcp.gen.go;
//      the generator's golden cases compact, validate and recursion the same way
//      (buf managed mode: go_package under gen/cases/<case>) into
//      gen/cases/ and gencases/<case>/ai_tools.gen.go;
//   3. node scripts/values.mjs: schema-generated arguments into gen/values/;
//   4. gofmt -l, go vet ./..., go test -race -count=1 ./... against the real
//      test server (e2e/server/dist/main.js, started by the tests' TestMain);
//      the MCP tests (gentools/mcp_test.go) build cmd/linkhub-mcp into bin/
//      and run it over stdio and HTTP (scripts/mcp-server.mjs starts it by
//      hand).
//
//   node scripts/run.mjs            everything (the `e2e` script)
//   node scripts/run.mjs --generate steps 1–2
//   node scripts/run.mjs --build    steps 1–2, go build and go vet
//   node scripts/run.mjs --fast     steps 1–2, gofmt, vet, and the tests
//                                   compiled (none run: they need the server;
//                                   the shared vectors run in runtimes/go, whose
//                                   code the generated file inlines)
//   node scripts/run.mjs --bench    steps 1–2 and the benchmarks
//   node scripts/run.mjs --large    steps 1–2, then Compute Engine's tools,
//                                   forms and tool-search data
//                                   (scripts/compute-fixture.mjs) into
//                                   gen/compute/deferred.json and
//                                   TestComputeDeferredRequests alone (no
//                                   server); the nightly run's (bash
//                                   scripts/nightly.sh large), the other
//                                   modes leave it out
//
// Exits non-zero on any failure.

import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createSuiteRunner } from "../../../scripts/lib/suite-runner.mjs";
import {
  caseOptions,
  listProtoFiles,
  makeWorkspace,
} from "../../../generator/scripts/lib/request.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const { run, must, step, finish, die, prepareGo, workspaceTools } =
  createSuiteRunner({
    label: "e2e-go",
    cwd: pkgDir,
  });
const repoRoot = path.resolve(pkgDir, "..", "..");
const toolsBin = path.join(repoRoot, ".tools", "bin");
const serverMain = path.join(repoRoot, "e2e", "server", "dist", "main.js");

const modes = ["--generate", "--build", "--fast", "--bench", "--large"];
const args = process.argv.slice(2);
for (const a of args)
  if (!modes.includes(a))
    die(`unknown argument ${a} (valid: ${modes.join(", ")})`);
if (args.length > 1) die(`give at most one of ${modes.join(", ")}`);
const mode = args[0] ?? "--e2e";

await prepareGo(repoRoot);

step("buf generate e2e/proto → e2e/go/gen, e2e/go/gentools");
{
  const { plugin, buf } = workspaceTools(repoRoot);
  // ai/tools/v1/annotations.proto declares a go_package outside this module.
  const goOpts = [
    "module=example.com/aitools/e2e",
    "Mai/tools/v1/annotations.proto=example.com/aitools/e2e/gen/ai/tools/v1;toolsv1",
  ];
  const template = {
    version: "v2",
    plugins: [
      {
        local: path.join(toolsBin, "protoc-gen-go"),
        out: "e2e/go",
        opt: goOpts,
      },
      {
        local: path.join(toolsBin, "protoc-gen-go-grpc"),
        out: "e2e/go",
        opt: goOpts,
      },
      // The connect-go clients (gen/linkhub/v1/linkhubv1connect), which
      // ForwardToConnect...Client takes (gentools/mcp_connect_test.go).
      {
        local: path.join(toolsBin, "protoc-gen-connect-go"),
        out: "e2e/go",
        opt: goOpts,
      },
      // One request for all files: the plugin writes one ai_tools.gen.go;
      // go_connect=true adds ForwardToConnect...Client to the MCP file;
      // tool_search=true ToolSearchData (docs/tool-search.md).
      {
        local: plugin,
        out: "e2e/go/gentools",
        opt: "target=go,mcp=true,go_connect=true,tool_search=true",
        strategy: "all",
      },
    ],
  };
  rmSync(path.join(pkgDir, "gen"), { recursive: true, force: true });
  rmSync(path.join(pkgDir, "gentools", "ai_tools.gen.go"), { force: true });
  rmSync(path.join(pkgDir, "gentools", "ai_tools_mcp.gen.go"), { force: true });
  // The workspace (buf.yaml) as input, limited to the e2e API and the
  // annotations (whose Go package is generated here): the other imports
  // are Go modules of their own (protobuf's well-known types,
  // cloud.google.com/go/longrunning).
  await must(
    buf,
    [
      "generate",
      ".",
      "--path",
      "e2e/proto/linkhub",
      "--path",
      "proto/ai/tools/v1/annotations.proto",
      "--template",
      JSON.stringify(template),
    ],
    { cwd: repoRoot },
  );
  for (const f of ["ai_tools.gen.go", "ai_tools_mcp.gen.go"]) {
    if (!existsSync(path.join(pkgDir, "gentools", f)))
      die(`the plugin wrote no gentools/${f}`);
  }
  console.log(
    "  gen/linkhub/v1/*.pb.go, gen/ai/tools/v1/annotations.pb.go, gentools/ai_tools.gen.go, gentools/ai_tools_mcp.gen.go",
  );
}

step("Edition 2023 samples: e2e/editions/proto → gen/edsamples, edtools");
await must(
  "node",
  [path.join(repoRoot, "e2e", "editions", "generate.mjs"), "go"],
  { cwd: repoRoot },
);
step(
  "buf generate the generator's cases compact, validate and recursion → e2e/go/gen/cases, e2e/go/gencases",
);
// Each case (with its options.txt) into a package of its own,
// gencases/<case> (package gentools, tested by the case_values_test.go
// beside it); buf's managed mode moves every go_package under
// gen/cases/<case>/, which both the Go code and our plugin's imports follow,
// except buf/validate/validate.proto's: its Go package is protovalidate's
// own module (buf.build/gen/go/bufbuild/protovalidate), which
// buf.build/go/protovalidate checks the requests with.
for (const name of ["compact", "validate", "recursion"]) {
  const ws = await makeWorkspace(name);
  try {
    const template = {
      version: "v2",
      managed: {
        enabled: true,
        override: [
          {
            file_option: "go_package_prefix",
            value: `example.com/aitools/e2e/gen/cases/${name}`,
          },
        ],
        disable: [
          { file_option: "go_package", path: "buf/validate/validate.proto" },
        ],
      },
      plugins: [
        ...["protoc-gen-go", "protoc-gen-go-grpc"].map((p) => ({
          local: path.join(toolsBin, p),
          out: pkgDir,
          opt: ["module=example.com/aitools/e2e"],
        })),
        {
          local: path.join(repoRoot, "node_modules/.bin/protoc-gen-ai-tools"),
          out: path.join(pkgDir, "gencases", name),
          // validate=true: the drop-in file checks buf.validate rules
          // (it imports protovalidate only with the option).
          opt: [
            "target=go",
            caseOptions(name),
            name === "validate" ? "validate=true" : "",
          ].filter((o) => o !== ""),
          strategy: "all",
        },
      ],
    };
    for (const f of ["ai_tools.gen.go", "ai_tools_mcp.gen.go"])
      rmSync(path.join(pkgDir, "gencases", name, f), { force: true });
    const args = ["generate", ws.root, "--config", ws.config];
    for (const f of listProtoFiles(ws.caseDir))
      args.push("--path", ws.casePath(f));
    // The imports that have no Go package elsewhere.
    args.push("--path", "proto/ai/tools/v1/annotations.proto");
    args.push("--template", JSON.stringify(template));
    await must(path.join(repoRoot, "node_modules", ".bin", "buf"), args, {
      cwd: ws.root,
    });
  } finally {
    await ws.dispose();
  }
  if (!existsSync(path.join(pkgDir, "gencases", name, "ai_tools.gen.go")))
    die(`the plugin wrote no gencases/${name}/ai_tools.gen.go`);
}
console.log("  gen/cases/*/…/*.pb.go, gencases/{compact,validate,recursion}");

if (mode === "--generate") finish(mode);

// Compute Engine (988 tools) runs in the nightly run only: its fixture is
// 15 MB, and .ci/run checks each runtime's limits on made-up tools.
const computeTest = "^TestComputeDeferredRequests$";
if (mode === "--large") {
  step(
    "Compute Engine's tools and tool-search data → gen/compute/deferred.json",
  );
  await must("node", [path.join(here, "compute-fixture.mjs")], {
    cwd: pkgDir,
  });
  step(`go test -race -count=1 -v -run ${computeTest} ./gentools`);
  const r = await run(
    "go",
    ["test", "-race", "-count=1", "-v", "-run", computeTest, "./gentools"],
    { cwd: pkgDir, env: { ...process.env, E2E_NO_SERVER: "1" }, quiet: true },
  );
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  if (r.code !== 0) die(`go test -run ${computeTest} failed (exit ${r.code})`);
  // -run matching nothing passes: a renamed test must not.
  if (!r.stdout.includes("--- PASS: TestComputeDeferredRequests"))
    die(`TestComputeDeferredRequests did not run (renamed?)`);
  finish(mode);
}

if (mode === "--e2e") {
  step("schema-generated values → e2e/go/gen/values");
  await must("node", [path.join(here, "values.mjs")], { cwd: pkgDir });
}

step("gofmt -l .");
{
  const r = await run("gofmt", ["-l", "."], { cwd: pkgDir, quiet: true });
  if (r.code !== 0) die(`gofmt failed:\n${r.stderr}`);
  if (r.stdout.trim() !== "")
    die(`not gofmt-clean (gofmt -d shows how):\n${r.stdout}`);
}

step("go vet ./...");
await must("go", ["vet", "./..."], { cwd: pkgDir });
if (mode === "--build") {
  step("go build ./...");
  await must("go", ["build", "./..."], { cwd: pkgDir });
  finish(mode);
}

const env = {
  ...process.env,
  E2E_REPO_ROOT: repoRoot,
  E2E_VALUES_DIR: path.join(pkgDir, "gen", "values"),
  E2E_SERVER_MAIN: process.env.E2E_SERVER_MAIN ?? serverMain,
};
if (mode === "--fast") {
  step("go test -count=1 -run ^$ ./...   (compile the tests, no server)");
  await must("go", ["test", "-count=1", "-run", "^$", "./..."], {
    cwd: pkgDir,
    env: { ...env, E2E_NO_SERVER: "1" },
  });
  finish(mode);
}

if (!existsSync(env.E2E_SERVER_MAIN)) {
  die(
    `${env.E2E_SERVER_MAIN} not found: build the test server first (npx -y pnpm@12.4.2 --filter @protoc-gen-ai-tools/e2e-server build)`,
  );
}
if (mode === "--bench") {
  // 3000 alternating calls, as the TypeScript benchmark makes.
  step("go test -run ^$ -bench . -benchtime 3000x -benchmem ./...");
  await must(
    "go",
    [
      "test",
      "-count=1",
      "-run",
      "^$",
      "-bench",
      ".",
      "-benchtime",
      "3000x",
      "-benchmem",
      "./...",
    ],
    { cwd: pkgDir, env },
  );
  finish(mode);
}
step(`go test -race -count=1 -v -skip ${computeTest} ./...`);
await must(
  "go",
  ["test", "-race", "-count=1", "-v", "-skip", computeTest, "./..."],
  { cwd: pkgDir, env },
);
finish(mode);

// ---------------------------------------------------------------------------

/** Run a command, output shown (unless quiet); resolve with { code, stdout, stderr }. */
