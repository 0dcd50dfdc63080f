import { describe, expect, it } from "vitest";
import { methodKind } from "../src/schema/method-kind.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

// MCP hints (CONTRACT31 H): the AIP method kind from the name, then
// idempotency_level, then the `hints` of the rpc_tool option.

function rpc(name: string, extra = "", level = ""): string {
  const body = level === "" ? "" : `\n    option idempotency_level = ${level};`;
  return `  rpc ${name}(R) returns (R) {${body}
    option (ai.tools.v1.rpc_tool) = {name: "${name}", description: "d"${extra}};
  }\n`;
}

const proto = `syntax = "proto3";
package h.v1;
import "ai/tools/v1/annotations.proto";
option go_package = "example.com/h/v1;hv1";
message R { string a = 1; }
service S {
${rpc("GetThing")}
${rpc("ListThings")}
${rpc("SearchThings")}
${rpc("WatchThing")}
${rpc("BatchGetThings")}
${rpc("CreateThing")}
${rpc("BatchCreateThings")}
${rpc("UpdateThing")}
${rpc("BatchUpdateThings")}
${rpc("DeleteThing")}
${rpc("BatchDeleteThings")}
${rpc("Getaway")}
${rpc("Run")}
${rpc("Touch", "", "NO_SIDE_EFFECTS")}
${rpc("Put", "", "IDEMPOTENT")}
${rpc("DeleteAll", "", "NO_SIDE_EFFECTS")}
${rpc("Fetch", ", hints: {open_world: true, destructive: false}")}
${rpc("GetRemote", ", hints: {read_only: false}", "NO_SIDE_EFFECTS")}
${rpc("CreateIdem", ", hints: {idempotent: true}")}
}
`;

const model = modelOf(compileRequest({ "h/v1/h.proto": proto }));

const read = { readOnly: true, destructive: false, idempotent: true };
const create = { readOnly: false, destructive: false, idempotent: false };
const change = { readOnly: false, destructive: true, idempotent: false };

function hints(name: string): unknown {
  return toolOf(model, name).hints;
}

describe("tool hints", () => {
  it.each([
    ["GetThing", read],
    ["ListThings", read],
    ["SearchThings", read],
    ["WatchThing", read],
    ["BatchGetThings", read],
    ["CreateThing", create],
    ["BatchCreateThings", create],
    ["UpdateThing", change],
    ["BatchUpdateThings", change],
    ["DeleteThing", change],
    ["BatchDeleteThings", change],
    ["Getaway", change],
    ["Run", change],
  ])("reads %s from its name", (name, expected) => {
    expect(hints(name)).toEqual({ ...expected, openWorld: false });
  });

  it("applies idempotency_level over the name", () => {
    expect(hints("Touch")).toEqual({ ...read, openWorld: false });
    expect(hints("Put")).toEqual({
      ...change,
      idempotent: true,
      openWorld: false,
    });
    expect(hints("DeleteAll")).toEqual({ ...read, openWorld: false });
  });

  it("lets each field set in the option override, the rest derived", () => {
    expect(hints("Fetch")).toEqual({
      readOnly: false,
      destructive: false,
      idempotent: false,
      openWorld: true,
    });
    expect(hints("GetRemote")).toEqual({
      ...read,
      readOnly: false,
      openWorld: false,
    });
    expect(hints("CreateIdem")).toEqual({
      ...create,
      idempotent: true,
      openWorld: false,
    });
  });

  it("takes a prefix only before an upper-case letter or the end", () => {
    expect(methodKind("Get")).toBe("read");
    expect(methodKind("Listen")).toBe("other");
    expect(methodKind("Created")).toBe("other");
    expect(methodKind("BatchGet")).toBe("list");
  });
});
