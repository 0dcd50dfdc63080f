// The TypeScript target against the Go target and the TypeScript toolchain:
//
// - parity: for every golden case, the tools the generated ai_tools.gen.ts
//   exports at run time (name, description, strict, parameters) equal the
//   Go target's, read from the generated ai_tools.gen.go (Go literals
//   unquoted, schemas compared as parsed JSON);
// - the generated file (and, with mcp=true, the MCP file) compiles with
//   real protoc-gen-es output under tsc --strict,
//   exactOptionalPropertyTypes, noUncheckedIndexedAccess, noUnusedLocals
//   and verbatimModuleSyntax;
// - `prettier --check` passes on it.
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { clone, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  CodeGeneratorResponseSchema,
  type CodeGeneratorRequest,
} from "@bufbuild/protobuf/wkt";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import { modelOf } from "./support/model.js";
import { buildRequest, caseOptions, goldenCases } from "./support/request.js";
import { strictCompilerOptions } from "./support/strict-tsconfig.js";

const generatorDir = resolve(import.meta.dirname, "..");
const repoRoot = resolve(generatorDir, "..");
const tsc = join(repoRoot, "node_modules", ".bin", "tsc");
const prettier = join(repoRoot, "node_modules", ".bin", "prettier");
const protocGenEs = join(generatorDir, "node_modules", ".bin", "protoc-gen-es");
const realRuntime = join(repoRoot, "runtimes", "ts");
const useRealRuntime = existsSync(join(realRuntime, "dist", "index.d.ts"));

interface ToolFacts {
  name: string;
  description: string;
  strict: boolean;
  parameters: unknown;
}

/** A Go interpreted string literal's value (what strconv.Quote writes). */
function goUnquote(lit: string): string {
  const body = lit.slice(1, -1);
  let out = "";
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length > 0) {
      out += Buffer.from(bytes).toString("utf8");
      bytes = [];
    }
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      flush();
      out += c;
      continue;
    }
    const e = body[++i]!;
    const simple: Record<string, string> = {
      '"': '"',
      "\\": "\\",
      n: "\n",
      r: "\r",
      t: "\t",
      a: "\x07",
      b: "\b",
      f: "\f",
      v: "\v",
      "'": "'",
    };
    if (e in simple) {
      flush();
      out += simple[e];
    } else if (e === "x") {
      bytes.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (e === "u" || e === "U") {
      flush();
      const n = e === "u" ? 4 : 8;
      out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 1 + n), 16));
      i += n;
    } else {
      throw new Error(`unexpected Go escape \\${e} in ${lit}`);
    }
  }
  flush();
  return out;
}

const goString = String.raw`"(?:[^"\\]|\\.)*"`;
const goToolRe = new RegExp(
  String.raw`var \w+ = AgentTool\{\n\tName: +(${goString}),\n\tDescription: +(${goString}),\n\tStrict: +(true|false),\n\tParameters: +json\.RawMessage\((${goString})\),\n\}`,
  "g",
);

/** The tools of a generated Go file, in file (= name) order. */
function goTools(source: string): ToolFacts[] {
  return [...source.matchAll(goToolRe)].map((m) => ({
    name: goUnquote(m[1]!),
    description: goUnquote(m[2]!),
    strict: m[3] === "true",
    parameters: JSON.parse(goUnquote(m[4]!)) as unknown,
  }));
}

/** Run protoc-gen-es on every non-WKT file of a request; returns its files. */
function protocGenEsFiles(
  request: CodeGeneratorRequest,
): { name: string; content: string }[] {
  const req = clone(CodeGeneratorRequestSchema, request);
  req.parameter = "target=ts,import_extension=js";
  req.fileToGenerate = req.protoFile
    .map((f) => f.name)
    .filter((n) => !n.startsWith("google/protobuf/"));
  const r = spawnSync(protocGenEs, [], {
    input: toBinary(CodeGeneratorRequestSchema, req),
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) {
    throw new Error(`protoc-gen-es failed: ${r.stderr.toString()}`);
  }
  const res = fromBinary(CodeGeneratorResponseSchema, r.stdout);
  if ((res.error ?? "") !== "") {
    throw new Error(`protoc-gen-es: ${res.error}`);
  }
  return res.file.map((f) => ({ name: f.name, content: f.content }));
}

interface CaseOutput {
  dir: string;
  goSource: string;
  hasExecutors: boolean;
  /** The MCP file's service functions (mcp=true), e.g. `NoteService`. */
  mcpServices: string[];
  /** The model's registration tables, as the vectors' JSON writes them. */
  responseAliases: unknown;
}

let root: string;
const outputs = new Map<string, CaseOutput>();
const cases = goldenCases();

function link(target: string, at: string): void {
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "ai-tools-ts-"));
  const nm = join(root, "node_modules");
  for (const pkg of [
    "@bufbuild/protobuf",
    "@bufbuild/protovalidate",
    "@connectrpc/connect",
  ]) {
    link(join(generatorDir, "node_modules", pkg), join(nm, pkg));
  }
  if (!useRealRuntime) {
    throw new Error(
      "runtimes/ts is not built: run `pnpm build` (turbo builds it before these tests)",
    );
  }
  link(realRuntime, join(nm, "@protoc-gen-ai-tools", "runtime"));
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ type: "module", private: true }),
  );
  for (const c of cases) {
    const goRequest = await buildRequest(c, { parameter: "target=go" });
    const goFiles = generate(goRequest);
    const tsRequest = clone(CodeGeneratorRequestSchema, goRequest);
    // The case's options without its target=go ones (go-options.txt).
    tsRequest.parameter = ["target=ts", caseOptions(c)]
      .filter((p) => p !== "")
      .join(",");
    const tsFiles = generate(tsRequest);
    expect(tsFiles.length, `case ${c}`).toBe(goFiles.length);
    if (tsFiles.length === 0) {
      continue;
    }
    const dir = join(root, c);
    for (const f of [...tsFiles, ...protocGenEsFiles(goRequest)]) {
      mkdirSync(dirname(join(dir, f.name)), { recursive: true });
      writeFileSync(join(dir, f.name), f.content);
    }
    const model = modelOf(goRequest);
    outputs.set(c, {
      dir,
      goSource: goFiles[0]!.content,
      hasExecutors: model.hasExecutors,
      mcpServices: tsFiles.some((f) => f.name === "ai_tools_mcp.gen.ts")
        ? model.mcpServices.map((m) => m.name)
        : [],
      responseAliases: {
        types: Object.fromEntries(
          model.responseAliasTypes.map(([name, fields]) => [
            name,
            fields.map((f) => ({
              field: f.field,
              ...(f.prefix !== "" ? { prefix: f.prefix } : {}),
              ...(f.message !== "" ? { message: f.message } : {}),
              ...(f.map ? { map: true } : {}),
            })),
          ]),
        ),
        tools: Object.fromEntries(model.toolResponseAliases),
      },
    });
  }
}, 120_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

/** Import a generated ai_tools.gen.ts, transpiled to JavaScript next to it. */
async function importGenerated(dir: string): Promise<Record<string, unknown>> {
  const source = ts.sys.readFile(join(dir, "ai_tools.gen.ts"))!;
  const js = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
  }).outputText;
  writeFileSync(join(dir, "ai_tools.gen.js"), js);
  return (await import(
    pathToFileURL(join(dir, "ai_tools.gen.js")).href
  )) as Record<string, unknown>;
}

describe("TypeScript target: parity with the Go target", () => {
  it("covers the golden cases", () => {
    expect(outputs.size).toBeGreaterThanOrEqual(cases.length - 1);
  });

  for (const c of cases) {
    it(`${c}: names, descriptions, strict flags and schemas equal the Go file's`, async () => {
      const out = outputs.get(c);
      if (out === undefined) return; // no annotated method: neither writes a file
      const want = goTools(out.goSource);
      expect(want.length).toBeGreaterThan(0);
      const mod = await importGenerated(out.dir);
      const allTools = mod["allTools"] as () => ToolFacts[];
      const got = allTools().map((t) => ({
        name: t.name,
        description: t.description,
        strict: t.strict,
        parameters: t.parameters,
      }));
      expect(got).toEqual(want);
      // Every exported tool constant is in allTools(), and nothing else.
      const constants = Object.values(mod).filter(
        (v) => typeof v === "object" && v !== null && "parameters" in v,
      );
      expect(new Set(constants)).toEqual(new Set(allTools()));
      expect(typeof mod["createExecutor"]).toBe(
        out.hasExecutors ? "function" : "undefined",
      );
      // The registration tables are the model's, as every target writes them.
      expect(mod["responseAliases"]).toEqual(out.responseAliases);
    });
  }
});

describe("TypeScript target: toolchain checks", () => {
  it(`compiles with protoc-gen-es output under tsc --strict (runtime: runtimes/ts)`, () => {
    const files: string[] = [];
    for (const [c, out] of outputs) {
      files.push(`${c}/ai_tools.gen.ts`);
      // A user of the file: every export typed as the contract says.
      writeFileSync(
        join(out.dir, "use.ts"),
        `${out.hasExecutors ? 'import type { Transport } from "@connectrpc/connect";\nimport { createAliasManager } from "@protoc-gen-ai-tools/runtime";\n' : ""}import type { ResponseAliasField, ResponseAliasTool } from "@protoc-gen-ai-tools/runtime";
import type { AgentTool } from "./ai_tools.gen.js";
import * as gen from "./ai_tools.gen.js";
export const tools: AgentTool[] = gen.allTools();
export const types: Readonly<Record<string, readonly ResponseAliasField[]>> = gen.responseAliases.types;
export const owners: Readonly<Record<string, ResponseAliasTool>> = gen.aliasConfig.responseAliases.tools;
export const prefixes: readonly string[] = gen.aliasConfig.knownAliasPrefixes;
${out.hasExecutors ? "export const run = (t: Transport) => gen.createExecutor(t).execute('x', '{}');\nexport const shared = (t: Transport) => gen.createExecutor(t, { aliasManager: createAliasManager(gen.aliasConfig) });\n" : ""}`,
      );
      files.push(`${c}/use.ts`);
      if (out.mcpServices.length > 0) {
        // The MCP file (mcp=true), forwarding and in process.
        writeFileSync(
          join(out.dir, "use-mcp.ts"),
          `import type { Transport } from "@connectrpc/connect";
import { createMcpToolServer } from "@protoc-gen-ai-tools/runtime/mcp";
import * as mcp from "./ai_tools_mcp.gen.js";
export function serve(t: Transport) {
  const server = createMcpToolServer({ name: "x" });
${out.mcpServices.map((s) => `  mcp.forwardTo${s}Client(server, t);\n  mcp.register${s}Handler(server, {}, { namePrefix: "p_" });\n`).join("")}  return server.listTools();
}
`,
        );
        files.push(`${c}/ai_tools_mcp.gen.ts`, `${c}/use-mcp.ts`);
      }
    }
    writeFileSync(
      join(root, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: strictCompilerOptions,
        files,
      }),
    );
    const r = spawnSync(tsc, ["-p", "tsconfig.json"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("passes prettier --check", () => {
    const files = [...outputs].flatMap(([c, out]) => [
      `${c}/ai_tools.gen.ts`,
      ...(out.mcpServices.length > 0 ? [`${c}/ai_tools_mcp.gen.ts`] : []),
    ]);
    const out = execFileSync(prettier, ["--check", "--no-config", ...files], {
      cwd: root,
      encoding: "utf8",
    });
    expect(out).toContain("All matched files use Prettier code style!");
  });
});
