import { describe, expect, it } from "vitest";
import { createProblemCollector } from "../src/errors.js";
import type { GeneratorModel } from "../src/model/model.js";
import { assignImports } from "../src/targets/py/build-py-view.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";
import { realApiRequest } from "./support/real-apis.js";

// Long-running operations (CONTRACT31 L, generator side): a tool returning
// google.longrunning.Operation brings Operations.GetOperation as a tool,
// and operation names are aliases (`operation`, any value).

const getOperation = "google_longrunning_Operations_GetOperation";

function proto(autoExecute: boolean, extra = ""): string {
  return `syntax = "proto3";
package lro.v1;
import "ai/tools/v1/annotations.proto";
import "google/longrunning/operations.proto";
option go_package = "example.com/lro/v1;lrov1";
message ExportRequest { string workspace_id = 1; }
message Plain { string id = 1; }
service Exports {
  rpc Export(ExportRequest) returns (google.longrunning.Operation) {
    option (ai.tools.v1.rpc_tool) = {name: "export", description: "d", auto_execute: ${autoExecute}};
  }
  rpc Other(Plain) returns (Plain) {
    option (ai.tools.v1.rpc_tool) = {name: "other", description: "d", auto_execute: true};
  }
${extra}}
`;
}

function build(source: string, parameter = "target=go"): GeneratorModel {
  return modelOf(compileRequest({ "lro/v1/lro.proto": source }, parameter));
}

describe("GetOperation tool", () => {
  const model = build(proto(true));

  it("is added once, strict, with the method's comment, executed like its caller", () => {
    const tool = toolOf(model, getOperation);
    expect(tool.strict).toBe(true);
    expect(tool.autoExecute).toBe(true);
    expect(tool.description).toMatch(
      /^Gets the latest state of a long-running operation\./,
    );
    expect(model.tools.filter((t) => t.name === getOperation)).toHaveLength(1);
    expect(tool.hints).toMatchObject({ readOnly: true, destructive: false });
  });

  it("takes the operation's name as an alias", () => {
    const tool = toolOf(model, getOperation);
    expect(tool.requestAliasFields).toEqual([
      { name: "name", jsonName: "name", prefix: "operation" },
    ]);
    const name = (
      JSON.parse(tool.schemaJson) as {
        properties: Record<string, { description: string }>;
      }
    ).properties["name"]!;
    expect(name.description).toContain('"operation-1"');
    expect(model.knownAliasPrefixes).toContain("operation");
  });

  it("registers Operation.name from responses, any value", () => {
    expect(
      model.responseAliasTypes.find(
        ([name]) => name === "google.longrunning.Operation",
      ),
    ).toEqual([
      "google.longrunning.Operation",
      [
        {
          field: "name",
          prefix: "operation",
          message: "",
          map: false,
          anyValue: true,
        },
      ],
    ]);
    expect(
      model.toolResponseAliases.map(([tool, r]) => [tool, r.message]),
    ).toEqual([
      ["export", "google.longrunning.Operation"],
      [getOperation, "google.longrunning.Operation"],
    ]);
  });

  it("is an MCP service of its own", () => {
    expect(model.mcpServices.map((s) => s.fullName)).toEqual([
      "google.longrunning.Operations",
      "lro.v1.Exports",
    ]);
  });

  it("is not executed when no Operation tool is", () => {
    expect(toolOf(build(proto(false)), getOperation).autoExecute).toBe(false);
  });

  it("is not added without a tool returning an Operation", () => {
    const m = build(proto(true), "target=go,exclude=lro.v1.Exports.Export");
    expect(m.tools.map((t) => t.name)).toEqual(["other"]);
    expect(m.knownAliasPrefixes).not.toContain("operation");
  });

  it("takes name_prefix and trim_prefix as tools=all names", () => {
    const m = build(
      proto(true),
      "target=go,tools=all,name_prefix=x_,trim_prefix=google.longrunning.",
    );
    expect(m.tools.map((t) => t.name)).toContain("x_Operations_GetOperation");
  });

  it("refuses a name another tool has", () => {
    const taken = `  rpc Taken(Plain) returns (Plain) {
    option (ai.tools.v1.rpc_tool) = {name: "${getOperation}", description: "d"};
  }\n`;
    expect(() => build(proto(true, taken))).toThrow(
      new RegExp(`tool name "${getOperation}" .*is already used by`),
    );
  });
});

describe("GetOperation on a real API (google-proto-files)", () => {
  it("follows Workflows' Create, Update and Delete operations", () => {
    const model = modelOf(
      realApiRequest("google/cloud/workflows/v1", "target=go,tools=all"),
    );
    const tool = toolOf(model, getOperation);
    expect(tool.requestAliasFields.map((f) => f.prefix)).toEqual(["operation"]);
    expect(tool.strict).toBe(true);
    expect(
      model.tools.filter(
        (t) => t.output.typeName === "google.longrunning.Operation",
      ).length,
    ).toBeGreaterThan(2);
  });
});

describe("GetOperation in Python", () => {
  it("imports google.longrunning from its package, never under py_package", () => {
    const model = build(proto(true));
    const imports = assignImports(
      model.tools,
      ["google/longrunning/operations.proto", "lro/v1/lro.proto"],
      "gen",
      createProblemCollector(),
    );
    expect(imports.thirdParty.map((i) => i.module)).toEqual([
      "google.longrunning.operations_pb2",
      "google.longrunning.operations_pb2_grpc",
    ]);
    expect(imports.ownModules.map((i) => i.module)).toEqual([
      "gen.lro.v1.lro_pb2",
      "gen.lro.v1.lro_pb2_grpc",
    ]);
  });
});
