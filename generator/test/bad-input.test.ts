import { create } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { protocGenAiTools } from "../src/plugin.js";
import { compileRequest, type ProtoSources } from "./support/compile.js";

function header(pkg: string, goPackage = true): string {
  return `syntax = "proto3";
package ${pkg};
import "ai/tools/v1/annotations.proto";
${goPackage ? `option go_package = "example.com/${pkg.replace(/\./g, "/")};${pkg.replace(/\./g, "")}";` : ""}
message Req { string id = 1; }
message Res { string id = 1; }
`;
}

function rpc(
  method: string,
  name: string,
  extra = "",
  streams = ["", ""],
): string {
  return `  rpc ${method}(${streams[0]} Req) returns (${streams[1]} Res) {
    option (ai.tools.v1.rpc_tool) = {name: "${name}", description: "d" ${extra}};
  }\n`;
}

function run(
  sources: ProtoSources,
  parameter = "target=go",
): { error: string | undefined; files: string[] } {
  const res = protocGenAiTools.run(compileRequest(sources, parameter));
  return { error: res.error, files: res.file.map((f) => f.name) };
}

describe("bad input", () => {
  it("refuses a tool name providers refuse, naming file and method", () => {
    const { error, files } = run({
      "a/v1/a.proto":
        header("a.v1") + `service S {\n${rpc("Create", "create link")}}\n`,
    });
    expect(files).toEqual([]);
    expect(error).toBe(
      'a/v1/a.proto: S.Create: tool name "create link" is refused by model providers; use 1 to 64 letters, digits, "_" or "-", starting with a letter or "_" (^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$)',
    );
  });

  it("refuses names starting with a digit and names over 64 characters", () => {
    const long = "a".repeat(65);
    const { error } = run({
      "a/v1/a.proto":
        header("a.v1") +
        `service S {\n${rpc("One", "1abc")}${rpc("Two", long)}}\n`,
    });
    expect(error).toContain('S.One: tool name "1abc" is refused');
    expect(error).toContain(`S.Two: tool name "${long}" is refused`);
  });

  it("refuses a duplicate tool name across files, naming both places", () => {
    const { error } = run({
      "a/v1/a.proto":
        header("a.v1") + `service A {\n${rpc("Create", "create")}}\n`,
      "b/v1/b.proto":
        header("b.v1") + `service B {\n${rpc("Make", "create")}}\n`,
    });
    expect(error).toBe(
      'b/v1/b.proto: B.Make: tool name "create" is already used by A.Create in a/v1/a.proto; give each tool a unique name',
    );
  });

  it("refuses names that collide after PascalCase", () => {
    const { error } = run({
      "a/v1/a.proto":
        header("a.v1") +
        `service S {\n${rpc("One", "a_b")}${rpc("Two", "a__b")}}\n`,
    });
    expect(error).toBe(
      // Tools are taken in name order, so "a__b" keeps the identifier.
      'a/v1/a.proto: S.One: tool name "a_b" becomes the Go identifier AB, as does tool "a__b" (S.Two in a/v1/a.proto); rename one of them, or leave one out with exclude=a.v1.S.One',
    );
  });

  it.each([
    ["all_tools", "AllTools"],
    ["new_executor", "NewExecutor"],
    ["execute", "Execute"],
    ["agent_tool", "AgentTool"],
  ])("refuses %s, which clashes with the file's own %s", (name, id) => {
    const { error } = run({
      "a/v1/a.proto": header("a.v1") + `service S {\n${rpc("M", name)}}\n`,
    });
    expect(error).toBe(
      `a/v1/a.proto: S.M: tool name "${name}" becomes the Go identifier ${id}, which the generated file already declares; rename the tool, or leave it out with exclude=a.v1.S.M`,
    );
  });

  it("refuses an annotated client-streaming or bidi method", () => {
    const { error } = run({
      "a/v1/a.proto":
        header("a.v1") +
        `service S {\n${rpc("Up", "up", "", ["stream", ""])}${rpc("Chat", "chat", "", ["stream", "stream"])}}\n`,
    });
    expect(error).toContain(
      'a/v1/a.proto: S.Chat: tool "chat" is a bidi-streaming method, which a tool call cannot drive; remove the rpc_tool option or make the method unary or server-streaming',
    );
    expect(error).toContain(
      'a/v1/a.proto: S.Up: tool "up" is a client-streaming method',
    );
  });

  it("asks for go_package only where an executor needs the import path", () => {
    const withoutGoPackage = header("a.v1", false);
    // A tool definition alone needs no import path.
    const plain = protocGenAiTools.run(
      compileRequest({
        "a/v1/a.proto": withoutGoPackage + `service S {\n${rpc("M", "m")}}\n`,
      }),
    );
    expect(plain.error ?? "").not.toContain("go_package");
    const { error } = run({
      "a/v1/a.proto":
        withoutGoPackage +
        `service S {\n${rpc("M", "m", ", auto_execute: true")}}\n`,
    });
    expect(error).toBe(
      'a/v1/a.proto: S.M: the Go executor of tool "m" needs the Go import path of the client of a.v1.S, but a/v1/a.proto has no go_package; add option go_package = "example.com/your/module/path;pkgname" to it, or give this plugin the M option protoc-gen-go takes (Ma/v1/a.proto=example.com/your/module/path), or use buf\'s managed mode (go_package_prefix)',
    );
  });

  it.each([
    [
      "target=java",
      'invalid value "java" for option "target"; valid values: go, ts, py',
    ],
    [
      "tagret=go",
      'unknown option "tagret"; valid options: target, mcp, tools, unannotated_tools, include, exclude, trim_prefix, name_prefix, schema, lenient_arguments, deprecated, output_only_comments, json_names, tool_search, providers, validate, go_connect, go_mcp_compat, ts_import_path, py_package, M<file>.proto',
    ],
    [
      "target=go,py_package=app.gen",
      'option "py_package" applies to target=py, not target=go',
    ],
    [
      "target=ts,ts_import_path=/abs",
      'invalid value "/abs" for option "ts_import_path"; use a relative path starting with "." or "..", e.g. ./gen or ../proto-es',
    ],
    [
      "target",
      'option "target" needs a value, e.g. target=go; valid values: go, ts, py',
    ],
    ["target=go,target=go", 'option "target" is given more than once'],
  ])("refuses the option %s", (parameter, message) => {
    const { error, files } = run(
      { "a/v1/a.proto": header("a.v1") + `service S {\n${rpc("M", "m")}}\n` },
      parameter,
    );
    expect(error).toBe(message);
    expect(files).toEqual([]);
  });

  it("refuses an alias_prefix that cannot form aliases, naming file, field and shape", () => {
    const tf = (prefix: string) =>
      `[(ai.tools.v1.tool_field) = {alias_prefix: ${JSON.stringify(prefix)}}]`;
    const shape =
      'use 1 to 64 letters, digits, "_" or "-", starting with a letter and not ending with "-" (^[a-zA-Z](?:[a-zA-Z0-9_-]{0,62}[a-zA-Z0-9_])?$)';
    const { error, files } = run({
      "a/v1/a.proto": `syntax = "proto3";
package a.v1;
import "ai/tools/v1/annotations.proto";
option go_package = "example.com/a/v1;av1";
message Req {
  string id = 1 ${tf("a b")};
  string owner_id = 2 ${tf("team-x")};
}
message Res {
  message Inner { string id = 1 ${tf("acct-")}; }
  repeated Inner items = 1;
  string note_id = 2 ${tf("1note")};
}
message Unused { string tab_id = 1 ${tf("tab\there")}; }
service S {
${rpc("Create", "create")}}
`,
      "b/v1/b.proto": `syntax = "proto3";
package b.v1;
import "ai/tools/v1/annotations.proto";
import "a/v1/a.proto";
option go_package = "example.com/b/v1;bv1";
service T {
  rpc Get(a.v1.Req) returns (a.v1.Res) {
    option (ai.tools.v1.rpc_tool) = {name: "get", description: "d"};
  }
}
`,
    });
    expect(files).toEqual([]);
    expect(error).toBe(
      [
        `a/v1/a.proto: Req.id: alias_prefix "a b" cannot form aliases (<prefix>-<n>); ${shape}`,
        `a/v1/a.proto: Res.Inner.id: alias_prefix "acct-" cannot form aliases (<prefix>-<n>); ${shape}`,
        `a/v1/a.proto: Res.note_id: alias_prefix "1note" cannot form aliases (<prefix>-<n>); ${shape}`,
        `a/v1/a.proto: Unused.tab_id: alias_prefix "tab\\there" cannot form aliases (<prefix>-<n>); ${shape}`,
      ].join("\n"),
    );
  });

  it('accepts alias prefixes of letters, digits, "_" and "-" up to 64 characters', () => {
    const fields = ["a", "team-x", "Acct_2", "v-2", "x".repeat(64)]
      .map(
        (p, i) =>
          `  string f${i} = ${i + 1} [(ai.tools.v1.tool_field) = {alias_prefix: "${p}"}];`,
      )
      .join("\n");
    const { error, files } = run({
      "a/v1/a.proto":
        header("a.v1") +
        `message Ids {\n${fields}\n}\nservice S {\n  rpc Get(Ids) returns (Ids) {\n    option (ai.tools.v1.rpc_tool) = {name: "get", description: "d"};\n  }\n}\n`,
    });
    expect(error ?? "").toBe("");
    expect(files).toEqual(["ai_tools.gen.go"]);
    expect(
      run({
        "a/v1/a.proto":
          header("a.v1").replace(
            "string id = 1;",
            `string id = 1 [(ai.tools.v1.tool_field) = {alias_prefix: "${"x".repeat(65)}"}];`,
          ) + `service S {\n${rpc("Get", "get")}}\n`,
      }).error,
    ).toContain(
      `a/v1/a.proto: Req.id: alias_prefix "${"x".repeat(65)}" cannot form aliases`,
    );
  });

  it("reports a request it cannot resolve without a stack trace", () => {
    const res = protocGenAiTools.run(
      create(CodeGeneratorRequestSchema, {
        fileToGenerate: ["missing.proto"],
        parameter: "target=go",
      }),
    );
    expect(res.error).toBe(
      'file_to_generate names "missing.proto", which is not among the request\'s proto files',
    );
    expect(res.error).not.toMatch(/\n\s+at /);
  });
});

describe("strict tools past OpenAI's nesting limit", () => {
  const levels = Array.from(
    { length: 11 },
    (_, i) =>
      `message L${i} { ${i < 10 ? `L${i + 1} next = 1;` : "string leaf = 1;"} }`,
  );
  const deep = {
    "a/v1/a.proto":
      header("a.v1") +
      levels.join("\n") +
      `\nservice S {\n  rpc Deep(L0) returns (Res) {\n    option (ai.tools.v1.rpc_tool) = {name: "deep", description: "d", strict: true};\n  }\n}\n`,
  };

  it("gives a strict tool nested deeper than 10 levels $defs, never refusing or cutting it", () => {
    // Inline, the leaf sits 11 levels deep (OpenAI's SDK count).
    const res = protocGenAiTools.run(compileRequest(deep, "target=go"));
    expect(res.error ?? "").toBe("");
    const go = res.file.find((f) => f.name.endsWith("ai_tools.gen.go"));
    expect(go?.content).toContain('\\"$defs\\":{\\"a.v1.L1\\"');
    expect(go?.content).toContain('\\"leaf\\"');
  });

  it("refuses an unknown schema form, listing the valid ones", () => {
    expect(run(deep, "target=go,schema=tiny").error).toBe(
      'invalid value "tiny" for option "schema"; valid values: inline, compact',
    );
  });
});
