import { beforeAll, describe, expect, it } from "vitest";
import type { DescField, DescMessage } from "../src/read/descriptors.js";
import { resolveRequestFiles } from "../src/model/build-model.js";
import { checkOpenAiStrict } from "../src/providers/openai-strict.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import {
  anthropicStrictDialect,
  applyValidateRules,
  isRequiredByRules,
  openAiStrictDialect,
  plainDialect,
  type KeywordDialect,
} from "../src/schema/validate-keywords.js";
import {
  readFieldRules,
  readOneofRules,
} from "../src/schema/validate-rules.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";
import type { GeneratorModel } from "../src/model/model.js";

// Expected keywords and sentences derived by hand from protovalidate's
// rules (buf/validate/validate.proto) and the dialects' keyword lists
// (docs/compat.md, "What providers accept").

const source = `syntax = "proto3";
package v.v1;
import "ai/tools/v1/annotations.proto";
import "buf/validate/validate.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/wrappers.proto";
option go_package = "example.com/v/v1;vv1";

enum Color { COLOR_UNSPECIFIED = 0; RED = 1; GREEN = 2; BLUE = 3; }
enum Zero { ZERO = 0; ONE = 1; }

message Strings {
  string len = 1 [(buf.validate.field).string = {min_len: 2, max_len: 8}];
  string exact = 2 [(buf.validate.field).string = {min_len: 4, max_len: 4}];
  string pat = 3 [(buf.validate.field).string.pattern = "^a.c$"];
  string re2only = 4 [(buf.validate.field).string.pattern = "(?i)abc"];
  string uuid = 5 [(buf.validate.field).string.uuid = true];
  string email = 6 [(buf.validate.field).string.email = true];
  string uri = 7 [(buf.validate.field).string.uri = true];
  string pick = 8 [(buf.validate.field).string = {in: ["a", "b"]}];
  string acct = 9 [(ai.tools.v1.tool_field).alias_prefix = "acct", (buf.validate.field).string = {uuid: true, min_len: 36, pattern: "^[0-9a-f-]+$", in: ["x"]}];
  // Commented.
  string commented = 10 [(buf.validate.field).string.min_len = 1];
}

message Numbers {
  int32 i32 = 1 [(buf.validate.field).int32 = {gt: -1, lt: 10}];
  int64 i64 = 2 [(buf.validate.field).int64 = {gte: -9007199254740991, lte: 9007199254740992}];
  uint32 u32 = 3 [(buf.validate.field).uint32 = {in: [1, 2, 3]}];
  uint64 u64 = 4 [(buf.validate.field).uint64 = {gt: 18446744073709551614}];
  sint32 s32 = 5 [(buf.validate.field).sint32 = {gte: -5, lte: -1}];
  sint64 s64 = 6 [(buf.validate.field).sint64 = {lt: -3}];
  fixed32 f32 = 7 [(buf.validate.field).fixed32 = {gt: 4294967294}];
  fixed64 f64 = 8 [(buf.validate.field).fixed64 = {in: [1, 18446744073709551615]}];
  sfixed32 sf32 = 9 [(buf.validate.field).sfixed32 = {gt: 5, lt: 5}];
  sfixed64 sf64 = 10 [(buf.validate.field).sfixed64 = {gte: 10, lte: 0}];
  float f = 11 [(buf.validate.field).float = {gt: 0.1, lte: 3.3}];
  double d = 12 [(buf.validate.field).double = {gte: -1.5, lt: 1e300, in: [0.5]}];
  double inf = 13 [(buf.validate.field).double = {lt: inf}];
}

message Lists {
  repeated string tags = 1 [(buf.validate.field).repeated = {min_items: 2, max_items: 4, items: {string: {min_len: 1, uuid: true}}}];
  repeated int32 nums = 2 [(buf.validate.field).repeated.items.int32.gte = 0];
  repeated string one = 3 [(buf.validate.field).repeated.min_items = 1];
  repeated Color colors = 4 [(buf.validate.field).repeated.items.enum = {in: [2]}];
}

message Required {
  string s = 1 [(buf.validate.field).required = true];
  int32 i = 2 [(buf.validate.field).required = true];
  bool b = 3 [(buf.validate.field).required = true];
  optional string o = 4 [(buf.validate.field).required = true];
  repeated string r = 5 [(buf.validate.field).required = true];
  map<string, string> m = 6 [(buf.validate.field).required = true];
  Zero z = 7 [(buf.validate.field).required = true];
  Color c = 8 [(buf.validate.field).enum = {defined_only: true, in: [1, 3]}];
  google.protobuf.StringValue w = 9 [(buf.validate.field).required = true, (buf.validate.field).string.min_len = 2];
  string skipped = 10 [(buf.validate.field) = {required: true, ignore: IGNORE_ALWAYS}];
  string if_set = 11 [(buf.validate.field) = {string: {min_len: 3, pattern: "^x"}, ignore: IGNORE_IF_ZERO_VALUE}];
  optional string plain_optional = 12;
}

message Oneofs {
  option (buf.validate.message).oneof = {fields: ["a", "b"]};
  option (buf.validate.message).oneof = {fields: ["b", "c"], required: true};
  string a = 1;
  string b = 2;
  string c = 3;
  oneof kind {
    option (buf.validate.oneof).required = true;
    string x = 4;
    string y = 5;
  }
  oneof free {
    string p = 6;
    string q = 7;
  }
}

service S {
${["Strings", "Numbers", "Lists", "Required", "Oneofs"]
  .flatMap((m) =>
    [true, false].map(
      (strict) =>
        `  rpc ${m}${strict ? "Strict" : "Loose"}(${m}) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "${m.toLowerCase()}_${strict ? "strict" : "loose"}", description: "d", strict: ${strict}};
  }`,
    ),
  )
  .join("\n")}
}
`;

let messages: Map<string, DescMessage>;
let model: GeneratorModel;

beforeAll(() => {
  const request = compileRequest({ "v/v1/v.proto": source });
  messages = new Map();
  for (const file of resolveRequestFiles(request).files) {
    for (const m of file.messages) {
      messages.set(m.name, m);
    }
  }
  model = modelOf(request);
});

function field(message: string, name: string): DescField {
  const f = messages.get(message)?.fields.find((x) => x.name === name);
  if (f === undefined) {
    throw new Error(`no field ${message}.${name}`);
  }
  return f;
}

/** The node and description of one field under `dialect`. */
function apply(
  message: string,
  name: string,
  dialect: KeywordDialect,
  node: JsonSchema,
): { node: JsonSchema; description: string } {
  const copy = structuredClone(node);
  const description = applyValidateRules(
    field(message, name),
    copy,
    dialect,
    "",
  );
  return { node: copy, description };
}

const str: JsonSchema = { type: "string" };
const int: JsonSchema = { type: "integer" };
const num: JsonSchema = { type: "number" };

describe("reading by number", () => {
  it("decodes string, numeric, repeated and enum rules", () => {
    expect(readFieldRules(field("Strings", "len"))).toMatchObject({
      string: { minLen: 2n, maxLen: 8n },
    });
    expect(readFieldRules(field("Numbers", "u64"))?.number).toEqual({
      kind: "uint64",
      gt: 18446744073709551614n,
      in: [],
    });
    expect(readFieldRules(field("Numbers", "f64"))?.number?.in).toEqual([
      1n,
      18446744073709551615n,
    ]);
    expect(readFieldRules(field("Numbers", "s32"))?.number).toMatchObject({
      gte: -5n,
      lte: -1n,
    });
    expect(readFieldRules(field("Numbers", "f"))?.number).toMatchObject({
      kind: "float",
      gt: Math.fround(0.1),
    });
    expect(readFieldRules(field("Lists", "tags"))?.repeated).toMatchObject({
      minItems: 2n,
      maxItems: 4n,
      items: { string: { minLen: 1n, uuid: true } },
    });
    expect(readFieldRules(field("Required", "c"))?.enum).toEqual({
      definedOnly: true,
      in: [1, 3],
      notIn: [],
    });
    expect(readFieldRules(field("Required", "plain_optional"))).toBe(undefined);
  });

  it("merges repeated options and reads oneof rules", () => {
    // Two `(buf.validate.field)` options on one field merge.
    expect(readFieldRules(field("Required", "w"))).toMatchObject({
      required: true,
      string: { minLen: 2n },
    });
    expect(readOneofRules(messages.get("Oneofs")!)).toEqual([
      { fields: ["x", "y"], required: true },
      { fields: ["a", "b"], required: false },
      { fields: ["b", "c"], required: true },
    ]);
  });
});

describe("string rules", () => {
  it("lengths: keywords in plain JSON Schema, sentences in strict dialects", () => {
    expect(apply("Strings", "len", plainDialect, str)).toEqual({
      node: { type: "string", minLength: 2, maxLength: 8 },
      description: "",
    });
    expect(apply("Strings", "len", openAiStrictDialect, str)).toEqual({
      node: str,
      description: "At least 2 characters. At most 8 characters.",
    });
    expect(apply("Strings", "exact", anthropicStrictDialect, str)).toEqual({
      node: str,
      description: "Exactly 4 characters.",
    });
  });

  it("appends sentences to the description after a blank line", () => {
    const node = { type: "string" };
    expect(
      applyValidateRules(
        field("Strings", "commented"),
        node,
        openAiStrictDialect,
        "Commented.",
      ),
    ).toBe("Commented.\n\nAt least 1 character.");
  });

  it("patterns: translated, or described when RE2-only", () => {
    for (const d of [
      plainDialect,
      openAiStrictDialect,
      anthropicStrictDialect,
    ]) {
      expect(apply("Strings", "pat", d, str).node).toEqual({
        type: "string",
        pattern: "^a[^\\n]c$",
      });
      expect(apply("Strings", "re2only", d, str)).toEqual({
        node: str,
        description: 'Must match the RE2 regular expression "(?i)abc".',
      });
    }
  });

  it("formats: those the dialect lists", () => {
    expect(apply("Strings", "uuid", openAiStrictDialect, str).node).toEqual({
      type: "string",
      format: "uuid",
    });
    expect(apply("Strings", "email", openAiStrictDialect, str).node).toEqual({
      type: "string",
      format: "email",
    });
    expect(apply("Strings", "uri", openAiStrictDialect, str)).toEqual({
      node: str,
      description: "Must be an absolute URI.",
    });
    expect(apply("Strings", "uri", anthropicStrictDialect, str).node).toEqual({
      type: "string",
      format: "uri",
    });
    expect(apply("Strings", "uri", plainDialect, str).node).toEqual({
      type: "string",
      format: "uri",
    });
  });

  it("in: an enum", () => {
    expect(apply("Strings", "pick", openAiStrictDialect, str).node).toEqual({
      type: "string",
      enum: ["a", "b"],
    });
  });

  it("on an aliased field, every rule about the real id is a sentence", () => {
    for (const d of [plainDialect, openAiStrictDialect]) {
      expect(apply("Strings", "acct", d, str)).toEqual({
        node: str,
        description:
          'The id behind the alias: at least 36 characters. Must match the RE2 regular expression "^[0-9a-f-]+$". Must be a UUID. Must be one of "x".',
      });
    }
  });
});

describe("numeric rules", () => {
  it("integer bounds: exclusive ones as the next integer", () => {
    expect(apply("Numbers", "i32", openAiStrictDialect, int).node).toEqual({
      type: "integer",
      minimum: 0,
      maximum: 9,
    });
    expect(apply("Numbers", "s32", plainDialect, int).node).toEqual({
      type: "integer",
      minimum: -5,
      maximum: -1,
    });
    expect(apply("Numbers", "s64", plainDialect, int).node).toEqual({
      type: "integer",
      maximum: -4,
    });
    expect(apply("Numbers", "f32", plainDialect, int).node).toEqual({
      type: "integer",
      minimum: 4294967295,
    });
  });

  it("64-bit bounds past 2^53 are sentences", () => {
    expect(apply("Numbers", "i64", plainDialect, int)).toEqual({
      node: { type: "integer", minimum: -9007199254740991 },
      description: "Must be at most 9007199254740992.",
    });
    expect(apply("Numbers", "u64", openAiStrictDialect, int)).toEqual({
      node: int,
      description: "Must be greater than 18446744073709551614.",
    });
    expect(apply("Numbers", "f64", plainDialect, int)).toEqual({
      node: int,
      description: "Must be one of 1, 18446744073709551615.",
    });
  });

  it("a numeric bound on a string-typed node is a sentence", () => {
    expect(apply("Numbers", "i32", plainDialect, str)).toEqual({
      node: str,
      description: "Must be greater than -1. Must be less than 10.",
    });
  });

  it("a lower bound above the upper one excludes a range; bounds no value meets: sentences", () => {
    expect(apply("Numbers", "sf32", plainDialect, int)).toEqual({
      node: int,
      description: "Must be greater than 5. Must be less than 5.",
    });
    expect(apply("Numbers", "sf64", plainDialect, int)).toEqual({
      node: int,
      description: "Must be at least 10 or at most 0.",
    });
  });

  it("float bounds: exclusive keywords, float32 in its shortest digits", () => {
    // float gt 0.1: the next float32 above 0.1f, inclusive, since a double
    // just above 0.1 is 0.1f on the server.
    expect(apply("Numbers", "f", openAiStrictDialect, num).node).toEqual({
      type: "number",
      minimum: 0.10000001,
      maximum: 3.3,
    });
    expect(Math.fround(0.10000000000000002)).toBe(Math.fround(0.1));
    expect(Math.fround(0.10000001)).toBeGreaterThan(Math.fround(0.1));
    expect(apply("Numbers", "d", plainDialect, num).node).toEqual({
      type: "number",
      minimum: -1.5,
      exclusiveMaximum: 1e300,
      enum: [0.5],
    });
    expect(apply("Numbers", "inf", plainDialect, num)).toEqual({
      node: num,
      description: "Must be less than Infinity.",
    });
  });

  it("in: an enum of integers", () => {
    expect(apply("Numbers", "u32", openAiStrictDialect, int).node).toEqual({
      type: "integer",
      enum: [1, 2, 3],
    });
  });

  it("Anthropic strict: every bound is a sentence", () => {
    expect(apply("Numbers", "i32", anthropicStrictDialect, int)).toEqual({
      node: int,
      description: "Must be greater than -1. Must be less than 10.",
    });
    expect(apply("Numbers", "f", anthropicStrictDialect, num)).toEqual({
      node: num,
      description: "Must be greater than 0.1. Must be at most 3.3.",
    });
  });
});

describe("repeated rules", () => {
  const list: JsonSchema = { type: "array", items: { type: "string" } };
  it("min_items/max_items and the items' rules", () => {
    expect(apply("Lists", "tags", plainDialect, list)).toEqual({
      node: {
        type: "array",
        minItems: 2,
        maxItems: 4,
        items: { type: "string", minLength: 1, format: "uuid" },
      },
      description: "",
    });
    expect(apply("Lists", "tags", openAiStrictDialect, list)).toEqual({
      node: {
        type: "array",
        minItems: 2,
        maxItems: 4,
        items: { type: "string", format: "uuid" },
      },
      description: "Each item: at least 1 character.",
    });
    expect(
      apply("Lists", "nums", plainDialect, {
        type: "array",
        items: { type: "integer" },
      }).node,
    ).toEqual({ type: "array", items: { type: "integer", minimum: 0 } });
    expect(
      apply("Lists", "colors", plainDialect, {
        type: "array",
        items: { type: "string", enum: ["RED", "GREEN", "BLUE"] },
      }).node,
    ).toEqual({ type: "array", items: { type: "string", enum: ["GREEN"] } });
  });

  it("Anthropic strict: minItems up to 1 only, maxItems a sentence", () => {
    expect(apply("Lists", "tags", anthropicStrictDialect, list)).toEqual({
      node: { type: "array", items: { type: "string", format: "uuid" } },
      description:
        "At least 2 items. At most 4 items. Each item: at least 1 character.",
    });
    expect(apply("Lists", "one", anthropicStrictDialect, list).node).toEqual({
      ...list,
      minItems: 1,
    });
  });
});

describe("required and enum rules", () => {
  it("required without presence: a non-zero value", () => {
    expect(apply("Required", "s", plainDialect, str).node).toEqual({
      type: "string",
      minLength: 1,
    });
    expect(apply("Required", "s", openAiStrictDialect, str).description).toBe(
      "Must not be empty.",
    );
    expect(apply("Required", "i", plainDialect, int).description).toBe(
      "Must not be 0.",
    );
    expect(
      apply("Required", "b", plainDialect, { type: "boolean" }).description,
    ).toBe("Must be true.");
    expect(
      apply("Required", "r", openAiStrictDialect, {
        type: "array",
        items: str,
      }).node,
    ).toEqual({ type: "array", items: str, minItems: 1 });
    expect(
      apply("Required", "m", plainDialect, { type: "object" }).description,
    ).toBe("Must have at least one entry.");
    expect(
      apply("Required", "z", plainDialect, {
        type: "string",
        enum: ["ZERO", "ONE"],
      }).node,
    ).toEqual({ type: "string", enum: ["ONE"] });
  });

  it("required with presence: the field is required, any value", () => {
    expect(isRequiredByRules(field("Required", "o"))).toBe(true);
    expect(apply("Required", "o", plainDialect, str)).toEqual({
      node: str,
      description: "",
    });
    expect(isRequiredByRules(field("Required", "plain_optional"))).toBe(false);
    expect(isRequiredByRules(field("Required", "skipped"))).toBe(false);
  });

  it("enum in keeps the listed values; defined_only is the schema already", () => {
    expect(
      apply("Required", "c", openAiStrictDialect, {
        type: "string",
        enum: ["RED", "GREEN", "BLUE"],
      }).node,
    ).toEqual({ type: "string", enum: ["RED", "BLUE"] });
  });

  it("message-typed fields (wrappers) get sentences only", () => {
    expect(apply("Required", "w", plainDialect, str)).toEqual({
      node: str,
      description: "At least 2 characters.",
    });
  });

  it("ignore: ALWAYS drops the rules, IF_ZERO_VALUE makes them sentences", () => {
    expect(apply("Required", "skipped", plainDialect, str)).toEqual({
      node: str,
      description: "",
    });
    expect(apply("Required", "if_set", plainDialect, str)).toEqual({
      node: str,
      description:
        'Unless empty or zero: at least 3 characters. Must match the RE2 regular expression "^x".',
    });
  });
});

describe("oneof rules", () => {
  it("describes each member", () => {
    expect(apply("Oneofs", "a", plainDialect, str).description).toBe(
      "At most one of a, b may be set.",
    );
    expect(apply("Oneofs", "b", plainDialect, str).description).toBe(
      "At most one of a, b may be set. Exactly one of b, c must be set.",
    );
    expect(apply("Oneofs", "x", plainDialect, str).description).toBe(
      "Exactly one of x, y must be set.",
    );
    expect(apply("Oneofs", "p", plainDialect, str).description).toBe("");
  });
});

describe("tool schemas", () => {
  it.each(["strings", "numbers", "lists", "required", "oneofs"])(
    "%s_strict passes the OpenAI strict checker",
    (name) => {
      const schema = JSON.parse(
        toolOf(model, `${name}_strict`).schemaJson,
      ) as unknown;
      expect(checkOpenAiStrict(schema)).toEqual([]);
    },
  );

  it("required on an optional field: required, and not nullable in strict", () => {
    const strict = JSON.parse(toolOf(model, "required_strict").schemaJson) as {
      properties: Record<string, JsonSchema>;
    };
    expect(strict.properties["o"]).toEqual({ type: "string" });
    expect(strict.properties["plain_optional"]).toEqual({
      anyOf: [{ type: "string" }, { type: "null" }],
    });
    const loose = JSON.parse(toolOf(model, "required_loose").schemaJson) as {
      required: string[];
    };
    expect(loose.required).toContain("o");
    expect(loose.required).not.toContain("plain_optional");
  });

  it("strict and non-strict tools differ only where the dialects do", () => {
    const strict = JSON.parse(toolOf(model, "strings_strict").schemaJson) as {
      properties: Record<string, JsonSchema>;
    };
    const loose = JSON.parse(toolOf(model, "strings_loose").schemaJson) as {
      properties: Record<string, JsonSchema>;
    };
    expect(loose.properties["len"]).toEqual({
      type: "string",
      minLength: 2,
      maxLength: 8,
    });
    expect(strict.properties["len"]).toEqual({
      type: "string",
      description: "At least 2 characters. At most 8 characters.",
    });
    expect(strict.properties["pat"]).toEqual(loose.properties["pat"]);
  });
});
