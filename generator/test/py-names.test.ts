import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { protocGenAiTools } from "../src/plugin.js";
import { sortExports } from "../src/targets/py/build-py-view.js";
import { natord, pyImportStatements } from "../src/targets/py/py-imports.js";
import {
  pyImportAlias,
  pyModuleNames,
  pyModuleProblem,
  pyProtoModule,
  pyUpperSnake,
} from "../src/targets/py/py-names.js";
import { pyQuote } from "../src/targets/py/py-quote.js";
import { wellFormed } from "../src/schema/well-formed.js";
import { compileRequest, type ProtoSources } from "./support/compile.js";
import { paths } from "./support/request.js";

// The Python helpers held to Python and ruff themselves: a literal must
// evaluate to its value (ast.literal_eval) and be exactly what `ruff format`
// writes; names must follow the rules the generated module relies on.

const repoRoot = resolve(paths.generator, "..");
const venvPython =
  (process.env.AI_TOOLS_PYTHON ?? "") !== ""
    ? process.env.AI_TOOLS_PYTHON!
    : join(repoRoot, ".venv", "bin", "python");
const hasVenv = existsSync(venvPython);

const tricky = [
  "",
  "plain",
  'quote " and back \\ slash',
  "single ' quote",
  `both " and ' quotes`,
  `more "double" than 'single' "`,
  `more 'single' than "double" '`,
  '"""triple double"""',
  "'''triple single'''",
  '"',
  "'",
  "\\",
  "ends with a backslash \\",
  "<b> & </b> {{.}} ${x} %s",
  "tab\there\nnew line\r\u0007\b\f\v",
  "\u0000\u001f\u007f\u0080\u009f",
  "unicode é ü 漢字 🙂 café ☕ 日本語",
  "\u00a0nbsp \u2028 line sep \u2029 para sep \u200b zwsp \ufeff bom \u202e rtl",
  "\u0301 combining, \u{1f1eb}\u{1f1f7} flag, \u{e0001} tag, \u{10ffff} last",
  "private \ue000 and unassigned \u0378",
  "lone \ud800 surrogate \udfff",
  "\\N{BULLET} is not an escape here, nor \\x41 or \\u0041",
  "{'not': \"a dict\"}",
  "x" + "y".repeat(300),
  // Characters ruff reports as ambiguous (RUF001), alone and in words.
  "en – dash, “curly” quotes, ‘single’, minus −, × times",
  "Привет мир, а, vаlue, Ωmega, 𝐀bc",
  "line\nПривет, tab\tΑλφα",
];

function samples(): string[] {
  return [
    ...tricky,
    ...fc.sample(fc.string({ unit: "binary", maxLength: 40 }), {
      numRuns: 300,
      seed: 5,
    }),
    ...fc.sample(
      fc.string({
        unit: fc.constantFrom('"', "'", "\\", "a", " ", "\n", "é", "🙂"),
        maxLength: 12,
      }),
      { numRuns: 200, seed: 9 },
    ),
    ...fc.sample(
      fc.string({
        unit: fc.constantFrom(
          "a",
          "1",
          " ",
          "\n",
          "–",
          "“",
          "а",
          "р",
          "П",
          "é",
          "Ω",
          "𝐀",
          "\u00a0",
        ),
        maxLength: 12,
      }),
      { numRuns: 300, seed: 11 },
    ),
  ].map(wellFormed); // model text is well-formed
}

function python(args: string[], input?: string): string {
  const r = spawnSync(venvPython, args, {
    input,
    encoding: "utf8",
    maxBuffer: 1 << 26,
    env: { ...process.env, RUFF_NO_CACHE: "true" },
  });
  if (r.status !== 0) {
    throw new Error(`python ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  }
  return r.stdout;
}

describe("pyQuote", () => {
  it("uses ruff's quote and lower-case escapes, and escapes only what it must", () => {
    expect(pyQuote("plain")).toBe('"plain"');
    expect(pyQuote('say "hi"')).toBe(`'say "hi"'`);
    expect(pyQuote(`it's "x"`)).toBe(`'it\\'s "x"'`);
    expect(pyQuote(`it's`)).toBe(`"it's"`);
    expect(pyQuote("a\\b\nc")).toBe('"a\\\\b\\nc"');
    expect(pyQuote("\u0000\u007f\u2028\u00a0")).toBe(
      '"\\x00\\x7f\\u2028\\xa0"',
    );
    expect(pyQuote("é漢🙂")).toBe('"é漢🙂"');
    expect(pyQuote("\u{e0001}")).toBe('"\\U000e0001"');
  });

  it("escapes the characters ruff reports as ambiguous, and only those", () => {
    // Not a letter or digit: escaped wherever it stands.
    expect(pyQuote("a – b ‘c’ “d” — ×")).toBe(
      '"a \\u2013 b \\u2018c\\u2019 “d” — \\xd7"',
    );
    // A Cyrillic "а" alone, or in a word with ASCII letters, is reported;
    // a Russian word with an unambiguous letter is not…
    expect(pyQuote("а vаlue Привет")).toBe('"\\u0430 v\\u0430lue Привет"');
    // …unless an escape's last hex digit (ASCII) joins it.
    expect(pyQuote("\nПривет")).toBe('"\\nП\\u0440ив\\u0435т"');
    expect(pyQuote("𝐀bc é 漢")).toBe('"\\U0001d400bc é 漢"');
  });

  it.runIf(hasVenv)("knows the ambiguous characters of the pinned ruff", () => {
    const r = spawnSync(
      process.execPath,
      [join(paths.generator, "scripts", "py-confusables.mjs"), "--check"],
      {
        encoding: "utf8",
        env: { ...process.env, AI_TOOLS_PYTHON: venvPython },
      },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it.runIf(hasVenv)(
    "evaluates to the value in Python, and is what ruff format writes",
    () => {
      const inputs = samples();
      const dir = mkdtempSync(join(tmpdir(), "ai-tools-pyquote-"));
      try {
        // One keyword argument per input, as the generated module holds
        // its strings; ruff format --check must find nothing to change, so
        // every literal is exactly ruff's.
        const module =
          "values = dict(\n" +
          inputs.map((s, i) => `    v${i}=${pyQuote(s)},\n`).join("") +
          ")\n";
        writeFileSync(join(dir, "m.py"), module, "utf8");
        writeFileSync(join(dir, "in.json"), JSON.stringify(inputs), "utf8");
        python([
          "-m",
          "ruff",
          "format",
          "--isolated",
          "--check",
          "--diff",
          join(dir, "m.py"),
        ]);
        // Nor does ruff check find an ambiguous character (RUF001).
        python([
          "-m",
          "ruff",
          "check",
          "--isolated",
          "--select",
          "RUF001",
          join(dir, "m.py"),
        ]);
        // Compare code point by code point: JSON cannot carry lone
        // surrogates both ways, code points can.
        const check = String.raw`
import ast, json, sys
src = open(sys.argv[1], encoding="utf-8", errors="surrogatepass").read()
want = json.load(open(sys.argv[2], encoding="utf-8"))
got = {}
for kw in ast.parse(src).body[0].value.keywords:
    got[kw.arg] = ast.literal_eval(kw.value)
bad = []
for i, w in enumerate(want):
    g = got["v%d" % i]
    if [ord(c) for c in g] != [ord(c) for c in w]:
        bad.append([i, [ord(c) for c in w], [ord(c) for c in g]])
print(json.dumps({"n": len(got), "bad": bad[:5]}))
`;
        writeFileSync(join(dir, "check.py"), check);
        const result = JSON.parse(
          python([
            join(dir, "check.py"),
            join(dir, "m.py"),
            join(dir, "in.json"),
          ]),
        ) as { n: number; bad: unknown[] };
        expect(result.bad).toEqual([]);
        expect(result.n).toBe(inputs.length);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("python names", () => {
  it("writes tool names in UPPER_SNAKE_CASE", () => {
    expect(pyUpperSnake("page_themes_update")).toBe("PAGE_THEMES_UPDATE");
    expect(pyUpperSnake("links-get")).toBe("LINKS_GET");
    expect(pyUpperSnake("getHTTPLink2Now")).toBe("GET_HTTP_LINK2_NOW");
    expect(pyUpperSnake("__a-b_")).toBe("A_B");
    expect(pyUpperSnake("ping")).toBe("PING");
  });

  it("names modules as grpcio-tools does, and their import names apart", () => {
    expect(pyProtoModule("linkhub/v1/links.proto")).toBe(
      "linkhub.v1.links_pb2",
    );
    expect(pyProtoModule("my-api/v1/the-links.proto")).toBe(
      "my_api.v1.the_links_pb2",
    );
    expect(pyImportAlias("linkhub.v1.links_pb2")).toBe(
      "linkhub_dot_v1_dot_links__pb2",
    );
    expect(pyImportAlias("a_b.c_pb2")).not.toBe(pyImportAlias("a.b_c_pb2"));
    expect(pyModuleProblem("class.v1.x_pb2")).toMatch(/keyword/);
    expect(pyModuleProblem("v1.2x_pb2")).toMatch(/not a Python identifier/);
    expect(pyModuleProblem("match.type.x_pb2")).toBeUndefined();
  });

  it("imports modules under short names a person would write, unique and deterministic", () => {
    const modules = [
      "temporal.api.workflowservice.v1.request_response_pb2",
      "temporal.api.operatorservice.v1.request_response_pb2",
      "temporal.api.common.v1.message_pb2",
      "google.protobuf.empty_pb2",
      "links.v1.links_pb2",
      "links.v1.links_service_pb2",
      "acme.v1.x_pb2",
      "acme.v2.x_pb2",
      "other.acme.v1.x_pb2",
      "root_pb2",
      "v1.only_pb2",
    ];
    const names = pyModuleNames(modules);
    expect(Object.fromEntries(names)).toEqual({
      "temporal.api.workflowservice.v1.request_response_pb2":
        "workflowservice_request_response_pb2",
      "temporal.api.operatorservice.v1.request_response_pb2":
        "operatorservice_request_response_pb2",
      "temporal.api.common.v1.message_pb2": "common_message_pb2",
      "google.protobuf.empty_pb2": "empty_pb2",
      "links.v1.links_pb2": "links_pb2",
      "links.v1.links_service_pb2": "links_service_pb2",
      // One package, two versions: the version tells them apart; a third
      // in another tree takes one more directory.
      "acme.v1.x_pb2": "acme_v1_x_pb2",
      "acme.v2.x_pb2": "acme_v2_x_pb2",
      "other.acme.v1.x_pb2": "other_acme_v1_x_pb2",
      root_pb2: "root_pb2",
      "v1.only_pb2": "v1_only_pb2",
    });
    // The order of the input changes nothing.
    expect(pyModuleNames([...modules].reverse())).toEqual(names);
    // Names equal after "." → "_" fall back to grpcio-tools' escaping.
    const clash = pyModuleNames([
      "a_b.c_pb2",
      "a.b_c_pb2",
      "empty_pb2",
      "google.protobuf.empty_pb2",
    ]);
    expect(new Set(clash.values()).size).toBe(4);
    expect(clash.get("google.protobuf.empty_pb2")).toBe("protobuf_empty_pb2");
    // Random module sets: always unique identifiers ending in _pb2.
    const part = fc.constantFrom(
      "a",
      "b",
      "a_b",
      "v1",
      "v2",
      "x",
      "api",
      "v1beta1",
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc
            .array(part, { minLength: 0, maxLength: 4 })
            .chain((dirs) => part.map((f) => [...dirs, `${f}_pb2`].join("."))),
          { maxLength: 12 },
        ),
        (mods) => {
          const got = pyModuleNames(mods);
          const values = [...got.values()];
          expect(new Set(values).size).toBe(mods.length);
          for (const v of values) expect(v).toMatch(/^[a-z][a-z0-9_]*_pb2$/);
        },
      ),
      { numRuns: 300, seed: 3 },
    );
  });

  it("sorts natural runs of digits as numbers, as natord does", () => {
    const sorted = ["a10", "a9", "a.v1", "a1.x", "a_b", "a09", "a1"].sort(
      natord,
    );
    expect(sorted).toEqual(["a.v1", "a09", "a1", "a1.x", "a9", "a10", "a_b"]);
  });

  it.runIf(hasVenv)(
    "writes import statements as ruff's isort sorts and ruff format wraps them",
    () => {
      const member = fc.constantFrom(
        "a_pb2",
        "b_pb2",
        "Zeta_pb2",
        "ZZ_pb2",
        "a10_pb2",
        "a9_pb2",
        "request_response_pb2",
      );
      const parent = fc.constantFrom(
        "google.protobuf",
        "a.b",
        "a.B",
        "a.b.c",
        "a.b1",
        "a.b_c",
        "temporal.api.workflowservice.v1",
        "a.v10",
        "a.v2",
      );
      const imports = fc.sample(
        fc.uniqueArray(
          fc.record({
            parent: fc.option(parent, { nil: undefined }),
            member,
            alias: fc.option(
              fc.constantFrom(
                "x_pb2",
                "workflowservice_request_response_pb2",
                "long_alias_name_that_overflows_the_line_pb2",
              ),
              { nil: undefined },
            ),
          }),
          {
            minLength: 1,
            maxLength: 10,
            selector: (i) => `${i.parent}.${i.member}`,
          },
        ),
        { numRuns: 25, seed: 17 },
      );
      const dir = mkdtempSync(join(tmpdir(), "ai-tools-py-imports-"));
      try {
        imports.forEach((list, n) => {
          // Each local name once: the alias, made unique by its position.
          const bound = list.map((i, k) => ({
            module:
              i.parent === undefined ? i.member : `${i.parent}.${i.member}`,
            name:
              i.alias === undefined
                ? i.member
                : `${i.alias.replace(/_pb2$/, "")}${k}_pb2`,
          }));
          const names = [...new Set(bound.map((b) => b.name))];
          if (names.length !== bound.length) return;
          const source = `${pyImportStatements(bound).join("\n")}\n\n__all__ = [\n${names.map((x) => `    ${JSON.stringify(x)},\n`).join("")}]\n`;
          writeFileSync(join(dir, `case_${n}.py`), source);
        });
        python([
          "-m",
          "ruff",
          "check",
          "--isolated",
          "--no-cache",
          "--select",
          "I",
          dir,
        ]);
        python([
          "-m",
          "ruff",
          "format",
          "--isolated",
          "--check",
          "--diff",
          "--line-length",
          "88",
          dir,
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("orders __all__ as ruff's RUF022 does", () => {
    expect(
      sortExports([
        "all_tools",
        "Executor",
        "LINKS_GET",
        "AgentTool",
        "A10",
        "A9",
      ]),
    ).toEqual(["A9", "A10", "LINKS_GET", "AgentTool", "Executor", "all_tools"]);
    // A one-letter name is not a CONSTANT for RUF022: it sorts as a class.
    expect(
      sortExports(["B", "AgentTool", "A", "ALL_TOOLS", "all_tools"]),
    ).toEqual(["ALL_TOOLS", "A", "AgentTool", "B", "all_tools"]);
  });
});

function header(pkg: string): string {
  return `syntax = "proto3";
package ${pkg};
import "ai/tools/v1/annotations.proto";
message Req { string id = 1; }
message Res { string id = 1; }
`;
}

function rpc(method: string, name: string, extra = ""): string {
  return `  rpc ${method}(Req) returns (Res) {
    option (ai.tools.v1.rpc_tool) = {name: "${name}", description: "d" ${extra}};
  }\n`;
}

function run(sources: ProtoSources, parameter = "target=py") {
  const res = protocGenAiTools.run(compileRequest(sources, parameter));
  return { error: res.error, files: res.file.map((f) => f.name) };
}

describe("python target: refused at generation", () => {
  it("refuses a tool whose constant is one of the module's own names", () => {
    const { error, files } = run({
      "a/v1/a.proto":
        header("a.v1") +
        `service S {\n${rpc("All", "all_tools")}${rpc("Cfg", "alias-config")}${rpc("Ok", "ok")}}\n`,
    });
    expect(files).toEqual([]);
    expect(error).toBe(
      [
        'a/v1/a.proto: S.All: tool name "all_tools" becomes the Python constant ALL_TOOLS, which ai_tools_gen.py already defines; rename the tool, or leave it out with exclude=a.v1.S.All',
        'a/v1/a.proto: S.Cfg: tool name "alias-config" becomes the Python constant ALIAS_CONFIG, which ai_tools_gen.py already defines; rename the tool, or leave it out with exclude=a.v1.S.Cfg',
      ].join("\n"),
    );
  });

  it("refuses tools whose constants collide", () => {
    const { error } = run({
      "a/v1/a.proto":
        header("a.v1") +
        `service S {\n${rpc("A", "links_get")}${rpc("B", "linksGet")}${rpc("C", "links-get")}}\n`,
    });
    expect(error).toBe(
      [
        // Tools are visited in name order: "links-get" comes first.
        'a/v1/a.proto: S.A: tool name "links_get" becomes the Python constant LINKS_GET, as does tool "links-get" (S.C in a/v1/a.proto); rename one of them, or leave one out with exclude=a.v1.S.A',
        'a/v1/a.proto: S.B: tool name "linksGet" becomes the Python constant LINKS_GET, as does tool "links-get" (S.C in a/v1/a.proto); rename one of them, or leave one out with exclude=a.v1.S.B',
      ].join("\n"),
    );
  });

  it("refuses an executor whose module Python cannot import", () => {
    const { error } = run({
      "class/v1/a.proto":
        header("klass.v1") +
        `service S {\n${rpc("A", "a", "auto_execute: true")}}\n`,
    });
    expect(error).toBe(
      'class/v1/a.proto: S.A: the Python executor of tool "a" imports the request type klass.v1.Req from module class.v1.a_pb2 (of class/v1/a.proto), which Python cannot import: "class" is a Python keyword; rename the file or its directories',
    );
    // A tool without an executor imports nothing: fine.
    expect(
      run({
        "class/v1/a.proto":
          header("klass.v1") + `service S {\n${rpc("A", "a")}}\n`,
      }).files,
    ).toEqual(["ai_tools_gen.py"]);
  });

  it("refuses a request message named like a Python keyword", () => {
    const { error } = run({
      "a/v1/a.proto": `syntax = "proto3";
package a.v1;
import "ai/tools/v1/annotations.proto";
message None { string id = 1; }
service S {
  rpc A(None) returns (None) {
    option (ai.tools.v1.rpc_tool) = {name: "a", description: "d", auto_execute: true};
  }
}
`,
    });
    expect(error).toContain(
      'a/v1/a.proto: S.A: the Python executor of tool "a" needs the request type a.v1.None, but "None" is a Python keyword; rename the message',
    );
  });

  it("needs no go_package", () => {
    const { error, files } = run({
      "a/v1/a.proto":
        header("a.v1") +
        `service S {\n${rpc("A", "a", "auto_execute: true")}}\n`,
    });
    expect(error ?? "").toBe("");
    expect(files).toEqual(["ai_tools_gen.py"]);
  });
});
