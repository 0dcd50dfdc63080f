// The plugin on real APIs, Google's own protos (test/support/real-apis.ts),
// as a user would run it on them: `tools=all` (they carry no rpc_tool
// options) and `mcp=true`. Every unary and server-streaming method becomes
// a tool, and the files each target writes pass its language's formatter
// and linter: gofmt, ruff format and ruff check. The Go files build and
// pass go vet against the message and gRPC code Google publishes for these
// APIs (cloud.google.com/go/..., the versions of testdata/real-go/go.mod,
// from the Go module proxy); the TypeScript files type-check under the
// strict options with protoc-gen-es output (ts-format.test.ts holds them
// to prettier's output); the Python files import next to grpcio-tools
// output, and the tools file passes mypy --strict with mypy-protobuf's
// stubs.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  CodeGeneratorResponseSchema,
} from "@bufbuild/protobuf/wkt";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import { strictCompilerOptions } from "./support/strict-tsconfig.js";
import { paths } from "./support/request.js";
import {
  realApiProtos,
  realApiRequest,
  realApis,
} from "./support/real-apis.js";
import { mypyArgs, mypyConfig } from "./support/mypy.js";
import { nightly } from "./support/nightly.js";
import { ruffCheckArgs } from "./support/ruff.js";

const repoRoot = resolve(paths.generator, "..");
// Built, type-checked and imported with their languages' own code: every
// API in the nightly run (scripts/nightly.sh large), Secret Manager alone in
// .ci/run's smoke. Every API is generated and formatted in both.
const compiledApis = nightly ? realApis : realApis.slice(0, 1);
const python = join(repoRoot, ".venv", "bin", "python");
const work = mkdtempSync(join(tmpdir(), "ai-tools-real-apis-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Run a command in `cwd`; its stdout, or a failure with all its output. */
function sh(
  cmd: string,
  args: string[],
  cwd = work,
  env: NodeJS.ProcessEnv = {},
): string {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, RUFF_NO_CACHE: "true", ...env },
  });
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}`;
  if (r.status !== 0) {
    expect.fail(`${cmd} ${args.join(" ")} (exit ${r.status}):\n${out}`);
  }
  return r.stdout ?? "";
}

/** The files the plugin writes for `api` and `target`, in `work`. */
function written(api: string, target: string): string[] {
  const request = realApiRequest(api, `target=${target},tools=all,mcp=true`);
  const files = generate(request, () => {});
  const names: string[] = [];
  for (const f of files) {
    const name = `${api.replaceAll("/", "_")}_${f.name}`;
    writeFileSync(join(work, name), f.content);
    names.push(name);
  }
  return names;
}

describe.each(realApis)("%s (Google's protos)", (api) => {
  it("makes every unary and server-streaming method a tool", () => {
    const request = realApiRequest(api, "target=go,tools=all");
    const methods = request.protoFile
      .filter((f) => request.fileToGenerate.includes(f.name))
      .flatMap((f) => f.service.flatMap((s) => s.method))
      .filter((m) => m.clientStreaming !== true);
    const go = generate(request, () => {})[0]!.content;
    const tools = go.match(/^\tName: +"/gm) ?? [];
    expect(methods.length).toBeGreaterThan(10);
    expect(tools.length).toBe(methods.length);
  });

  it("Go: gofmt finds nothing to change", () => {
    const files = written(api, "go");
    expect(files).toHaveLength(2);
    expect(sh("gofmt", ["-l", ...files])).toBe("");
  });

  it("Python: ruff format and ruff check pass", () => {
    ruffClean(written(api, "py"));
  });
});

// Its comments hold a character ruff reports as ambiguous (RUF001: the
// right single quotation mark, as in "model’s"): 13 findings before
// pyQuote escaped such characters.
it("Python of google/ai/generativelanguage/v1beta: ruff format and ruff check pass", () => {
  ruffClean(written("google/ai/generativelanguage/v1beta", "py"));
});

/**
 * ruff format --check and ruff check, with the rules the tests hold every
 * generated Python file to (support/ruff.ts), pass on `files` (in `work`).
 */
function ruffClean(files: string[]): void {
  expect(files).toHaveLength(2);
  sh(python, ["-m", "ruff", "format", "--isolated", "--check", ...files]);
  // The imports of message modules (and the MCP file's of ai_tools_gen)
  // are a block of their own, the user's generated code: first-party to
  // isort, as in a project that generates them (as e2e/py's
  // pyproject.toml says).
  const generated = new Set<string>(["ai_tools_gen"]);
  for (const f of files) {
    const text = readFileSync(join(work, f), "utf8");
    for (const m of text.matchAll(/^from ([\w.]+) import \w+_pb2\b/gm)) {
      // Not the modules of packages: protobuf's and googleapis-common-protos'
      // (google.longrunning of an Operations tool), third-party to isort.
      if (!/^google\.(protobuf|api|longrunning|rpc|type)\b/.test(m[1]!)) {
        generated.add(m[1]!);
      }
    }
  }
  expect(generated.size).toBeGreaterThan(1);
  sh(python, [
    ...ruffCheckArgs,
    "--config",
    `lint.isort.known-first-party=${JSON.stringify([...generated])}`,
    ...files,
  ]);
}

describe("Go, with the packages Google publishes for these APIs", () => {
  it("builds and passes go vet", { timeout: 600_000 }, () => {
    const module = join(work, "real-go");
    mkdirSync(module);
    for (const f of ["go.mod", "go.sum"]) {
      cpSync(join(paths.generator, "testdata", "real-go", f), join(module, f));
    }
    for (const api of compiledApis) {
      const dir = join(module, api.replaceAll("/", "_"));
      mkdirSync(dir);
      const request = realApiRequest(api, "target=go,tools=all,mcp=true");
      for (const f of generate(request, () => {})) {
        writeFileSync(join(dir, f.name), f.content);
      }
    }
    // go.sum must already hold every module the build needs.
    const env = { GOFLAGS: "-mod=readonly" };
    sh("go", ["build", "./..."], module, env);
    sh("go", ["vet", "./..."], module, env);
  });
});

describe("TypeScript, with protoc-gen-es output", () => {
  it("type-checks under the strict options", { timeout: 600_000 }, () => {
    const dir = join(work, "real-ts");
    const nm = join(dir, "node_modules");
    for (const [name, target] of [
      ["@bufbuild/protobuf", join(paths.generator, "node_modules")],
      ["@connectrpc/connect", join(paths.generator, "node_modules")],
      ["@protoc-gen-ai-tools/runtime", undefined],
    ] as const) {
      mkdirSync(join(nm, name, ".."), { recursive: true });
      symlinkSync(
        target === undefined
          ? join(repoRoot, "runtimes", "ts")
          : join(target, name),
        join(nm, name),
      );
    }
    writeFileSync(join(dir, "package.json"), '{"type":"module"}');
    const written: string[] = [];
    for (const api of compiledApis) {
      const request = realApiRequest(
        api,
        "target=ts,tools=all,ts_import_path=..",
      );
      // protoc-gen-es output of the API and everything it imports but the
      // well-known types, which @bufbuild/protobuf has.
      const es = spawnSync(
        join(paths.generator, "node_modules", ".bin", "protoc-gen-es"),
        [],
        {
          input: toBinary(
            CodeGeneratorRequestSchema,
            create(CodeGeneratorRequestSchema, {
              fileToGenerate: request.protoFile
                .map((f) => f.name)
                .filter((name) => !name.startsWith("google/protobuf/")),
              parameter: "target=ts,import_extension=js",
              protoFile: request.protoFile,
            }),
          ),
          maxBuffer: 1 << 28,
        },
      );
      expect(es.status, es.stderr?.toString()).toBe(0);
      const response = fromBinary(CodeGeneratorResponseSchema, es.stdout);
      expect(response.error ?? "").toBe("");
      for (const f of response.file) {
        mkdirSync(dirname(join(dir, f.name)), { recursive: true });
        writeFileSync(join(dir, f.name), f.content);
      }
      const name = `${api.replaceAll("/", "_")}/ai_tools.gen.ts`;
      const [tools] = generate(request, () => {});
      mkdirSync(join(dir, dirname(name)), { recursive: true });
      writeFileSync(join(dir, name), tools!.content);
      written.push(name);
    }
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: strictCompilerOptions,
        files: written,
      }),
    );
    sh(
      join(repoRoot, "node_modules", ".bin", "tsc"),
      ["-p", "tsconfig.json"],
      dir,
    );
  });
});

describe("Python, with grpcio-tools output", () => {
  it(
    "imports, the MCP file too; mypy --strict passes",
    { timeout: 600_000 },
    () => {
      const dir = join(work, "real-py");
      const messages = join(dir, "messages");
      mkdirSync(messages, { recursive: true });
      const wkt = sh(python, [
        "-c",
        "import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), '_proto'), end='')",
      ]);
      const protos = new Set<string>();
      for (const api of compiledApis) {
        const request = realApiRequest(api, "target=py,tools=all,mcp=true");
        for (const f of request.protoFile) {
          if (!f.name.startsWith("google/protobuf/")) {
            protos.add(f.name);
          }
        }
        const own = join(dir, api.replaceAll("/", "_"));
        mkdirSync(own);
        const files = generate(request, () => {});
        expect(files.map((f) => f.name)).toEqual([
          "ai_tools_gen.py",
          "ai_tools_mcp_gen.py",
        ]);
        for (const f of files) {
          writeFileSync(join(own, f.name), f.content);
        }
      }
      sh(python, [
        "-m",
        "grpc_tools.protoc",
        `-I${realApiProtos}`,
        `-I${wkt}`,
        `--plugin=protoc-gen-mypy=${join(dirname(python), "protoc-gen-mypy")}`,
        `--mypy_out=${messages}`,
        `--python_out=${messages}`,
        `--grpc_python_out=${messages}`,
        ...[...protos].sort(),
      ]);
      for (const api of compiledApis) {
        const own = join(dir, api.replaceAll("/", "_"));
        const out = sh(
          python,
          [
            "-c",
            "import ai_tools_gen, ai_tools_mcp_gen; print(len(ai_tools_gen.ALL_TOOLS), end='')",
          ],
          own,
          {
            PYTHONPATH: [
              own,
              messages,
              join(repoRoot, "runtimes", "python", "src"),
            ].join(":"),
            PYTHONDONTWRITEBYTECODE: "1",
          },
        );
        expect(Number(out)).toBeGreaterThan(10);
        writeFileSync(join(own, "mypy.ini"), mypyConfig);
        sh(
          python,
          mypyArgs(join(dir, "mypy-cache"), ["ai_tools_gen.py"]),
          own,
          {
            MYPYPATH: [
              messages,
              join(repoRoot, "runtimes", "python", "src"),
            ].join(":"),
          },
        );
      }
    },
  );
});
