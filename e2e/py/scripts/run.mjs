#!/usr/bin/env node
// The Python end-to-end suite, from nothing to a verdict:
//
//   1. the repository's Python environment (bash scripts/python-env.sh:
//      <repo>/.venv with grpcio-tools, mypy-protobuf, ruff, mypy, pytest and
//      ai_tools_runtime);
//   2. gen/: grpcio-tools output of e2e/proto (--python_out, --mypy_out,
//      --mypy_grpc_out, --grpc_python_out) and our plugin (target=py, one
//      request for all files) → gen/ai_tools_gen.py; the same for the
//      generator's golden cases compact, validate and recursion →
//      gen/cases/<case>/;
//   3. node scripts/values.mjs: schema-generated arguments → gen/values/;
//   4. ruff format --check, ruff check and mypy --strict over the generated
//      module and the tests; then pytest against the real test server
//      (e2e/server/dist/main.js, started by tests/conftest.py) and, for the
//      conversation store tests, a real redis-server (Debian's, started on a
//      free port by tests/conftest.py).
//
//   node scripts/run.mjs            everything (the `e2e` script)
//   node scripts/run.mjs --generate steps 1–2
//   node scripts/run.mjs --build    steps 1–2, ruff and mypy
//   node scripts/run.mjs --fast     steps 1–2, ruff, mypy, and the tests that
//                                   need no server (tests/test_module.py)
//   node scripts/run.mjs --bench    steps 1–2 and scripts/bench.py
//   node scripts/run.mjs --after-build  steps 1–3 and pytest, without ruff
//                                   and mypy: the `e2e` script, which turbo
//                                   runs after this package's `build` (--build
//                                   checks the same generated files)
//
// Exits non-zero on any failure, including pytest collecting no test.

import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createSuiteRunner } from "../../../scripts/lib/suite-runner.mjs";
import {
  caseOptions,
  listProtoFiles,
} from "../../../generator/scripts/lib/request.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const { run, must, step, finish, die } = createSuiteRunner({
  label: "e2e-py",
  cwd: pkgDir,
});
const repoRoot = path.resolve(pkgDir, "..", "..");
const genDir = path.join(pkgDir, "gen");
const serverMain = path.join(repoRoot, "e2e", "server", "dist", "main.js");

const modes = ["--generate", "--build", "--fast", "--bench", "--after-build"];
const args = process.argv.slice(2);
for (const a of args)
  if (!modes.includes(a))
    die(`unknown argument ${a} (valid: ${modes.join(", ")})`);
if (args.length > 1) die(`give at most one of ${modes.join(", ")}`);
const mode = args[0] ?? "--e2e";

step("Python environment (bash scripts/python-env.sh)");
const envScript = path.join(repoRoot, "scripts", "python-env.sh");
if (!existsSync(envScript)) die(`${envScript} not found`);
await must("bash", [envScript], { cwd: repoRoot });
const python =
  (process.env.AI_TOOLS_PYTHON ?? "") !== ""
    ? process.env.AI_TOOLS_PYTHON
    : path.join(repoRoot, ".venv", "bin", "python");
const bin = path.dirname(python);
if (!existsSync(python)) die(`${python} not found after python-env.sh`);

step(
  "grpcio-tools and protoc-gen-ai-tools (target=py): e2e/proto → e2e/py/gen",
);
{
  const plugin = path.join(
    repoRoot,
    "node_modules",
    ".bin",
    "protoc-gen-ai-tools",
  );
  const buf = path.join(repoRoot, "node_modules", ".bin", "buf");
  for (const p of [plugin, buf]) {
    if (!existsSync(p))
      die(
        `${p} not found: run \`npx -y pnpm@12.4.2 install\` and build the generator first`,
      );
  }
  if (!existsSync(path.join(repoRoot, "generator", "dist", "index.js"))) {
    die(
      "generator/dist not built: run `npx -y pnpm@12.4.2 --filter protoc-gen-ai-tools build`",
    );
  }
  rmSync(genDir, { recursive: true, force: true });
  mkdirSync(genDir, { recursive: true });
  const protoDir = path.join(repoRoot, "e2e", "proto");
  const protos = [
    "control",
    "exports",
    "links",
    "samples",
    "themes",
    "workflows",
  ].map((n) => `linkhub/v1/${n}.proto`);
  // exports.proto imports google/longrunning/operations.proto: protoc reads
  // the test copy of generator/testdata/include (not compiled here); at run
  // time exports_pb2 imports google.longrunning.operations_pb2 of
  // googleapis-common-protos (runtimes/python/requirements-dev.txt).
  await must(
    python,
    [
      "-m",
      "grpc_tools.protoc",
      `-I${protoDir}`,
      `-I${path.join(repoRoot, "proto")}`,
      `-I${path.join(repoRoot, "generator", "testdata", "include")}`,
      `--plugin=protoc-gen-mypy=${path.join(bin, "protoc-gen-mypy")}`,
      `--plugin=protoc-gen-mypy_grpc=${path.join(bin, "protoc-gen-mypy_grpc")}`,
      `--python_out=${genDir}`,
      `--mypy_out=${genDir}`,
      `--grpc_python_out=${genDir}`,
      `--mypy_grpc_out=${genDir}`,
      ...protos,
      "ai/tools/v1/annotations.proto",
    ],
    { cwd: repoRoot },
  );
  const template = {
    version: "v2",
    plugins: [
      // One request for all files: the plugin writes one ai_tools_gen.py.
      // mcp=true: gen/ai_tools_mcp_gen.py beside it; tool_search=true:
      // TOOL_SEARCH (docs/tool-search.md).
      {
        local: plugin,
        out: "e2e/py/gen",
        opt: "target=py,mcp=true,tool_search=true",
        strategy: "all",
      },
    ],
  };
  await must(
    buf,
    ["generate", "e2e/proto", "--template", JSON.stringify(template)],
    {
      cwd: repoRoot,
    },
  );
  for (const f of ["ai_tools_gen.py", "ai_tools_mcp_gen.py"])
    if (!existsSync(path.join(genDir, f))) die(`the plugin wrote no gen/${f}`);
  // The generator's golden cases compact (schema=compact: $defs, recursion),
  // validate (buf.validate keywords) and recursion (strict cycles,
  // providers=openai), each with its options.txt, into
  // gen/cases/<case>/ (tests/test_case_values.py).
  for (const name of ["compact", "validate", "recursion"]) {
    const caseOut = path.join(genDir, "cases", name);
    const caseDir = path.join(
      repoRoot,
      "generator",
      "testdata",
      "protos",
      name,
    );
    mkdirSync(caseOut, { recursive: true });
    const opts = ["target=py", caseOptions(name)].filter((o) => o !== "");
    await must(
      python,
      [
        "-m",
        "grpc_tools.protoc",
        `-I${caseDir}`,
        `-I${path.join(repoRoot, "generator", "testdata", "include")}`,
        `-I${path.join(repoRoot, "proto")}`,
        `--plugin=protoc-gen-ai-tools=${plugin}`,
        `--python_out=${caseOut}`,
        `--grpc_python_out=${caseOut}`,
        `--ai-tools_out=${caseOut}`,
        `--ai-tools_opt=${opts.join(",")}`,
        ...listProtoFiles(caseDir),
        "ai/tools/v1/annotations.proto",
        ...(name === "validate" ? ["buf/validate/validate.proto"] : []),
      ],
      { cwd: repoRoot },
    );
    if (!existsSync(path.join(caseOut, "ai_tools_gen.py")))
      die(`the plugin wrote no gen/cases/${name}/ai_tools_gen.py`);
  }
  console.log(
    "  gen/linkhub/v1/*_pb2.py(i), *_pb2_grpc.py(i), gen/ai_tools_gen.py, gen/ai_tools_mcp_gen.py",
  );
}
step(
  "Edition 2023 samples: e2e/editions/proto → gen/edsamples, gen/edtools (grpcio-tools' protoc)",
);
await must(
  "node",
  [path.join(repoRoot, "e2e", "editions", "generate.mjs"), "py"],
  { cwd: repoRoot },
);
if (mode === "--generate") finish(mode);

if (mode === "--e2e" || mode === "--after-build") {
  step("schema-generated values → e2e/py/gen/values");
  await must("node", [path.join(here, "values.mjs")], { cwd: pkgDir });
}

const pyEnv = {
  ...process.env,
  PYTHONPATH: genDir,
  PYTHONDONTWRITEBYTECODE: "1",
  E2E_REPO_ROOT: repoRoot,
  E2E_VALUES_DIR: path.join(genDir, "values"),
  E2E_SERVER_MAIN: process.env.E2E_SERVER_MAIN ?? serverMain,
};

if (mode !== "--bench" && mode !== "--after-build") {
  step(
    "ruff format --check, ruff check (generated module as generated, and the tests)",
  );
  await must(
    python,
    [
      "-m",
      "ruff",
      "format",
      "--check",
      "--no-cache",
      "gen/ai_tools_gen.py",
      "gen/ai_tools_mcp_gen.py",
      "tests",
      "scripts",
    ],
    { env: pyEnv },
  );
  await must(
    python,
    [
      "-m",
      "ruff",
      "check",
      "--no-cache",
      "gen/ai_tools_gen.py",
      "gen/ai_tools_mcp_gen.py",
      "tests",
      "scripts",
    ],
    { env: pyEnv },
  );
  step("mypy --strict (generated module, runtime, tests)");
  await must(
    python,
    [
      "-m",
      "mypy",
      "--cache-dir",
      path.join(genDir, ".mypy_cache"),
      "gen/ai_tools_gen.py",
      "gen/ai_tools_mcp_gen.py",
      "tests",
      "scripts",
    ],
    { env: pyEnv },
  );
}
if (mode === "--build") finish(mode);

if (mode === "--fast") {
  step("pytest tests/test_module.py   (no server)");
  await pytest(["tests/test_module.py"], { ...pyEnv, E2E_NO_SERVER: "1" });
  finish(mode);
}

if (!existsSync(pyEnv.E2E_SERVER_MAIN)) {
  die(
    `${pyEnv.E2E_SERVER_MAIN} not found: build the test server first (npx -y pnpm@12.4.2 --filter @protoc-gen-ai-tools/e2e-server build)`,
  );
}
if (mode === "--bench") {
  step(
    "scripts/bench.py (links_get through the executor, on the local server)",
  );
  await must(python, [path.join(here, "bench.py")], { env: pyEnv });
  finish(mode);
}
step("pytest -v tests");
await pytest(["tests"], pyEnv);
finish(mode);

// ---------------------------------------------------------------------------

/** pytest, its exit code read: 5 (nothing collected) is a failure too. */
async function pytest(targets, env) {
  const r = await run(
    python,
    ["-m", "pytest", "-v", "-p", "no:cacheprovider", ...targets],
    { env },
  );
  const meaning = {
    0: "",
    1: "some tests failed",
    2: "interrupted",
    3: "internal error",
    4: "usage error",
    5: "no test was collected",
  };
  if (r.code !== 0)
    die(
      `pytest exited ${r.code}${meaning[r.code] ? ` (${meaning[r.code]})` : ""}`,
    );
}

/** Run a command, output shown (unless quiet); resolve with { code, stdout, stderr }. */
