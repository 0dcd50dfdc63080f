#!/usr/bin/env node
// The Go runtime's checks (runtimes/go):
//
//   node scripts/run.mjs --generate  the test protos (e2e/vectors/proto and the
//                                    annotations) into internal/testpb
//                                    (test-only, gitignored), with the Go
//                                    code generators of <repo>/.tools/bin
//   node scripts/run.mjs --build     --generate, then gofmt -l . and go vet
//                                    (here and in the modules redisstore/
//                                    and mark3labs/)
//   node scripts/run.mjs --test      --build, then go test -race ./... (the
//                                    redisstore tests start redis-server)
//   node scripts/run.mjs --bench     --generate, then the benchmarks (the
//                                    telemetry's: BenchmarkTelemetryCall,
//                                    otelaitools BenchmarkToolCallHook)
//   node scripts/run.mjs --fuzz      --generate, then each FuzzXxx with
//                                    go test -fuzz for its share of
//                                    $FUZZ_SECONDS (default 30)
//
// Without Go it fails, it never skips.

import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createSuiteRunner } from "../../../scripts/lib/suite-runner.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const repoRoot = path.resolve(pkgDir, "..", "..");
const { run, must, step, finish, die, prepareGo } = createSuiteRunner({
  label: "runtime-go",
  cwd: pkgDir,
});

const modes = ["--generate", "--build", "--test", "--bench", "--fuzz"];
const args = process.argv.slice(2);
if (args.length !== 1 || !modes.includes(args[0]))
  die(`give one of ${modes.join(", ")}`);
const mode = args[0];

await prepareGo(repoRoot);

step("protoc → internal/testpb");
{
  const module =
    "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go";
  const out = path.join(pkgDir, "internal", "testpb");
  const bin = path.join(repoRoot, ".tools", "bin");
  const m = [
    `Maitest/v1/vectors.proto=${module}/internal/testpb/aitest/v1;aitestv1`,
    `Mai/tools/v1/annotations.proto=${module}/internal/testpb/ai/tools/v1;toolsv1`,
  ];
  rmSync(out, { recursive: true, force: true });
  await must(
    "protoc",
    [
      `--plugin=protoc-gen-go=${path.join(bin, "protoc-gen-go")}`,
      `--plugin=protoc-gen-go-grpc=${path.join(bin, "protoc-gen-go-grpc")}`,
      `-I${path.join(repoRoot, "proto")}`,
      `-I${path.join(repoRoot, "e2e", "vectors", "proto")}`,
      `--go_out=${pkgDir}`,
      `--go-grpc_out=${pkgDir}`,
      `--go_opt=module=${module}`,
      `--go-grpc_opt=module=${module}`,
      ...m.flatMap((o) => [`--go_opt=${o}`, `--go-grpc_opt=${o}`]),
      "ai/tools/v1/annotations.proto",
      "aitest/v1/vectors.proto",
    ],
    { cwd: pkgDir },
  );
  if (!existsSync(path.join(out, "aitest", "v1", "vectors.pb.go")))
    die("protoc wrote no internal/testpb/aitest/v1/vectors.pb.go");
}
if (mode === "--generate") finish(mode);

if (mode === "--bench") {
  step("go test -run ^$ -bench . -benchmem . ./mcphttp ./otelaitools");
  await must("go", [
    "test",
    "-count=1",
    "-run",
    "^$",
    "-bench",
    ".",
    "-benchmem",
    ".",
    "./mcphttp",
    "./otelaitools",
  ]);
  finish(mode);
}

if (mode === "--fuzz") {
  const seconds = Number(process.env.FUZZ_SECONDS || "30");
  const list = await must("go", ["test", "-list", "^Fuzz", "."], {
    quiet: true,
  });
  const targets = list.stdout.split("\n").filter((l) => l.startsWith("Fuzz"));
  if (targets.length === 0) die("no Fuzz targets found");
  const share = Math.max(1, Math.floor(seconds / targets.length));
  for (const t of targets) {
    step(`go test -fuzz ^${t}$ -fuzztime ${share}s`);
    await must("go", [
      "test",
      "-run",
      "^$",
      "-fuzz",
      `^${t}$`,
      "-fuzztime",
      `${share}s`,
      ".",
    ]);
  }
  finish(mode);
}

step("gofmt -l .");
{
  const r = await run("gofmt", ["-l", "."], { quiet: true });
  if (r.code !== 0 || r.stdout.trim() !== "")
    die(`not gofmt-clean (gofmt -d shows how):\n${r.stdout}${r.stderr}`);
}
step("go vet ./...");
await must("go", ["vet", "./..."]);
const redisstore = path.join(pkgDir, "redisstore");
step("redisstore: go vet ./...");
await must("go", ["vet", "./..."], { cwd: redisstore });
const mark3labs = path.join(pkgDir, "mark3labs");
step("mark3labs: go vet ./...");
await must("go", ["vet", "./..."], { cwd: mark3labs });
if (mode === "--build") finish(mode);

step("go test -race -count=1 ./...");
await must("go", ["test", "-race", "-count=1", "./..."]);
step("redisstore: go test -race -count=1 ./...   (a real redis-server)");
await must("go", ["test", "-race", "-count=1", "./..."], { cwd: redisstore });
step("mark3labs: go test -race -count=1 ./...   (mcp-go's in-process client)");
await must("go", ["test", "-race", "-count=1", "./..."], { cwd: mark3labs });
finish(mode);
