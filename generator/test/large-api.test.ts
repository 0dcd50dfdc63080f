// Generated code stays clean at real-API scale: a proto set in the shape of
// Temporal's API (test/support/large-api.ts: package paths such as
// temporal.api.workflowservice.v1, messages from sibling packages, two
// request_response.proto files, well-known types, over a hundred annotated
// RPCs with auto_execute, aliases and server streaming) is generated for the
// three targets, and each output is checked with its language's tools:
//
// - Python: ruff format --check and ruff check with the default rules (and
//   isort's), mypy --strict against grpcio-tools output with mypy-protobuf
//   stubs, and imported for real, with and without py_package;
// - Go: gofmt -l and go vet, compiled with protoc-gen-go and
//   protoc-gen-go-grpc output;
// - TypeScript: prettier --check and tsc --strict with protoc-gen-es output.
//
// Small cases next to it: a file of exactly one tool, one-letter tool names.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { CodeGeneratorRequest } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import {
  largeApiProtos,
  operatorRpcs,
  workflowRpcs,
} from "./support/large-api.js";
import { buildRequest, paths } from "./support/request.js";
import { strictCompilerOptions } from "./support/strict-tsconfig.js";
import { mypyArgs, mypyConfig } from "./support/mypy.js";

const repoRoot = resolve(paths.generator, "..");
const python = join(repoRoot, ".venv", "bin", "python");
const toolsBin = join(repoRoot, ".tools", "bin");
const nodeBin = join(repoRoot, "node_modules", ".bin");
const runtimePySrc = join(repoRoot, "runtimes", "python", "src");
const testGoModule = join(paths.generator, "test-go");
const goModule = "example.com/aitools/testgo";

let work: string;
let protoDir: string;
let request: (
  parameter: string,
  files?: string[],
) => Promise<CodeGeneratorRequest>;
const protos = largeApiProtos(`${goModule}/pb`);

/** Run a command; throw with its output when it fails. */
function sh(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}`;
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} (exit ${r.status}):\n${out}`);
  }
  return out;
}

/** Write generated files under dir. */
function writeFiles(
  dir: string,
  files: readonly { name: string; content: string }[],
): void {
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.name)), { recursive: true });
    writeFileSync(join(dir, f.name), f.content);
  }
}

/** The include paths every protoc run of the set uses. */
const includes = () => [
  `-I${join(repoRoot, "proto")}`,
  `-I${paths.include}`,
  `-I${protoDir}`,
];

/** The non-WKT files of a request: what grpcio-tools and protoc-gen-* generate. */
function ownFiles(req: CodeGeneratorRequest): string[] {
  return req.protoFile
    .map((f) => f.name)
    .filter((n) => !n.startsWith("google/protobuf/"));
}

/**
 * Small cases ruff formats differently: a file of exactly one tool, whose
 * one-element tuple ruff collapses (`(X,)`), and one-letter tool names,
 * which RUF022 sorts among the CamelCase names of `__all__`.
 */
const smallProtos: Record<string, string> = {
  "small/one/v1/one.proto": smallProto("one", ["x"]),
  "small/letters/v1/letters.proto": smallProto("letters", [
    "a",
    "B",
    "z",
    "a1",
    "zed",
  ]),
};

function smallProto(name: string, tools: string[]): string {
  return `syntax = "proto3";
package small.${name}.v1;
import "ai/tools/v1/annotations.proto";
option go_package = "${goModule}/pb/small/${name}/v1;${name}v1";
message GetRequest {
  string id = 1 [(ai.tools.v1.tool_field) = { alias_prefix: "thing" }];
}
message GetResponse {
  string id = 1;
  string name = 2;
}
service ThingService {
${tools.map((t, i) => `  rpc Get${i}(GetRequest) returns (GetResponse) {\n    option (ai.tools.v1.rpc_tool) = { name: "${t}" description: "Get a thing." auto_execute: true };\n  }`).join("\n")}
}
`;
}

/** The cases: the large set, and each small file on its own. */
const cases = {
  large: Object.keys(protos),
  ...Object.fromEntries(
    Object.keys(smallProtos).map((f) => [f.split("/")[1]!, [f]]),
  ),
} as Record<string, string[]>;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "ai-tools-large-"));
  protoDir = join(work, "proto");
  writeFiles(
    protoDir,
    Object.entries({ ...protos, ...smallProtos }).map(([name, content]) => ({
      name,
      content,
    })),
  );
  request = (parameter, files = cases["large"]!) =>
    buildRequest(protoDir, { parameter, files });
});

afterAll(() => {
  if (process.env.AI_TOOLS_KEEP_WORK !== undefined) {
    console.log(`large-api: kept ${work}`);
    return;
  }
  rmSync(work, { recursive: true, force: true });
});

const pyEnv = {
  PYTHONPATH: runtimePySrc,
  PYTHONDONTWRITEBYTECODE: "1",
  RUFF_NO_CACHE: "true",
};

/** ruff format --check and ruff check (default rules, then isort's) on dir/file. */
function ruff(
  dir: string,
  file = "ai_tools_gen.py",
  extra: string[] = [],
): void {
  const opts = { cwd: dir, env: pyEnv };
  sh(
    python,
    ["-m", "ruff", "format", "--isolated", "--check", "--diff", file],
    opts,
  );
  sh(python, ["-m", "ruff", "check", "--isolated", "--no-cache", file], opts);
  sh(
    python,
    [
      "-m",
      "ruff",
      "check",
      "--isolated",
      "--no-cache",
      "--select",
      ["I", ...extra].join(","),
      file,
    ],
    opts,
  );
}

/** mypy --strict on dir/ai_tools_gen.py, the runtime's sources on MYPYPATH. */
function mypy(dir: string): void {
  writeFileSync(join(dir, "mypy.ini"), mypyConfig);
  sh(python, mypyArgs(join(work, "mypy-cache"), ["ai_tools_gen.py"]), {
    cwd: dir,
    env: { ...pyEnv, MYPYPATH: runtimePySrc },
  });
}

/** grpcio-tools output of the set's files (and their imports) into dir. */
function grpcioTools(
  req: CodeGeneratorRequest,
  dir: string,
  stubs: "mypy" | "pyi",
): void {
  mkdirSync(dir, { recursive: true });
  sh(python, [
    "-m",
    "grpc_tools.protoc",
    ...includes(),
    ...(stubs === "mypy"
      ? [
          `--plugin=protoc-gen-mypy=${join(dirname(python), "protoc-gen-mypy")}`,
          `--mypy_out=${dir}`,
        ]
      : [`--pyi_out=${dir}`]),
    `--python_out=${dir}`,
    `--grpc_python_out=${dir}`,
    ...ownFiles(req),
  ]);
}

/** Every file under dir, relative, sorted. */
function walk(dir: string, rel = ""): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? walk(dir, join(rel, e.name)) : [join(rel, e.name)],
    )
    .sort();
}

/** Loads ai_tools_gen, makes both executors, prints what it loaded. */
const loadScript = String.raw`
import asyncio
import json
import sys

import grpc

import ai_tools_gen as g

e = g.Executor(grpc.insecure_channel("127.0.0.1:9"))


async def check_async() -> int:
    async with grpc.aio.insecure_channel("127.0.0.1:9") as channel:
        a = g.AsyncExecutor(channel)
        return sum(1 for t in g.ALL_TOOLS if a.can_execute(t.name))


executors = sum(1 for t in g.ALL_TOOLS if e.can_execute(t.name))
assert asyncio.run(check_async()) == executors
print(
    json.dumps(
        {
            "tools": len(g.ALL_TOOLS),
            "executors": executors,
            "modules": sorted(m for m in sys.modules if m.endswith("_pb2")),
        }
    )
)
`;

interface Loaded {
  tools: number;
  executors: number;
  modules: string[];
}

function load(dir: string, pythonPath: string[]): Loaded {
  writeFileSync(join(dir, "load.py"), loadScript);
  return JSON.parse(
    sh(python, ["load.py"], {
      cwd: dir,
      env: { ...pyEnv, PYTHONPATH: [runtimePySrc, ...pythonPath].join(":") },
    }),
  ) as Loaded;
}

const annotated = workflowRpcs + operatorRpcs;

describe("a large API in Temporal's shape: Python", () => {
  it("passes ruff (default rules) and mypy --strict, with short import names", async () => {
    const req = await request("target=py");
    const files = generate(req);
    expect(files.map((f) => f.name)).toEqual(["ai_tools_gen.py"]);
    const source = files[0]!.content;
    const dir = join(work, "py");
    grpcioTools(req, dir, "mypy");
    writeFileSync(join(dir, "ai_tools_gen.py"), source);
    ruff(dir);
    mypy(dir);

    // The imports a person would write: WKTs by their own names, the
    // grpcio-tools modules by package and file, the two
    // request_response_pb2 told apart; no grpcio-tools `_dot_` names.
    const imports = source.slice(
      source.indexOf("\nimport grpc"),
      source.indexOf("__all__"),
    );
    expect(imports).toContain("from google.protobuf import empty_pb2\n");
    expect(imports).toContain(
      "from temporal.api.common.v1 import message_pb2 as common_message_pb2\n",
    );
    expect(imports).toContain(
      "from temporal.api.workflowservice.v1 import (\n    request_response_pb2 as workflowservice_request_response_pb2,\n)\n",
    );
    expect(imports).toContain(
      "from temporal.api.operatorservice.v1 import (\n    request_response_pb2 as operatorservice_request_response_pb2,\n)\n",
    );
    expect(source).not.toContain("_dot_");
    expect(source).toContain("server_streaming=True,");
    expect(source).toContain("request_type=empty_pb2.Empty,");
    expect(source).toContain(
      "response_type=workflow_message_pb2.WorkflowExecutionInfo,",
    );

    const loaded = load(dir, []);
    expect(loaded.tools).toBe(annotated);
    // One tool in seven is plain (no executor): 32 of 36 in the smoke.
    expect(loaded.executors).toBeGreaterThan(0.8 * annotated);
    expect(loaded.modules).toContain(
      "temporal.api.workflowservice.v1.request_response_pb2",
    );
  }, 120_000);

  it("with py_package: clean, and right whether or not the grpcio-tools imports are rewritten", async () => {
    const req = await request("target=py,py_package=myapp.gen");
    const source = generate(req)[0]!.content;
    expect(source).toContain(
      "from myapp.gen.temporal.api.workflowservice.v1 import (\n    request_response_pb2 as workflowservice_request_response_pb2,\n)\n",
    );
    // WKTs come from the protobuf package, never from under py_package.
    expect(source).toContain("from google.protobuf import empty_pb2\n");

    // 1. As grpcio-tools writes it: the *_pb2 modules import each other as
    //    `temporal.…`, so their directory must be on sys.path too; each
    //    module then loads under both names (one set of message classes).
    const root = join(work, "py-package");
    const gen = join(root, "myapp", "gen");
    grpcioTools(req, gen, "pyi");
    writeFileSync(join(root, "ai_tools_gen.py"), source);
    ruff(root);
    const both = load(root, [gen]);
    expect(both.tools).toBe(annotated);
    expect(both.modules).toEqual(
      expect.arrayContaining([
        "myapp.gen.temporal.api.common.v1.message_pb2",
        "temporal.api.common.v1.message_pb2",
      ]),
    );

    // 2. With the grpcio-tools imports rewritten to the prefix (as
    //    docs/py-runtime-api.md suggests): only the root on sys.path, each
    //    module loaded once, under its prefixed name.
    for (const f of walk(gen)) {
      if (!f.endsWith(".py")) continue;
      const path = join(gen, f);
      writeFileSync(
        path,
        readFileSync(path, "utf8").replace(
          /^from (temporal|ai|google\.api)([. ])/gm,
          "from myapp.gen.$1$2",
        ),
      );
    }
    const once = load(root, []);
    expect(once.tools).toBe(annotated);
    expect(
      once.modules.filter((m) => !m.startsWith("google.protobuf.")),
    ).toEqual(once.modules.filter((m) => m.startsWith("myapp.gen.")));
  }, 120_000);
});

describe("small cases ruff formats differently: Python", () => {
  for (const name of ["one", "letters"]) {
    it(`${name}: ruff (with RUF022 and isort) and mypy --strict`, async () => {
      const files = cases[name];
      if (files === undefined) throw new Error(`no case "${name}"`);
      const req = await request("target=py", files);
      const source = generate(req)[0]!.content;
      const dir = join(work, `py-${name}`);
      grpcioTools(req, dir, "mypy");
      writeFileSync(join(dir, "ai_tools_gen.py"), source);
      ruff(dir, "ai_tools_gen.py", ["RUF022"]);
      mypy(dir);
      const loaded = load(dir, []);
      expect(loaded).toMatchObject({
        tools: name === "one" ? 1 : 5,
        executors: name === "one" ? 1 : 5,
      });
      if (name === "one") {
        expect(source).toContain("\nALL_TOOLS: tuple[AgentTool, ...] = (X,)\n");
      } else {
        // RUF022 (checked above) puts one-letter names among the classes.
        const all = [...source.matchAll(/^ {4}"(\w+)",$/gm)].map((m) => m[1]);
        expect(
          all.filter((n) =>
            [
              "A",
              "A1",
              "ALL_TOOLS",
              "AgentTool",
              "B",
              "Z",
              "ZED",
              "all_tools",
            ].includes(n!),
          ),
        ).toEqual([
          "A1",
          "ALL_TOOLS",
          "ZED",
          "A",
          "AgentTool",
          "B",
          "Z",
          "all_tools",
        ]);
      }
    }, 60_000);
  }
});

describe("a large API in Temporal's shape: Go and TypeScript", () => {
  it("Go: gofmt -l and go vet, with protoc-gen-go and protoc-gen-go-grpc output", async () => {
    const dir = join(work, "go");
    mkdirSync(dir, { recursive: true });
    for (const f of ["go.mod", "go.sum"]) {
      cpSync(join(testGoModule, f), join(dir, f));
    }
    const tools = ["protoc-gen-go", "protoc-gen-go-grpc"].map((t) =>
      join(toolsBin, t),
    );
    for (const t of tools) {
      if (!existsSync(t)) {
        throw new Error(
          `${t} is missing: run \`node scripts/go-test.mjs --install-tools\``,
        );
      }
    }
    const mapping = `Mai/tools/v1/annotations.proto=${goModule}/pb/ai/tools/v1;toolsv1`;
    const packages: string[] = [];
    const all = new Set<string>();
    for (const [name, files] of Object.entries(cases)) {
      const req = await request("target=go", files);
      for (const f of ownFiles(req)) all.add(f);
      const out = generate(req);
      expect(out.map((f) => f.name)).toEqual(["ai_tools.gen.go"]);
      writeFiles(join(dir, `gentools_${name}`), out);
      packages.push(`gentools_${name}`);
    }
    sh("protoc", [
      ...includes(),
      `--plugin=protoc-gen-go=${tools[0]}`,
      `--plugin=protoc-gen-go-grpc=${tools[1]}`,
      `--go_out=${dir}`,
      `--go_opt=module=${goModule},${mapping}`,
      `--go-grpc_out=${dir}`,
      `--go-grpc_opt=module=${goModule},${mapping}`,
      ...[...all].sort(),
    ]);
    expect(sh("gofmt", ["-l", ...packages], { cwd: dir })).toBe("");
    sh("go", ["vet", "./..."], {
      cwd: dir,
      // The test module's go.mod and go.sum; missing modules come from the
      // module proxy, as in scripts/go-test.mjs.
      env: { GOFLAGS: "-mod=mod", GOWORK: "off" },
    });
  }, 180_000);

  it("TypeScript: prettier --check and tsc --strict, with protoc-gen-es output", async () => {
    const dir = join(work, "ts");
    const nm = join(dir, "node_modules");
    mkdirSync(join(nm, "@protoc-gen-ai-tools"), { recursive: true });
    mkdirSync(join(nm, "@bufbuild"), { recursive: true });
    mkdirSync(join(nm, "@connectrpc"), { recursive: true });
    symlinkSync(
      join(paths.generator, "node_modules", "@bufbuild", "protobuf"),
      join(nm, "@bufbuild", "protobuf"),
    );
    symlinkSync(
      join(paths.generator, "node_modules", "@connectrpc", "connect"),
      join(nm, "@connectrpc", "connect"),
    );
    symlinkSync(
      join(repoRoot, "runtimes", "ts"),
      join(nm, "@protoc-gen-ai-tools", "runtime"),
    );
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ type: "module", private: true }),
    );
    const generated: string[] = [];
    const all = new Set<string>();
    for (const [name, files] of Object.entries(cases)) {
      const req = await request("target=ts,ts_import_path=..", files);
      for (const f of ownFiles(req)) all.add(f);
      // Each case's tools next to the protoc-gen-es output, one level down.
      const out = generate(req).map((f) => ({
        name: `${name}/${f.name}`,
        content: f.content,
      }));
      expect(out.map((f) => f.name)).toEqual([`${name}/ai_tools.gen.ts`]);
      writeFiles(dir, out);
      generated.push(out[0]!.name);
    }
    sh("protoc", [
      ...includes(),
      `--plugin=protoc-gen-es=${join(paths.generator, "node_modules", ".bin", "protoc-gen-es")}`,
      `--es_out=${dir}`,
      "--es_opt=target=ts,import_extension=js",
      ...[...all].sort(),
    ]);
    sh(join(nodeBin, "prettier"), ["--check", "--no-config", ...generated], {
      cwd: dir,
    });
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: strictCompilerOptions,
        files: generated,
      }),
    );
    sh(join(nodeBin, "tsc"), ["-p", "tsconfig.json"], { cwd: dir });
  }, 120_000);
});
