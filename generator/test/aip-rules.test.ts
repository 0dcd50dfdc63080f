import { beforeAll, describe, expect, it } from "vitest";
import type { GeneratorModel } from "../src/model/model.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

// Issue 31's schema rules (docs/schemas.md, "Which fields a call must
// send"; CONTRACT31 E, A, D), strict and loose, and the argument table's
// `required` agreeing with the schema.

const proto = `syntax = "proto3";
package t.v1;
import "ai/tools/v1/annotations.proto";
import "google/api/annotations.proto";
import "google/api/field_behavior.proto";
import "google/protobuf/empty.proto";
option go_package = "example.com/t/v1;tv1";

enum Color {
  COLOR_UNSPECIFIED = 0;
  // Bright red, as in a stop sign.
  RED = 1;
  // Green.
  GREEN = 2;
  // Use RED instead.
  OLD = 3 [deprecated = true];
}
enum Legacy { LEGACY_UNSPECIFIED = 0; A = 1 [deprecated = true]; B = 2 [deprecated = true]; }
enum RealZero { BLACK = 0; WHITE = 1; }

message Book {
  string name = 1 [(google.api.field_behavior) = IDENTIFIER];
  string title = 2;
  // [Output Only] When the book was made.
  string create_time = 3;
  string old_title = 4 [deprecated = true];
  // Still sent.
  string must_title = 5 [deprecated = true, (google.api.field_behavior) = REQUIRED];
}
message Shelf {
  string name = 1 [(google.api.field_behavior) = IDENTIFIER, (google.api.field_behavior) = REQUIRED];
  string theme = 2;
}
message Topic { string name = 1 [(google.api.field_behavior) = IDENTIFIER]; string label = 2; }
message CreateBookRequest { string parent = 1; Book book = 2; }
message CreateShelfRequest { string parent = 1; Shelf shelf = 2; }
// A top-level resource: no parent (the Gemini API's CreateCorpusRequest).
message CreateRootBookRequest { Book book = 1; }
message UpdateBookRequest { Book book = 1; }
message Options {
  optional string note = 1 [(google.api.field_behavior) = REQUIRED];
  optional int32 size = 2;
  Color color = 3;
  Color must_color = 4 [(google.api.field_behavior) = REQUIRED];
  repeated Color colors = 5;
  Legacy legacy = 6;
  RealZero real_zero = 7;
  string account_id = 8 [(ai.tools.v1.tool_field) = {alias_prefix: "acct"}];
  // The owners.
  repeated string owner_ids = 9 [(ai.tools.v1.tool_field) = {alias_prefix: "acct"}];
  // Steps:
  //   1. ask
  //   2. answer
  string steps = 10;
  // The reviewer, such as acct-2.
  string reviewer_id = 11 [(ai.tools.v1.tool_field) = {alias_prefix: "acct"}];
  // Not aliases: xacct-1, acct-1x, acct-one.
  string editor_id = 12 [(ai.tools.v1.tool_field) = {alias_prefix: "acct"}];
}
message BoundRequest { optional string name = 1; Color color = 2; }

service S {
${[
  ["create_book", "CreateBook", "CreateBookRequest", ""],
  ["create_shelf", "CreateShelf", "CreateShelfRequest", ""],
  ["create_root_book", "CreateRootBook", "CreateRootBookRequest", ""],
  ["update_book", "UpdateBook", "UpdateBookRequest", ""],
  ["create_topic", "CreateTopic", "Topic", ""],
  ["options", "SetOptions", "Options", ""],
  [
    "bound",
    "GetBound",
    "BoundRequest",
    `option (google.api.http) = {get: "/v1/{name=things/*}" additional_bindings {post: "/v1/{color}"}};`,
  ],
  [
    "patch_book",
    "PatchBook",
    "UpdateBookRequest",
    `option (google.api.http) = {patch: "/v1/{book.name=books/*}" body: "book"};`,
  ],
]
  .flatMap(([tool, rpc, request, http]) =>
    [true, false].map(
      (
        strict,
      ) => `  rpc ${rpc}${strict ? "Strict" : "Loose"}(${request}) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "${tool}_${strict ? "strict" : "loose"}", description: "d", strict: ${strict}};
    ${http}
  }`,
    ),
  )
  .join("\n")}
}
`;

let plain: GeneratorModel;
let kept: GeneratorModel;
let comments: GeneratorModel;

beforeAll(() => {
  const sources = { "t/v1/t.proto": proto };
  plain = modelOf(compileRequest(sources));
  kept = modelOf(compileRequest(sources, "target=go,deprecated=keep"));
  comments = modelOf(
    compileRequest(sources, "target=go,output_only_comments=true"),
  );
});

interface Table {
  nodes: { fields: Record<string, { node?: number }>; required?: string[] }[];
}

function schemaOf(model: GeneratorModel, name: string): JsonSchema {
  return JSON.parse(toolOf(model, name).schemaJson) as JsonSchema;
}

function tableOf(model: GeneratorModel, name: string): Table {
  return JSON.parse(toolOf(model, name).argumentsJson) as Table;
}

function props(schema: JsonSchema): Record<string, JsonSchema> {
  return schema["properties"] as Record<string, JsonSchema>;
}

function nullable(schema: JsonSchema): boolean {
  const anyOf = schema["anyOf"] as JsonSchema[] | undefined;
  return anyOf?.some((b) => b["type"] === "null") === true;
}

/** The non-null object of a (nullable) message property. */
function object(schema: JsonSchema): JsonSchema {
  const anyOf = schema["anyOf"] as JsonSchema[] | undefined;
  return anyOf?.find((b) => b["type"] === "object") ?? schema;
}

/**
 * Whether a call must send each property of `schema`, as the schema says
 * (in `required` and not nullable), for a strict tool.
 */
function mustSend(schema: JsonSchema): string[] {
  const required = (schema["required"] ?? []) as string[];
  return required.filter((n) => !nullable(props(schema)[n]!));
}

/** Strict: the table requires exactly what the schema makes the call send. */
function expectStrictAgreement(name: string): void {
  const schema = schemaOf(plain, name);
  const table = tableOf(plain, name);
  const walk = (s: JsonSchema, node: number): void => {
    expect([...(table.nodes[node]!.required ?? [])].sort()).toEqual(
      mustSend(s).sort(),
    );
    for (const [field, entry] of Object.entries(table.nodes[node]!.fields)) {
      if (entry.node !== undefined && props(s)[field]!["items"] === undefined) {
        walk(object(props(s)[field]!), entry.node);
      }
    }
  };
  walk(schema, 0);
}

describe("enums with an UNSPECIFIED zero (contract E)", () => {
  it("strict: nullable unless required; loose: not in required", () => {
    const strict = props(schemaOf(plain, "options_strict"));
    expect(nullable(strict["color"]!)).toBe(true);
    expect(nullable(strict["must_color"]!)).toBe(false);
    expect(nullable(strict["real_zero"]!)).toBe(false);
    const loose = schemaOf(plain, "options_loose");
    expect(loose["required"]).not.toContain("color");
    expect(loose["required"]).toContain("must_color");
    expect(loose["required"]).toContain("real_zero");
    expect(loose["required"]).toContain("colors");
    expect(tableOf(plain, "options_strict").nodes[0]!.required).not.toContain(
      "color",
    );
    expectStrictAgreement("options_strict");
  });

  it("leave deprecated values out and note the values' comments", () => {
    const loose = props(schemaOf(plain, "options_loose"));
    expect(loose["color"]).toEqual({
      type: "string",
      enum: ["RED", "GREEN"],
      description: "RED: Bright red, as in a stop sign",
    });
    // Every value deprecated: all kept, marked.
    expect(loose["legacy"]).toEqual({
      type: "string",
      enum: ["A", "B"],
      description: "A: deprecated; B: deprecated",
    });
    expect(props(loose["colors"]!["items"] as JsonSchema)).toBeUndefined();
    expect((loose["colors"]!["items"] as JsonSchema)["enum"]).toEqual([
      "RED",
      "GREEN",
    ]);
  });

  it("keep deprecated values, marked, with deprecated=keep", () => {
    const loose = props(schemaOf(kept, "options_loose"));
    expect(loose["color"]).toEqual({
      type: "string",
      enum: ["RED", "GREEN", "OLD"],
      description:
        "RED: Bright red, as in a stop sign; OLD: deprecated. Use RED instead",
    });
  });
});

describe("deprecated fields (contract E)", () => {
  it("are left out unless required, and then marked; the table follows", () => {
    for (const name of ["update_book_strict", "update_book_loose"]) {
      const book = object(props(schemaOf(plain, name))["book"]!);
      expect(Object.keys(props(book)).sort()).toEqual([
        "create_time",
        "must_title",
        "name",
        "title",
      ]);
      expect(props(book)["must_title"]!["description"]).toBe(
        "Deprecated. Still sent.",
      );
      const table = tableOf(plain, name);
      expect(Object.keys(table.nodes[1]!.fields)).not.toContain("old_title");
      expect(table.nodes[1]!.required).toContain("must_title");
    }
  });

  it("are kept, marked, with deprecated=keep", () => {
    const book = object(props(schemaOf(kept, "update_book_loose"))["book"]!);
    expect(props(book)["old_title"]).toEqual({
      type: "string",
      description: "Deprecated.",
    });
    expect(
      Object.keys(tableOf(kept, "update_book_loose").nodes[1]!.fields),
    ).toContain("old_title");
  });
});

describe("REQUIRED and HTTP-bound fields (contract A)", () => {
  it("honour REQUIRED on a proto3 optional field", () => {
    const strict = props(schemaOf(plain, "options_strict"));
    expect(nullable(strict["note"]!)).toBe(false);
    expect(nullable(strict["size"]!)).toBe(true);
    const loose = schemaOf(plain, "options_loose");
    expect(loose["required"]).toContain("note");
    expect(loose["required"]).not.toContain("size");
    expect(tableOf(plain, "options_loose").nodes[0]!.required).toEqual([
      "note",
      "must_color",
    ]);
  });

  it("never make a path-bound field nullable, and require it (table too)", () => {
    const strict = props(schemaOf(plain, "bound_strict"));
    expect(nullable(strict["name"]!)).toBe(false);
    expect(nullable(strict["color"]!)).toBe(false);
    expect(schemaOf(plain, "bound_loose")["required"]).toEqual([
      "name",
      "color",
    ]);
    expect(tableOf(plain, "bound_loose").nodes[0]!.required).toEqual([
      "name",
      "color",
    ]);
    expectStrictAgreement("bound_strict");
    // {book.name=…}: book and its name.
    const patch = props(schemaOf(plain, "patch_book_loose"));
    expect(schemaOf(plain, "patch_book_loose")["required"]).toContain("book");
    expect(object(patch["book"]!)["required"]).toContain("name");
    const table = tableOf(plain, "patch_book_loose");
    expect(table.nodes[0]!.required).toEqual(["book"]);
    expect(table.nodes[1]!.required).toEqual(["name", "must_title"]);
  });
});

describe("AIP-133 Create and AIP-134 Update (contract A)", () => {
  it("Create with parent: the resource's IDENTIFIER may be left unset", () => {
    const book = object(props(schemaOf(plain, "create_book_strict"))["book"]!);
    expect(nullable(props(book)["name"]!)).toBe(true);
    const loose = object(props(schemaOf(plain, "create_book_loose"))["book"]!);
    expect(loose["required"]).not.toContain("name");
    expect(loose["required"]).toContain("title");
    expect(tableOf(plain, "create_book_strict").nodes[1]!.required).toEqual([
      "title",
      "create_time",
      "must_title",
    ]);
    expect(tableOf(plain, "create_book_loose").nodes[1]!.required).toEqual([
      "must_title",
    ]);
    expectStrictAgreement("create_book_strict");
  });

  it("Create without parent (a top-level resource): the same", () => {
    const book = object(
      props(schemaOf(plain, "create_root_book_strict"))["book"]!,
    );
    expect(nullable(props(book)["name"]!)).toBe(true);
    const loose = object(
      props(schemaOf(plain, "create_root_book_loose"))["book"]!,
    );
    expect(loose["required"]).toEqual(["title", "create_time", "must_title"]);
    expect(
      tableOf(plain, "create_root_book_strict").nodes[1]!.required,
    ).toEqual(["title", "create_time", "must_title"]);
    expect(tableOf(plain, "create_root_book_loose").nodes[1]!.required).toEqual(
      ["must_title"],
    );
    expectStrictAgreement("create_root_book_strict");
  });

  it("Create: an IDENTIFIER that is also REQUIRED stays required", () => {
    const shelf = object(
      props(schemaOf(plain, "create_shelf_strict"))["shelf"]!,
    );
    expect(nullable(props(shelf)["name"]!)).toBe(false);
    expect(tableOf(plain, "create_shelf_loose").nodes[1]!.required).toEqual([
      "name",
    ]);
  });

  it("Create of the resource itself (no parent) is unchanged", () => {
    expect(
      nullable(props(schemaOf(plain, "create_topic_strict"))["name"]!),
    ).toBe(false);
    expect(schemaOf(plain, "create_topic_loose")["required"]).toContain("name");
  });

  it("Update: the resource's IDENTIFIER is required and not null", () => {
    const strict = object(
      props(schemaOf(plain, "update_book_strict"))["book"]!,
    );
    expect(nullable(props(strict)["name"]!)).toBe(false);
    const table = tableOf(plain, "update_book_loose");
    expect(table.nodes[1]!.required).toEqual(["name", "must_title"]);
    expectStrictAgreement("update_book_strict");
  });
});

describe("output_only_comments=true (contract A)", () => {
  it("leaves out a field whose comment says [Output Only]", () => {
    const book = (m: GeneratorModel) =>
      Object.keys(
        props(object(props(schemaOf(m, "update_book_loose"))["book"]!)),
      );
    expect(book(plain)).toContain("create_time");
    expect(book(comments)).not.toContain("create_time");
    expect(
      Object.keys(tableOf(comments, "update_book_loose").nodes[1]!.fields),
    ).not.toContain("create_time");
  });
});

describe("descriptions (contract D)", () => {
  it("end an alias field's description with the alias it takes", () => {
    const loose = props(schemaOf(plain, "options_loose"));
    expect(loose["account_id"]!["description"]).toBe(
      'An id alias such as "acct-1".',
    );
    expect(loose["owner_ids"]!["description"]).toBe(
      'The owners.\n\nAn id alias such as "acct-1".',
    );
  });

  it("add no alias note to a description that names an alias already", () => {
    const loose = props(schemaOf(plain, "options_loose"));
    expect(loose["reviewer_id"]!["description"]).toBe(
      "The reviewer, such as acct-2.",
    );
    expect(loose["editor_id"]!["description"]).toBe(
      'Not aliases: xacct-1, acct-1x, acct-one.\n\nAn id alias such as "acct-1".',
    );
  });

  it("take the common indentation off comment lines", () => {
    const loose = props(schemaOf(plain, "options_loose"));
    expect(loose["steps"]!["description"]).toBe(
      "Steps:\n  1. ask\n  2. answer",
    );
  });
});
