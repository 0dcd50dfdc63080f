#!/usr/bin/env node
// Generate the Edition 2023 samples (e2e/editions/proto) for one suite,
// with buf (Debian's protoc 3.21 predates Editions) or, for the Python
// message code, grpcio-tools' own protoc:
//
//   node e2e/editions/generate.mjs go   e2e/go/gen/edsamples/v1 (protoc-gen-go,
//                                       protoc-gen-go-grpc) and
//                                       e2e/go/edtools/ai_tools.gen.go
//   node e2e/editions/generate.mjs ts   e2e/ts/src/gen/editions/ (protoc-gen-es
//                                       and ai_tools.gen.ts)
//   node e2e/editions/generate.mjs py   e2e/py/gen/edsamples/v1 (python, mypy,
//                                       grpc) and e2e/py/gen/edtools/ai_tools_gen.py
//
// Each suite's generation step runs it after its own, so the files it needs
// (the annotations' code, the Go tools) are there. One request per suite.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
);
const protoDir = path.join(repoRoot, "e2e", "editions", "proto");
const files = ["edsamples/v1/samples.proto", "edsamples/v1/shapes.proto"];
const bin = (name) => path.join(repoRoot, "node_modules", ".bin", name);
const plugin = bin("protoc-gen-ai-tools");

const target = process.argv[2];
if (!["go", "ts", "py"].includes(target) || process.argv.length !== 3) {
  die(
    `give one target: go, ts or py (got ${process.argv.slice(2).join(" ") || "none"})`,
  );
}
for (const p of [bin("buf"), plugin]) {
  if (!existsSync(p)) die(`${p} not found: run \`npx -y pnpm@12.4.2 install\``);
}

if (target === "go") {
  const tools = path.join(repoRoot, ".tools", "bin");
  const goOpts = [
    "module=example.com/aitools/e2e",
    "Mai/tools/v1/annotations.proto=example.com/aitools/e2e/gen/ai/tools/v1;toolsv1",
  ];
  const out = path.join(repoRoot, "e2e", "go");
  rmSync(path.join(out, "gen", "edsamples"), { recursive: true, force: true });
  rmSync(path.join(out, "edtools", "ai_tools.gen.go"), { force: true });
  bufGenerate([
    { local: path.join(tools, "protoc-gen-go"), out, opt: goOpts },
    { local: path.join(tools, "protoc-gen-go-grpc"), out, opt: goOpts },
    {
      local: plugin,
      out: path.join(out, "edtools"),
      opt: "target=go",
      strategy: "all",
    },
  ]);
  expectFiles(out, [
    "edtools/ai_tools.gen.go",
    "gen/edsamples/v1/samples.pb.go",
  ]);
} else if (target === "ts") {
  // protoc-gen-es output imports the annotations' code by relative path:
  // it is generated here too (include_imports).
  const out = path.join(repoRoot, "e2e", "ts", "src", "gen", "editions");
  rmSync(out, { recursive: true, force: true });
  bufGenerate([
    {
      local: path.join(
        repoRoot,
        "e2e",
        "ts",
        "node_modules",
        ".bin",
        "protoc-gen-es",
      ),
      out,
      opt: ["target=ts", "import_extension=js"],
      include_imports: true,
    },
    { local: plugin, out, opt: "target=ts", strategy: "all" },
  ]);
  expectFiles(out, ["ai_tools.gen.ts", "edsamples/v1/shapes_pb.ts"]);
} else {
  // The grpcio-tools message code imports the annotations' module, which
  // the suite's own step wrote into e2e/py/gen.
  const out = path.join(repoRoot, "e2e", "py", "gen");
  const python = path.join(repoRoot, ".venv", "bin", "python");
  const venvBin = path.dirname(python);
  if (!existsSync(python))
    die(`${python} not found: run bash scripts/python-env.sh`);
  rmSync(path.join(out, "edsamples"), { recursive: true, force: true });
  rmSync(path.join(out, "edtools"), { recursive: true, force: true });
  mkdirSync(path.join(out, "edtools"), { recursive: true });
  run(python, [
    "-m",
    "grpc_tools.protoc",
    `-I${protoDir}`,
    `-I${path.join(repoRoot, "proto")}`,
    `--plugin=protoc-gen-mypy=${path.join(venvBin, "protoc-gen-mypy")}`,
    `--plugin=protoc-gen-mypy_grpc=${path.join(venvBin, "protoc-gen-mypy_grpc")}`,
    `--python_out=${out}`,
    `--mypy_out=${out}`,
    `--grpc_python_out=${out}`,
    `--mypy_grpc_out=${out}`,
    `--plugin=protoc-gen-ai-tools=${plugin}`,
    `--ai-tools_out=${path.join(out, "edtools")}`,
    "--ai-tools_opt=target=py",
    ...files,
  ]);
  expectFiles(out, ["edtools/ai_tools_gen.py", "edsamples/v1/shapes_pb2.py"]);
}
console.log(`e2e-editions: ${target}: generated`);

/**
 * buf generate of e2e/editions/proto, in a throw-away workspace whose
 * modules are <repo>/proto (the annotations) and e2e/editions/proto.
 */
function bufGenerate(plugins) {
  const ws = mkdtempSync(path.join(tmpdir(), "ai-tools-editions-"));
  try {
    symlinkSync(path.join(repoRoot, "proto"), path.join(ws, "proto"), "dir");
    symlinkSync(protoDir, path.join(ws, "editions"), "dir");
    const config = {
      version: "v2",
      modules: [{ path: "proto" }, { path: "editions" }],
    };
    const args = [
      "generate",
      ws,
      "--config",
      JSON.stringify(config),
      "--template",
      JSON.stringify({ version: "v2", plugins }),
    ];
    for (const f of files) args.push("--path", `editions/${f}`);
    run(bin("buf"), args, ws);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

function run(cmd, args, cwd = repoRoot) {
  try {
    execFileSync(cmd, args, {
      cwd,
      stdio: ["ignore", "inherit", "pipe"],
    });
  } catch (e) {
    die(`${path.basename(cmd)} failed:\n${e.stderr?.toString() ?? e.message}`);
  }
}

function expectFiles(dir, names) {
  for (const n of names) {
    if (!existsSync(path.join(dir, n)))
      die(`nothing written at ${path.join(dir, n)}`);
  }
}

function die(message) {
  console.error(`e2e-editions: ${message}`);
  process.exit(1);
}
