import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import type {
  ResponseAliasField,
  ResponseAliasTool,
} from "../src/model/response-aliases.js";
import { compareUtf8 } from "../src/schema/canonical-json.js";
import { modelOf } from "./support/model.js";
import { buildRequest, goldenCases, paths } from "./support/request.js";
import { ruffCheckArgs } from "./support/ruff.js";
import { mypyArgs, mypyConfig } from "./support/mypy.js";

// The Python target against the Go target and the Python toolchain: for
// every golden case, the generated ai_tools_gen.py is imported by a real
// Python (the repository's .venv, scripts/python-env.sh) next to the
// grpcio-tools output of the case's protos; its tools must equal those of the
// Go golden file, and the module must pass ruff format --check, ruff check
// and mypy --strict together with ai_tools_runtime.

const repoRoot = resolve(paths.generator, "..");
const runtimeSrc = join(repoRoot, "runtimes", "python", "src");

/** The venv's python: $AI_TOOLS_PYTHON, else <repo>/.venv/bin/python. */
function findPython(): string | undefined {
  const fromEnv = process.env.AI_TOOLS_PYTHON ?? "";
  if (fromEnv !== "") return fromEnv;
  const venv = join(repoRoot, ".venv", "bin", "python");
  return existsSync(venv) ? venv : undefined;
}

const python = findPython();

if (python === undefined) {
  // The README's commands create the venv; without it these checks fail
  // rather than skip.
  describe("python target (no .venv)", () => {
    it("needs <repo>/.venv: run bash scripts/python-env.sh", () => {
      throw new Error(
        "no Python environment: run `bash scripts/python-env.sh` (or set AI_TOOLS_PYTHON)",
      );
    });
  });
}

const work = mkdtempSync(join(tmpdir(), "ai-tools-py-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): { code: number; out: string } {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  return {
    code: r.status ?? -1,
    out: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}`,
  };
}

function must(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  const r = run(cmd, args, opts);
  if (r.code !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} (exit ${r.code}):\n${r.out}`);
  }
  return r.out;
}

/** Decode a Go interpreted string literal, as strconv.Quote writes them. */
function goUnquote(literal: string): string {
  const s = literal.slice(1, -1);
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = s[++i]!;
    const simple: Record<string, string> = {
      a: "\x07",
      b: "\b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
      v: "\v",
      "\\": "\\",
      '"': '"',
      "'": "'",
    };
    if (e in simple) {
      out += simple[e];
    } else if (e === "x" || e === "u" || e === "U") {
      const n = e === "x" ? 2 : e === "u" ? 4 : 8;
      out += String.fromCodePoint(parseInt(s.slice(i + 1, i + 1 + n), 16));
      i += n;
    } else if (/[0-7]/.test(e)) {
      out += String.fromCodePoint(parseInt(s.slice(i, i + 3), 8));
      i += 2;
    } else {
      throw new Error(`bad Go escape \\${e} in ${literal}`);
    }
  }
  return out;
}

const goString = String.raw`"(?:[^"\\]|\\.)*"`;

interface GoTarget {
  tools: {
    name: string;
    description: string;
    strict: boolean;
    parameters: unknown;
  }[];
  executors: string[];
  knownAliasPrefixes: string[];
  /** The response registration tables, as the model's entries (sorted). */
  responseAliasTypes: [string, ResponseAliasField[]][];
  toolResponseAliases: [string, ResponseAliasTool][];
}

/** The `{field: "id", prefix: "acct", isMap: true}` struct literals of a Go table. */
function goStruct(literal: string): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  const re = new RegExp(String.raw`(\w+): (${goString}|true)`, "g");
  for (const m of literal.matchAll(re)) {
    out[m[1]!] = m[2] === "true" ? true : goUnquote(m[2]!);
  }
  return out;
}

/** What a Go golden file declares, read from its text. */
function readGoGolden(source: string): GoTarget {
  const toolRe = new RegExp(
    String.raw`= AgentTool\{\n\tName: +(${goString}),\n\tDescription: +(${goString}),\n\tStrict: +(true|false),\n\tParameters: +json\.RawMessage\((${goString})\),\n\}`,
    "g",
  );
  const tools = [...source.matchAll(toolRe)].map((m) => ({
    name: goUnquote(m[1]!),
    description: goUnquote(m[2]!),
    strict: m[3] === "true",
    parameters: JSON.parse(goUnquote(m[4]!)) as unknown,
  }));
  const block = (start: string): string => {
    const i = source.indexOf(start);
    if (i < 0) return "";
    return source.slice(i, source.indexOf("\n}", i));
  };
  const entries = (start: string): Record<string, string> => {
    const re = new RegExp(
      String.raw`\t(${goString}): +(${goString}|true),`,
      "g",
    );
    return Object.fromEntries(
      [...block(start).matchAll(re)].map((m) => [
        goUnquote(m[1]!),
        m[2] === "true" ? "true" : goUnquote(m[2]!),
      ]),
    );
  };
  const canExecute = block("func (e *Executor) CanExecute(");
  const types = block("var responseAliasTypes = map");
  const responseAliasTypes: [string, ResponseAliasField[]][] = [];
  for (const m of types.matchAll(
    new RegExp(
      String.raw`\n\t(${goString}): \{\n((?:\t\t\{.*\},\n)*)\t\}`,
      "g",
    ),
  )) {
    const fields = [...m[2]!.matchAll(/\t\t\{(.*)\},\n/g)].map((f) => {
      const g = goStruct(f[1]!);
      return {
        field: g["field"] as string,
        prefix: (g["prefix"] as string | undefined) ?? "",
        message: (g["message"] as string | undefined) ?? "",
        map: g["isMap"] === true,
        anyValue: g["anyValue"] === true,
      };
    });
    responseAliasTypes.push([goUnquote(m[1]!), fields]);
  }
  const toolResponseAliases: [string, ResponseAliasTool][] = [
    ...block("var toolResponseAliases = map").matchAll(
      new RegExp(String.raw`\n\t(${goString}): +\{(.*)\},`, "g"),
    ),
  ].map((m) => {
    const g = goStruct(m[2]!);
    return [
      goUnquote(m[1]!),
      {
        message: g["message"] as string,
        idPrefix: (g["idPrefix"] as string | undefined) ?? "",
        idField: (g["idField"] as string | undefined) ?? "",
      },
    ];
  });
  return {
    tools,
    executors: [
      ...canExecute.matchAll(new RegExp(String.raw`case (${goString}):`, "g")),
    ].map((m) => goUnquote(m[1]!)),
    knownAliasPrefixes: Object.keys(entries("var knownAliasPrefixes = map")),
    responseAliasTypes: responseAliasTypes.sort((a, b) =>
      compareUtf8(a[0], b[0]),
    ),
    toolResponseAliases: toolResponseAliases.sort((a, b) =>
      compareUtf8(a[0], b[0]),
    ),
  };
}

/** Dumps what the generated module exports as JSON (run in the output root). */
const dumpScript = String.raw`
import asyncio
import json

import grpc

import ai_tools_gen as g


def plain(value):
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if hasattr(value, "items"):
        return {k: plain(v) for k, v in value.items()}
    return value


tools = g.all_tools()
assert tools == list(g.ALL_TOOLS), "all_tools() differs from ALL_TOOLS"
assert tools is not g.all_tools(), "all_tools() must return a new list"
consts = {}
for name in g.__all__:
    value = getattr(g, name)
    if isinstance(value, g.AgentTool):
        consts[name] = value.name
executors = []
if hasattr(g, "Executor"):
    e = g.Executor(grpc.insecure_channel("127.0.0.1:9"))
    executors = [t.name for t in tools if e.can_execute(t.name)]

    async def check_async() -> list[str]:
        async with grpc.aio.insecure_channel("127.0.0.1:9") as channel:
            a = g.AsyncExecutor(channel)
            return [t.name for t in tools if a.can_execute(t.name)]

    assert asyncio.run(check_async()) == executors, "AsyncExecutor differs"
print(
    json.dumps(
        {
            "tools": [
                {
                    "name": t.name,
                    "description": t.description,
                    "strict": t.strict,
                    "parameters": t.schema(),
                }
                for t in tools
            ],
            "forms": {t.name: plain(t.forms) for t in tools},
            "consts": consts,
            "exports": g.__all__,
            "executors": executors,
            "responseAliasTypes": [
                [
                    name,
                    [
                        {
                            "field": f.field,
                            "prefix": f.prefix,
                            "message": f.message,
                            "map": f.is_map,
                            "anyValue": f.any_value,
                        }
                        for f in fields
                    ],
                ]
                for name, fields in g.ALIAS_CONFIG.response_aliases.types.items()
            ],
            "toolResponseAliases": [
                [
                    name,
                    {"message": t.message, "idPrefix": t.id_prefix, "idField": t.id_field},
                ]
                for name, t in g.ALIAS_CONFIG.response_aliases.tools.items()
            ],
            "knownAliasPrefixes": sorted(g.ALIAS_CONFIG.known_alias_prefixes),
        }
    )
)
`;

/** The `*_pb2` inputs of a case: every file but the WKTs, which protobuf ships. */
function protoFiles(protoFile: readonly { name: string }[]): string[] {
  return protoFile
    .map((f) => f.name)
    .filter((n) => !n.startsWith("google/protobuf/"));
}

function protocArgs(caseName: string): string[] {
  return [
    "-m",
    "grpc_tools.protoc",
    `-I${join(repoRoot, "proto")}`,
    `-I${paths.include}`,
    `-I${join(paths.protos, caseName)}`,
  ];
}

function upperSnake(name: string): string {
  return name
    .split(/[_-]/)
    .filter((p) => p !== "")
    .map((p) =>
      p
        .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
        .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2"),
    )
    .join("_")
    .toUpperCase();
}

describe.runIf(python !== undefined)("python target: golden cases", () => {
  const py = python!;
  const bin = dirname(py);
  const env = {
    PYTHONPATH: runtimeSrc,
    PYTHONDONTWRITEBYTECODE: "1",
    RUFF_NO_CACHE: "true",
  };
  const mypyCache = join(work, "mypy-cache");

  for (const caseName of goldenCases()) {
    it(
      caseName,
      async () => {
        const request = await buildRequest(caseName, {
          parameter: "target=py",
        });
        // (an MCP case's ai_tools_mcp_gen.py: test/py-mcp-target.test.ts)
        const files = generate(request).filter(
          (f) => f.name !== "ai_tools_mcp_gen.py",
        );
        const goldenFile = join(paths.golden, caseName, "ai_tools.gen.go");
        if (!existsSync(goldenFile)) {
          expect(files).toEqual([]);
          return;
        }
        const go = readGoGolden(readFileSync(goldenFile, "utf8"));
        expect(go.tools.length).toBeGreaterThan(0);
        expect(files.map((f) => f.name)).toEqual(["ai_tools_gen.py"]);
        const source = files[0]!.content;

        // 1. grpcio-tools output (.py, .pyi, _grpc.py) and the module: import
        //    it and compare with the Go file.
        const dir = join(work, caseName, "pyi");
        mkdirSync(dir, { recursive: true });
        must(py, [
          ...protocArgs(caseName),
          `--python_out=${dir}`,
          `--pyi_out=${dir}`,
          `--grpc_python_out=${dir}`,
          ...protoFiles(request.protoFile),
        ]);
        writeFileSync(join(dir, "ai_tools_gen.py"), source);
        writeFileSync(join(dir, "dump.py"), dumpScript);
        const dumped = JSON.parse(must(py, ["dump.py"], { cwd: dir, env })) as {
          tools: GoTarget["tools"];
          forms: Record<string, unknown>;
          consts: Record<string, string>;
          exports: string[];
          executors: string[];
          responseAliasTypes: unknown;
          toolResponseAliases: unknown;
          knownAliasPrefixes: string[];
        };
        expect(dumped.tools).toEqual(go.tools);
        // Key order too: the canonical serialization, as in the Go file.
        for (const [i, tool] of dumped.tools.entries()) {
          expect(JSON.stringify(tool.parameters)).toBe(
            JSON.stringify(go.tools[i]!.parameters),
          );
        }
        // The provider forms: the model's, parsed, in its key order.
        const model = modelOf(request);
        const forms = Object.fromEntries(
          model.tools.map((t) => [t.name, JSON.parse(t.formsJson) as unknown]),
        );
        expect(dumped.forms).toEqual(forms);
        expect(JSON.stringify(dumped.forms)).toBe(
          JSON.stringify(
            Object.fromEntries(
              Object.keys(dumped.forms).map((name) => [name, forms[name]]),
            ),
          ),
        );
        expect(dumped.executors).toEqual(go.executors);
        expect(dumped.consts).toEqual(
          Object.fromEntries(go.tools.map((t) => [upperSnake(t.name), t.name])),
        );
        expect(dumped.exports).toContain("AgentTool");
        expect(dumped.exports).toContain("all_tools");
        if (go.executors.length > 0) {
          expect(dumped.exports).toEqual(
            expect.arrayContaining(["Executor", "AsyncExecutor"]),
          );
        } else {
          expect(dumped.exports).not.toContain("Executor");
        }
        // The response registration tables: the model's, entry for entry
        // and in its order (types by name, fields in declaration order).
        expect(dumped.responseAliasTypes).toEqual(model.responseAliasTypes);
        expect(dumped.toolResponseAliases).toEqual(model.toolResponseAliases);
        // ... and the Go file's, the same tables in Go's syntax.
        expect(dumped.responseAliasTypes).toEqual(go.responseAliasTypes);
        expect(dumped.toolResponseAliases).toEqual(go.toolResponseAliases);
        expect(dumped.knownAliasPrefixes).toEqual(go.knownAliasPrefixes);

        // 2. ruff, as generated: formatted, and lint-clean under the default
        //    rules and under the runtime's stricter set (isort included; the
        //    grpcio-tools packages next to the module are first-party).
        const only = ["ai_tools_gen.py"];
        must(
          py,
          ["-m", "ruff", "format", "--isolated", "--check", "--diff", ...only],
          {
            cwd: dir,
            env,
          },
        );
        must(py, ["-m", "ruff", "check", "--isolated", "--no-cache", ...only], {
          cwd: dir,
          env,
        });
        must(py, [...ruffCheckArgs, ...only], { cwd: dir, env });

        // 3. mypy --strict with typed stubs of the protos (mypy-protobuf) and
        //    the runtime.
        const typed = join(work, caseName, "mypy");
        mkdirSync(typed, { recursive: true });
        must(py, [
          ...protocArgs(caseName),
          `--plugin=protoc-gen-mypy=${join(bin, "protoc-gen-mypy")}`,
          `--python_out=${typed}`,
          `--mypy_out=${typed}`,
          `--grpc_python_out=${typed}`,
          ...protoFiles(request.protoFile),
        ]);
        writeFileSync(join(typed, "ai_tools_gen.py"), source);
        writeFileSync(join(typed, "mypy.ini"), mypyConfig);
        must(py, mypyArgs(mypyCache, ["ai_tools_gen.py"]), {
          cwd: typed,
          env: { ...env, MYPYPATH: runtimeSrc },
        });
      },
      180_000,
    );
  }
});

describe.runIf(python !== undefined)("python target: py_package", () => {
  it("imports the grpcio-tools output under the package prefix", async () => {
    const py = python!;
    const request = await buildRequest("executors", {
      parameter: "target=py,py_package=myapp.gen",
    });
    const source = generate(request)[0]!.content;
    expect(source).toContain("\nfrom myapp.gen.links.v1 import links_pb2\n");
    // The grpcio-tools output goes under myapp/gen; its own imports are
    // absolute from that directory, as grpcio-tools writes them.
    const root = join(work, "py_package");
    const gen = join(root, "myapp", "gen");
    mkdirSync(gen, { recursive: true });
    must(py, [
      ...protocArgs("executors"),
      `--python_out=${gen}`,
      `--grpc_python_out=${gen}`,
      ...protoFiles(request.protoFile),
    ]);
    writeFileSync(join(root, "ai_tools_gen.py"), source);
    const out = must(
      py,
      [
        "-c",
        "import sys; import ai_tools_gen as g; print(len(g.ALL_TOOLS), 'myapp.gen.links.v1.links_pb2' in sys.modules)",
      ],
      {
        cwd: root,
        env: { PYTHONPATH: [runtimeSrc, gen].join(":") },
      },
    );
    expect(out).toMatch(/^\d+ True\n$/);
  });
});

describe.runIf(python !== undefined)(
  "python target: the runtime missing",
  () => {
    // python -S: no site-packages, so no ai_tools_runtime (nor grpc): the
    // import of the generated module fails at the runtime's imports, first,
    // with the pip line that installs it, the original error as its cause.
    it.each([
      ["executors", "ai_tools_gen", "pip install protoc-gen-ai-tools-runtime"],
      [
        "executors",
        "ai_tools_mcp_gen",
        "pip install 'protoc-gen-ai-tools-runtime[mcp]'",
      ],
    ])("%s: %s.py names the pip line", async (caseName, module, pipLine) => {
      const request = await buildRequest(caseName, {
        parameter: "target=py,mcp=true",
      });
      const file = generate(request).find((f) => f.name === `${module}.py`)!;
      const dir = join(work, "missing-runtime", module);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, file.name), file.content);
      const res = run(python!, ["-S", "-c", `import ${module}`], {
        cwd: dir,
        env: { PYTHONPATH: "" },
      });
      expect(res.code).toBe(1);
      expect(res.out).toContain(
        "ModuleNotFoundError: No module named 'ai_tools_runtime'",
      );
      expect(res.out).toMatch(
        new RegExp(
          `\\nImportError: ${module}\\.py needs the protoc-gen-ai-tools runtime[^\\n]*: ${pipLine.replace(/[[\]]/g, "\\$&")}\\n$`,
        ),
      );
    });
  },
);

describe("python target: options", () => {
  it("rejects a py_package that is not a dotted name", async () => {
    const request = await buildRequest("plain", {
      parameter: "target=py,py_package=my-app",
    });
    expect(() => generate(request)).toThrow(/py_package/);
  });
  it("writes nothing when no method is annotated", async () => {
    const request = await buildRequest("unannotated", {
      parameter: "target=py",
    });
    expect(generate(request)).toEqual([]);
  });
});
