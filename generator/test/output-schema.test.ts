import { beforeAll, describe, expect, it } from "vitest";
import { createProblemCollector } from "../src/errors.js";
import { checkMcpServiceNames } from "../src/model/mcp-services.js";
import type { GeneratorModel } from "../src/model/model.js";
import { protocGenAiTools } from "../src/plugin.js";
import { buildOutputSchema } from "../src/schema/build-output-schema.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";
import { closedProto, outputProto } from "./support/output-protos.js";

// Expected schemas below were derived by hand from what protojson writes
// (docs/mcp.md, "Tools as listed"); output-schema-encoders.test.ts checks
// them against the three encoders' real output.

let model: GeneratorModel;
beforeAll(() => {
  model = modelOf(
    compileRequest({
      "t/v1/t.proto": outputProto,
      "t/v2/t.proto": closedProto,
    }),
  );
});

function outputOf(name: string): JsonSchema {
  return JSON.parse(toolOf(model, name).outputSchemaJson) as JsonSchema;
}

const int64 = { type: "string", pattern: "^-?[0-9]+$" };
const uint64 = { type: "string", pattern: "^[0-9]+$" };
const float = {
  anyOf: [
    { type: "number" },
    { type: "string", enum: ["NaN", "Infinity", "-Infinity"] },
  ],
};
const inner = {
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
};
const nullable = (s: JsonSchema) => ({ anyOf: [s, { type: "null" }] });

describe("output schema", () => {
  it("writes scalars as protojson does: 64-bit integers as strings, NaN as a string, open enums by name or number", () => {
    expect(outputOf("scalars")).toEqual({
      type: "object",
      properties: {
        d: float,
        f: float,
        i32: { type: "integer" },
        i64: int64,
        u32: { type: "integer" },
        u64: uint64,
        s32: { type: "integer" },
        s64: int64,
        f32: { type: "integer" },
        f64: uint64,
        sf32: { type: "integer" },
        sf64: int64,
        b: { type: "boolean" },
        s: { type: "string" },
        by: { type: "string", format: "byte" },
        color: {
          anyOf: [
            { type: "string", enum: ["COLOR_UNSPECIFIED", "RED"] },
            { type: "integer" },
          ],
        },
      },
      required: [
        "d",
        "f",
        "i32",
        "i64",
        "u32",
        "u64",
        "s32",
        "s64",
        "f32",
        "f64",
        "sf32",
        "sf64",
        "b",
        "s",
        "by",
        "color",
      ],
    });
  });

  it("requires the fields without presence; messages may be null; oneof members and optional fields are neither", () => {
    const color = {
      anyOf: [
        { type: "string", enum: ["COLOR_UNSPECIFIED", "RED"] },
        { type: "integer" },
      ],
    };
    expect(outputOf("shapes")).toEqual({
      type: "object",
      properties: {
        tags: {
          type: "array",
          items: { type: "string" },
          description: "The tags.",
        },
        inner: nullable(inner),
        nick: { type: "string" },
        by_name: { type: "object", additionalProperties: inner },
        by_num: {
          type: "object",
          additionalProperties: { type: "string" },
          propertyNames: { pattern: "^-?[0-9]+$" },
        },
        by_flag: {
          type: "object",
          additionalProperties: { type: "integer" },
          propertyNames: { enum: ["false", "true"] },
        },
        a: { type: "string" },
        b: inner,
        secret: { type: "string" },
        made: { type: "string" },
        colors: { type: "array", items: color },
      },
      required: [
        "tags",
        "by_name",
        "by_num",
        "by_flag",
        "secret",
        "made",
        "colors",
      ],
    });
  });

  it("writes well-known types in their JSON form", () => {
    expect(outputOf("wkt")).toEqual({
      type: "object",
      properties: {
        at: nullable({ type: "string", format: "date-time" }),
        ttl: nullable({
          type: "string",
          pattern:
            "^-?(0|[1-9][0-9]{0,11})(\\.[0-9]{3}|\\.[0-9]{6}|\\.[0-9]{9})?s$",
        }),
        mask: nullable({ type: "string" }),
        meta: nullable({ type: "object" }),
        value: {},
        list: nullable({ type: "array" }),
        any: nullable({
          type: "object",
          anyOf: [
            {
              properties: { "@type": { type: "string" } },
              required: ["@type"],
            },
            { maxProperties: 0 },
          ],
        }),
        empty: nullable({ type: "object" }),
        iv: nullable(int64),
        uv: nullable({ type: "integer" }),
        dv: { anyOf: [...float.anyOf, { type: "null" }] },
        bv: nullable({ type: "string", format: "byte" }),
        nothing: { type: "null" },
      },
      required: ["nothing"],
    });
  });

  it("defines a recursive message once under $defs", () => {
    const leaf = {
      type: "object",
      properties: { back: nullable({ $ref: "#/$defs/t.v1.Node" }) },
    };
    const node = {
      type: "object",
      properties: {
        label: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/t.v1.Node" } },
        leaf: nullable(leaf),
      },
      required: ["label", "children"],
    };
    expect(outputOf("tree")).toEqual({ ...node, $defs: { "t.v1.Node": node } });
  });

  it("wraps a server stream as {messages: [...]} and a non-object response as {value: ...}", () => {
    const watch = outputOf("watch");
    expect(watch["required"]).toEqual(["messages"]);
    expect(watch["properties"]).toEqual({
      messages: { type: "array", items: outputOf("shapes") },
    });
    expect(toolOf(model, "watch").outputWrapKey).toBe("messages");
    expect(outputOf("now")).toEqual({
      type: "object",
      properties: { value: { type: "string", format: "date-time" } },
      required: ["value"],
    });
    expect(toolOf(model, "now").outputWrapKey).toBe("value");
    expect(outputOf("nothing")).toEqual({ type: "object" });
    expect(toolOf(model, "nothing").outputWrapKey).toBe("");
  });

  it("gives a closed enum's names or an integer (Go holds undeclared numbers); proto2 optional fields may be null", () => {
    expect(outputOf("closed")).toEqual({
      type: "object",
      properties: {
        shade: {
          anyOf: [
            { type: "string", enum: ["DARK", "LIGHT"] },
            { type: "integer" },
            { type: "null" },
          ],
        },
        n: nullable({ type: "integer" }),
        r: { type: "array", items: { type: "integer" } },
      },
      required: ["r"],
    });
  });

  it("uses JSON names and requires nothing for the executors' default encoding", () => {
    const tool = toolOf(model, "shapes");
    const { schema } = buildOutputSchema(tool.output, false, {
      protoNames: false,
      emitDefaults: false,
    });
    expect(Object.keys(schema["properties"] as JsonSchema)).toContain("byName");
    expect(schema["required"]).toBeUndefined();
    expect((schema["properties"] as JsonSchema)["inner"]).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
    });
  });
});

describe("MCP hints and services", () => {
  it("reads the idempotency level: NO_SIDE_EFFECTS is read-only and idempotent", () => {
    const open = { openWorld: false };
    expect(toolOf(model, "scalars").hints).toEqual({
      readOnly: true,
      destructive: false,
      idempotent: true,
      ...open,
    });
    expect(toolOf(model, "shapes").hints).toEqual({
      readOnly: false,
      destructive: true,
      idempotent: true,
      ...open,
    });
    expect(toolOf(model, "wkt").hints).toEqual({
      readOnly: false,
      destructive: true,
      idempotent: false,
      ...open,
    });
  });

  it("lists the services with tools, sorted by full name, their tools by name", () => {
    expect(
      model.mcpServices.map((s) => [
        s.fullName,
        s.name,
        s.file,
        s.tools.map((t) => t.name),
      ]),
    ).toEqual([
      [
        "t.v1.S",
        "S",
        "t/v1/t.proto",
        ["nothing", "now", "scalars", "shapes", "tree", "watch", "wkt"],
      ],
      ["t.v2.S", "S", "t/v2/t.proto", ["closed"]],
    ]);
  });

  it("tables the response aliases of every tool for MCP, executed or not", () => {
    const aliased = modelOf(
      compileRequest({
        "t/v5/t.proto": `syntax = "proto3";
package t.v5;
import "ai/tools/v1/annotations.proto";
service Things {
  rpc Get(Thing) returns (Thing) {
    option (ai.tools.v1.rpc_tool) = {name: "things_get", description: "d"};
  }
}
message Thing { string id = 1 [(ai.tools.v1.tool_field) = {alias_prefix: "thing"}]; }
`,
      }),
    );
    expect(aliased.responseAliasTypes).toEqual([]);
    expect(aliased.toolResponseAliases).toEqual([]);
    expect(aliased.mcpAliasTables).toEqual({
      responseAliasTypes: [
        [
          "t.v5.Thing",
          [
            {
              field: "id",
              prefix: "thing",
              message: "",
              map: false,
              anyValue: false,
            },
          ],
        ],
      ],
      toolResponseAliases: [
        ["things_get", { message: "t.v5.Thing", idPrefix: "", idField: "" }],
      ],
      knownAliasPrefixes: ["thing"],
    });
    expect(aliased.knownAliasPrefixes).toEqual(["thing"]);
  });

  it("reports two services with one short name, naming both and the fix", () => {
    const problems = createProblemCollector();
    const goNames = (s: { name: string }) => [
      `Register${s.name}Handler`,
      `ForwardTo${s.name}Client`,
    ];
    checkMcpServiceNames(model.mcpServices, problems, goNames);
    expect(() => problems.throwIfAny()).toThrow(
      "t/v2/t.proto: S: the MCP file would declare RegisterSHandler, ForwardToSClient for service t.v2.S and for service t.v1.S (t/v1/t.proto): the names come from the service's short name; rename one of the services, leave one out (exclude=t.v2.S.*), or generate the two packages in separate runs into separate output directories",
    );
    const single = createProblemCollector();
    checkMcpServiceNames(model.mcpServices.slice(0, 1), single, goNames);
    expect(() => single.throwIfAny()).not.toThrow();
  });

  it("reports a clash of MCP names once, in the target's own names", () => {
    const proto = (pkg: string, service: string) => `syntax = "proto3";
package ${pkg};
option go_package = "example.com/${pkg.replace(".", "/")};${pkg.replace(".", "")}";
message Req { string id = 1; }
service ${service} { rpc Get(Req) returns (Req); }
`;
    const clash = (target: string, second = "Task") =>
      protocGenAiTools.run(
        compileRequest(
          {
            "a/v1/t.proto": proto("a.v1", "Task"),
            "b/v1/t.proto": proto("b.v1", second),
          },
          `target=${target},tools=all,mcp=true`,
        ),
      ).error ?? "";
    const message = (names: string) =>
      `b/v1/t.proto: Task: the MCP file would declare ${names} for service b.v1.Task and for service a.v1.Task (a/v1/t.proto): the names come from the service's short name; rename one of the services, leave one out (exclude=b.v1.Task.*), or generate the two packages in separate runs into separate output directories`;
    expect(clash("go")).toBe(
      message("RegisterTaskHandler, ForwardToTaskClient, taskMCPTools"),
    );
    expect(clash("ts")).toBe(
      message("taskTools, registerTaskHandler, forwardToTaskClient"),
    );
    expect(clash("py")).toBe(
      message("TASK_TOOLS, register_task_handler, forward_to_task_client"),
    );
    // Two names Python writes alike clash there only.
    expect(clash("py", "TASK")).toContain(
      "the MCP file would declare TASK_TOOLS, register_task_handler, forward_to_task_client for service b.v1.TASK",
    );
    expect(clash("go", "TASK")).toBe("");
    expect(clash("ts", "TASK")).toBe("");
    // Left out, the other service is served.
    expect(
      protocGenAiTools.run(
        compileRequest(
          {
            "a/v1/t.proto": proto("a.v1", "Task"),
            "b/v1/t.proto": proto("b.v1", "Task"),
          },
          "target=py,tools=all,mcp=true,exclude=b.v1.Task.*",
        ),
      ).error ?? "",
    ).toBe("");
  });
});
