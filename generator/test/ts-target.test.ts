import { runInThisContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generate, protocGenAiTools } from "../src/plugin.js";
import { formatTs } from "../src/targets/ts/build-ts-view.js";
import type { JsonValue } from "../src/schema/json-schema.js";
import { wellFormed } from "../src/schema/well-formed.js";
import { tsKey, tsLiteral, tsString } from "../src/targets/ts/ts-literal.js";
import { tsCamelCase } from "../src/targets/ts/ts-names.js";
import { compileRequest } from "./support/compile.js";

/** The value of a TypeScript/JavaScript expression. */
function evaluate(expr: string): unknown {
  return runInThisContext(`"use strict"; (${expr});`) as unknown;
}

const tricky = [
  "",
  "plain",
  'quote " and back \\ slash',
  'single \' and "double" and `back` quotes',
  "template ${injection} and $ and { and $${x}",
  "</script><!-- -->",
  "tab\there\nnew line\r\u0007\b\f\v\u0000\u001f\u007f\u0085\u009f",
  "\u2028 line sep \u2029 para sep \ufeff bom \u200b zwsp",
  "unicode é ü 漢字 🙂 \u{1f1eb}\u{1f1f7}",
  "lone \ud800 high, lone \udc00 low, reversed \udc00\ud800",
  "\\u0041 is not A, \\x41 neither, \\${ neither",
  "*/ ends a comment, /* starts one",
  "'\"'\"'",
];

describe("tsString", () => {
  it("evaluates to the string for tricky and random model text", () => {
    // Model text is well-formed (wellFormed): lone surrogates are U+FFFD.
    const inputs = [
      ...tricky,
      ...fc.sample(fc.string({ unit: "binary", maxLength: 40 }), {
        numRuns: 500,
        seed: 11,
      }),
    ].map(wellFormed);
    for (const s of inputs) {
      const lit = tsString(s);
      expect(evaluate(lit), lit).toBe(s);
      // Nothing a file or an editor could misread stays raw.
      expect(lit).not.toMatch(
        // eslint-disable-next-line no-control-regex -- the test looks for raw control characters
        /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]|\$\{/,
      );
      expect(lit.slice(1, -1)).not.toMatch(/(^|[^\\])(\\\\)*"/);
    }
  });

  it("keeps its value through prettier, which may change the quotes", () => {
    const inputs = tricky.map(wellFormed);
    const source = inputs
      .map((s, i) => `export const s${i} = ${tsString(s)};\n`)
      .join("");
    const formatted = formatTs(source);
    const values = evaluate(
      `(() => { ${formatted.replace(/export const/g, "const")}; return [${inputs.map((_, i) => `s${i}`).join(", ")}]; })()`,
    );
    expect(values).toEqual(inputs);
    // A string with more double than single quotes: prettier switches to
    // single quotes, still the same value (checked above).
    expect(formatted).toContain(`'quote " and back \\\\ slash'`);
  });
});

describe("tsKey and tsLiteral", () => {
  it("write __proto__ as an own property, not the prototype", () => {
    expect(tsKey("__proto__")).toBe('["__proto__"]');
    const value = JSON.parse(
      '{"__proto__":{"type":"string"},"a-b":1,"ok":[true,null,-1.5e-7]}',
    ) as JsonValue;
    const obj = evaluate(tsLiteral(value)) as Record<string, unknown>;
    expect(Object.keys(obj)).toEqual(["__proto__", "a-b", "ok"]);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(obj).toEqual(value);
    expect(JSON.stringify(obj)).toBe(JSON.stringify(value));
  });
});

describe("tsCamelCase", () => {
  it("lower-cases the first part and upper-cases the others", () => {
    expect(tsCamelCase("page_themes_update")).toBe("pageThemesUpdate");
    expect(tsCamelCase("Greet_Loudly")).toBe("greetLoudly");
    expect(tsCamelCase("__greet__twice_")).toBe("greetTwice");
    expect(tsCamelCase("links-get")).toBe("linksGet");
    expect(tsCamelCase("ping")).toBe("ping");
  });
});

const header = `syntax = "proto3";
package acme.v1;
import "ai/tools/v1/annotations.proto";
message Req { string id = 1; }
message Resp { string id = 1; }
`;

function service(name: string, tools: string[], autoExecute = false): string {
  return (
    `service ${name} {\n` +
    tools
      .map(
        (t, i) =>
          `  rpc M${i}(Req) returns (Resp) { option (ai.tools.v1.rpc_tool) = { name: ${JSON.stringify(t)} description: "d" auto_execute: ${autoExecute} }; }\n`,
      )
      .join("") +
    "}\n"
  );
}

function runTs(sources: Record<string, string>, parameter = "target=ts") {
  return protocGenAiTools.run(compileRequest(sources, parameter));
}

describe("target=ts: refused tool names", () => {
  const cases: [string, string[], string[]][] = [
    [
      "two names with one camelCase",
      ["links_create", "linksCreate"],
      [
        // Tools are taken in name byte order: "linksCreate" comes first.
        'acme/v1/a.proto: S.M0: tool name "links_create" becomes the TypeScript constant linksCreate, as does tool "linksCreate" (S.M1 in acme/v1/a.proto); rename one of them',
      ],
    ],
    [
      "a name the file declares",
      ["all_tools", "create_executor", "response_aliases", "aliasConfig"],
      [
        'acme/v1/a.proto: S.M0: tool name "all_tools" becomes the TypeScript constant allTools, which the generated file already declares or imports; rename the tool',
        "createExecutor, which the generated file already declares",
        "responseAliases, which the generated file already declares",
        "aliasConfig, which the generated file already declares",
      ],
    ],
    [
      "an imported name",
      ["runtime_create_executor"],
      [
        "runtimeCreateExecutor, which the generated file already declares or imports",
      ],
    ],
    [
      "reserved words",
      ["delete", "new_", "await", "undefined"],
      [
        'S.M0: tool name "delete" becomes the TypeScript constant delete, which is a reserved word; rename the tool',
        'tool name "new_" becomes the TypeScript constant new, which is a reserved word',
        "constant await, which is a reserved word",
        "constant undefined, which is a reserved word",
      ],
    ],
    [
      "no valid identifier",
      ["_1st"],
      [
        'S.M0: tool name "_1st" gives the TypeScript identifier "1st", which is not valid',
      ],
    ],
  ];
  for (const [what, tools, parts] of cases) {
    it(what, () => {
      const res = runTs({ "acme/v1/a.proto": header + service("S", tools) });
      expect(res.file).toHaveLength(0);
      for (const p of parts) expect(res.error).toContain(p);
    });
  }

  it("lets the Go target keep names only TypeScript refuses", () => {
    const res = protocGenAiTools.run(
      compileRequest(
        {
          "acme/v1/a.proto":
            header.replace(
              "package acme.v1;",
              'package acme.v1;\noption go_package = "example.com/acme/v1;acmev1";',
            ) + service("S", ["delete"]),
        },
        "target=go",
      ),
    );
    expect(res.error ?? "").toBe("");
  });
});

describe("target=ts: method names", () => {
  it("refers to a method by the name protobuf-es gives it, escaped when JavaScript reserves it", () => {
    // protobuf-es: the first letter lower-cased, then "$" after a name
    // an object property cannot take (constructor, toString, toJSON,
    // valueOf), as its generated descriptors key the methods.
    const rpcs = ["ToString", "Constructor", "ToJSON", "ValueOf", "GetLink"];
    const proto =
      header +
      "service S {\n" +
      rpcs
        .map(
          (m) =>
            `  rpc ${m}(Req) returns (Resp) { option (ai.tools.v1.rpc_tool) = { name: "${m.toLowerCase()}_tool" description: "d" auto_execute: true }; }\n`,
        )
        .join("") +
      "}\n";
    const files = generate(
      compileRequest({ "acme/v1/a.proto": proto }, "target=ts"),
    );
    const src = files[0]!.content;
    for (const local of [
      "toString$",
      "constructor$",
      "toJSON$",
      "valueOf$",
      "getLink",
    ]) {
      expect(src).toContain(`method: S.method.${local},`);
    }
  });
});

describe("target=ts: imports", () => {
  it("imports services from ts_import_path, renaming clashes", () => {
    const other = header.replace("acme.v1", "other.v1");
    const files = generate(
      compileRequest(
        {
          "acme/v1/a.proto": header + service("LinkService", ["a_get"], true),
          "other/v1/b.proto": other + service("LinkService", ["b_get"], true),
        },
        "target=ts,ts_import_path=../es",
      ),
    );
    expect(files).toHaveLength(1);
    const src = files[0]!.content;
    expect(src).toContain(
      'import { LinkService } from "../es/acme/v1/a_pb.js";',
    );
    expect(src).toContain(
      'import { LinkService as OtherV1LinkService } from "../es/other/v1/b_pb.js";',
    );
    expect(src).toContain("method: OtherV1LinkService.method.m0,");
    expect(src).toContain(
      [
        "export function createExecutor(",
        "  transport: Transport,",
        "  options: CreateExecutorOptions = {},",
        "): Executor {",
      ].join("\n"),
    );
  });

  it("writes no executor and imports only types without auto_execute", () => {
    const files = generate(
      compileRequest(
        { "acme/v1/a.proto": header + service("S", ["a_get"]) },
        "target=ts",
      ),
    );
    const src = files[0]!.content;
    expect(src).toContain(
      [
        "import {",
        "  defineTool,",
        "  type AgentTool,",
        "  type AliasConfig,",
        "  type ResponseAliases,",
        '} from "@protoc-gen-ai-tools/runtime";',
      ].join("\n"),
    );
    expect(src).not.toContain("createExecutor");
    expect(src).not.toContain("_pb.js");
    expect(src).toContain(
      `export const aGet: AgentTool = defineTool(\n  "a_get",\n`,
    );
    expect(
      src.startsWith(
        "// Code generated by protoc-gen-ai-tools. DO NOT EDIT.\n",
      ),
    ).toBe(true);
  });

  it("names the npm install line of what each file imports in its header", () => {
    const files = generate(
      compileRequest(
        { "acme/v1/a.proto": header + service("S", ["a_get"], true) },
        "target=ts,mcp=true",
      ),
    );
    const head = (name: string) =>
      files
        .find((f) => f.name === name)!
        .content.split("\n")
        .slice(0, 4)
        .join("\n");
    expect(head("ai_tools.gen.ts")).toBe(
      [
        "// Code generated by protoc-gen-ai-tools. DO NOT EDIT.",
        "// Needs: npm install @protoc-gen-ai-tools/runtime @bufbuild/protobuf @connectrpc/connect",
        "",
        'import type { Transport } from "@connectrpc/connect";',
      ].join("\n"),
    );
    expect(head("ai_tools_mcp.gen.ts")).toBe(
      [
        "// Code generated by protoc-gen-ai-tools. DO NOT EDIT.",
        "// Needs: npm install @protoc-gen-ai-tools/runtime @modelcontextprotocol/server",
        "// (and @modelcontextprotocol/node to serve over HTTP)",
        "",
      ].join("\n"),
    );
  });

  it("is byte-identical on a second run", () => {
    const sources = {
      "acme/v1/a.proto": header + service("S", ["a_get", "b_get"], true),
    };
    const a = generate(compileRequest(sources, "target=ts"));
    const b = generate(compileRequest(sources, "target=ts"));
    expect(a).toEqual(b);
  });
});
