import { describe, expect, it } from "vitest";
import { jsonCamelCase } from "../src/model/mask-nodes.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";

// google.protobuf.FieldMask fields (CONTRACT31 M1-M3): the message a mask's
// paths name, the schema's hint and the argument table's `masks`.

const header = `syntax = "proto3";
package m.v1;
import "ai/tools/v1/annotations.proto";
import "google/api/field_behavior.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/timestamp.proto";
option go_package = "example.com/m/v1;mv1";
`;

function rpc(name: string, tool: string, req: string, res: string): string {
  return `  rpc ${name}(${req}) returns (${res}) {
    option (ai.tools.v1.rpc_tool) = {name: "${tool}", description: "d", strict: true};
  }\n`;
}

const proto = `${header}
message Book {
  string name = 1 [(google.api.field_behavior) = IDENTIFIER];
  string title = 2;
  google.protobuf.Timestamp create_time = 3 [(google.api.field_behavior) = OUTPUT_ONLY];
  string old_isbn = 4 [deprecated = true];
  Author author = 5;
  repeated Author editors = 6;
  map<string, string> labels = 7;
  string page_count = 8;
}
message Author { string display_name = 1; Book favourite = 2; }
message UpdateBookRequest { Book book = 1; google.protobuf.FieldMask update_mask = 2; }
message GetBookRequest { string name = 1; google.protobuf.FieldMask read_mask = 2; }
message ListBooksRequest { string parent = 1; google.protobuf.FieldMask read_mask = 2; }
message ListBooksResponse { repeated Book books = 1; string next_page_token = 2; }
message UpdateLinkRequest {
  string id = 1;
  optional string target_url = 2;
  // Which of the fields above to change.
  google.protobuf.FieldMask update_mask = 6;
}
message UpdateAuthorRequest { Book book = 1; Author author = 2; google.protobuf.FieldMask update_mask = 3; }
message PatchRequest { Book book = 1; Author author = 2; google.protobuf.FieldMask update_mask = 3; }
message Nested { Holder holder = 1; }
message Holder { string a_b = 1; google.protobuf.FieldMask read_mask = 2; repeated google.protobuf.FieldMask masks = 3; }
message Empty2 {}
message EmptyMaskRequest { Empty2 thing = 1; google.protobuf.FieldMask update_mask = 2; }
service BookService {
${rpc("UpdateBook", "update_book", "UpdateBookRequest", "Book")}
${rpc("GetBook", "get_book", "GetBookRequest", "Book")}
${rpc("ListBooks", "list_books", "ListBooksRequest", "ListBooksResponse")}
${rpc("UpdateLink", "update_link", "UpdateLinkRequest", "google.protobuf.Empty")}
${rpc("Patch", "patch", "PatchRequest", "Book")}
${rpc("UpdateAuthor", "update_author", "UpdateAuthorRequest", "Author")}
${rpc("Nest", "nest", "Nested", "Book")}
${rpc("EmptyMask", "empty_mask", "EmptyMaskRequest", "google.protobuf.Empty")}
}
`;

const model = modelOf(compileRequest({ "m/v1/m.proto": proto }));

type Json = Record<string, unknown>;

function schemaOf(tool: string): Json {
  return JSON.parse(toolOf(model, tool).schemaJson) as Json;
}

function tableOf(tool: string): {
  nodes: { fields: Record<string, Json> }[];
  masks?: { fields: Record<string, Json> }[];
} {
  return JSON.parse(toolOf(model, tool).argumentsJson) as ReturnType<
    typeof tableOf
  >;
}

function property(tool: string, ...path: string[]): Json {
  let at = schemaOf(tool);
  for (const name of path) {
    at = (at["properties"] as Json)[name] as Json;
  }
  return at;
}

const bookHint = `Comma-separated field paths of Book, e.g. "title,author"; "*" for all fields.`;

describe("field mask target and hint", () => {
  it("names the resource of an AIP-134 Update", () => {
    expect(property("update_book", "update_mask")).toEqual({
      type: "string",
      description: bookHint,
    });
  });

  it("names the response of an AIP-157 read mask", () => {
    expect(property("get_book", "read_mask")["description"]).toBe(bookHint);
  });

  it("names the items of a List response", () => {
    expect(property("list_books", "read_mask")["description"]).toBe(bookHint);
  });

  it("names the request itself when it is the flat update (e2e UpdateLinkRequest)", () => {
    expect(property("update_link", "update_mask")).toEqual({
      type: "string",
      description:
        'Which of the fields above to change.\n\nComma-separated field paths of UpdateLinkRequest, e.g. "id,target_url"; "*" for all fields.',
    });
  });

  it("names the request when two resources could be meant", () => {
    expect(property("patch", "update_mask")["description"]).toBe(
      `Comma-separated field paths of PatchRequest, e.g. "book,author"; "*" for all fields.`,
    );
  });

  it("names the field an Update is named after among several", () => {
    expect(property("update_author", "update_mask")["description"]).toBe(
      `Comma-separated field paths of Author, e.g. "display_name,favourite"; "*" for all fields.`,
    );
  });

  it("names the holding message below the root", () => {
    const holder = property("nest", "holder");
    const mask = (holder["properties"] as Json)["read_mask"] as Json;
    expect(mask["description"]).toBe(
      `Comma-separated field paths of Holder, e.g. "a_b,read_mask"; "*" for all fields.`,
    );
  });

  it("writes the fieldless hint for a message without fields", () => {
    expect(property("empty_mask", "update_mask")["description"]).toBe(
      `Comma-separated field paths; "*" for all fields.`,
    );
  });

  it("leaves out of the example what the input leaves out, by the options too", () => {
    const shelf = `${header}
message Shelf {
  string old = 4 [deprecated = true];
  // [Output Only] The theme.
  string theme = 1;
  string label = 2;
  string size = 3;
}
message UpdateShelfRequest { Shelf shelf = 1; google.protobuf.FieldMask update_mask = 2; }
service ShelfService {
${rpc("UpdateShelf", "update_shelf", "UpdateShelfRequest", "Shelf")}
}
`;
    const hint = (parameter: string): unknown => {
      const tool = toolOf(
        modelOf(compileRequest({ "m/v1/s.proto": shelf }, parameter)),
        "update_shelf",
      );
      const schema = JSON.parse(tool.schemaJson) as Json;
      return ((schema["properties"] as Json)["update_mask"] as Json)[
        "description"
      ];
    };
    const example = (fields: string): string =>
      `Comma-separated field paths of Shelf, e.g. "${fields}"; "*" for all fields.`;
    expect(hint("target=go")).toBe(example("theme,label"));
    expect(hint("target=go,deprecated=keep")).toBe(example("theme,label"));
    expect(hint("target=go,output_only_comments=true")).toBe(
      example("label,size"),
    );
  });

  it("has no pattern any more", () => {
    expect(toolOf(model, "update_book").schemaJson).not.toContain("pattern");
  });
});

describe("argument table masks", () => {
  it("walks every field of the target, depth first, one node per message", () => {
    const table = tableOf("update_book");
    expect(table.nodes[0]!.fields["update_mask"]).toEqual({ mask: 0 });
    expect(table.masks).toEqual([
      {
        fields: {
          name: {},
          title: {},
          create_time: { json: "createTime" },
          old_isbn: { json: "oldIsbn" },
          author: { node: 1 },
          editors: { list: true },
          labels: { map: true },
          page_count: { json: "pageCount" },
        },
      },
      {
        fields: {
          display_name: { json: "displayName" },
          favourite: { node: 0 },
        },
      },
    ]);
  });

  it("marks a repeated mask as a list and shares nodes between masks", () => {
    const table = tableOf("nest");
    const holder =
      table.nodes[table.nodes[0]!.fields["holder"]!["node"] as number]!;
    expect(holder.fields["read_mask"]).toEqual({ mask: 0 });
    expect(holder.fields["masks"]).toEqual({ list: true, mask: 0 });
    expect(table.masks).toEqual([
      {
        fields: {
          a_b: { json: "aB" },
          read_mask: { json: "readMask" },
          masks: { list: true },
        },
      },
    ]);
  });

  it("leaves masks out of a table without a FieldMask", () => {
    const text = toolOf(model, "update_book").argumentsJson;
    expect(text).toContain('"masks"');
    const plain = modelOf(
      compileRequest({
        "p/v1/p.proto": `${header.replace("m.v1", "p.v1").replace("m/v1;mv1", "p/v1;pv1")}
message R { string a = 1; }
service S {
${rpc("Get", "get", "R", "R")}
}
`,
      }),
    );
    expect(toolOf(plain, "get").argumentsJson).not.toContain("masks");
  });

  it("camel-cases as protobuf's JSONCamelCase does", () => {
    expect(jsonCamelCase("update_mask")).toBe("updateMask");
    expect(jsonCamelCase("a__b")).toBe("aB");
    expect(jsonCamelCase("field_1")).toBe("field1");
    expect(jsonCamelCase("x_Y_")).toBe("xY");
    expect(jsonCamelCase("name")).toBe("name");
  });
});
