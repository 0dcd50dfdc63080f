import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  create,
  createFileRegistry,
  fromJsonString,
  toBinary,
  type DescMessage,
  type FileRegistry,
} from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { fixArguments } from "@protoc-gen-ai-tools/runtime";
import { validateAgainst, valuesFor } from "@protoc-gen-ai-tools/testkit";
import { checkAnthropicStrict } from "../src/providers/anthropic-strict.js";
import { checkGeminiJsonSchema } from "../src/providers/gemini-json-schema.js";
import { checkOpenAiStrict } from "../src/providers/openai-strict.js";
import { toolSelectionOf } from "../src/model/tool-selection.js";
import { parseOptions } from "../src/options.js";
import { buildToolSchema } from "../src/schema/build-schema.js";
import { schemaDepth } from "../src/schema/schema-depth.js";
import { compileRequest } from "./support/compile.js";
import { buildRequest, goldenCases, paths } from "./support/request.js";
import { esMessage } from "./support/es-registry.js";
import { withDecodableMasks } from "./support/decodable-masks.js";
import { modelOf } from "./support/model.js";

type JsonObject = Record<string, unknown>;

// Compact schemas (schema=compact) and the $defs a deep strict tool gets in
// the default form: schema-defs.ts, schema-form.ts.

/** A chain of `n` messages D0 → D1 → … each used once, D{n-1} a string. */
function chain(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      i === n - 1
        ? `message D${i} { string leaf = 1; }`
        : `message D${i} { D${i + 1} next = 1; }`,
    );
  }
  return out.join("\n");
}

const proto = `syntax = "proto3";
package t.v1;
import "ai/tools/v1/annotations.proto";

// Used twice.
message Money {
  string currency = 1;
  int64 units = 2;
}

message Line {
  Money price = 1;
  optional Money discount = 2;
  oneof target {
    string sku = 3;
    string url = 4;
  }
  oneof note {
    string text = 5;
    string html = 6;
  }
}

message OrderRequest {
  repeated Line lines = 1;
  Money total = 2;
  Once once = 3;
  Line featured = 4;
}

message Once { string note = 1; }

message Node {
  string name = 1;
  repeated Node children = 2;
  optional Node parent = 3;
}

message TreeRequest { Node root = 1; }

// Recursion through a singular field without optional, and through a map.
message Reply {
  string text = 1;
  Reply next = 2;
  map<string, Reply> by_author = 3;
}

// A oneof member that closes a cycle.
message Expr {
  oneof kind {
    double number = 1;
    Expr negated = 2;
  }
}

message CalcRequest { Expr e = 1; }

// Two messages named Info, each used twice.
message Left {
  message Info { string x = 1; }
  Info info = 1;
  Info other = 2;
}
message Right {
  message Info { int32 y = 1; }
  Info info = 1;
  Info other = 2;
}
message PairRequest { Left left = 1; Right right = 2; }

message ThreadRequest {
  Reply first = 1;
  oneof pick {
    Reply quoted = 2;
    string plain = 3;
  }
}

${chain(12)}
message DeepRequest { D0 d = 1; }

message Ack {}

service S {
  rpc Order(OrderRequest) returns (Ack) {
    option (ai.tools.v1.rpc_tool) = {name: "order", description: "d", strict: true};
  }
}
`;

let registry: FileRegistry;

function message(name: string): DescMessage {
  const m = registry.getMessage(`t.v1.${name}`);
  if (m === undefined) throw new Error(`no message ${name}`);
  return m;
}

beforeAll(() => {
  const request = compileRequest({ "t/v1/t.proto": proto });
  registry = createFileRegistry(
    create(FileDescriptorSetSchema, { file: request.protoFile }),
  );
}, 60_000);

describe("schema=compact", () => {
  it("writes a message used twice once under $defs, keyed by its own name", () => {
    const { schema } = buildToolSchema(
      message("OrderRequest"),
      false,
      undefined,
      "compact",
    );
    const defs = schema["$defs"] as Record<string, unknown>;
    expect(Object.keys(defs).sort()).toEqual(["Line", "Money"]);
    expect(defs["Money"]).toEqual({
      type: "object",
      properties: { currency: { type: "string" }, units: { type: "integer" } },
      required: ["currency", "units"],
    });
    const props = schema["properties"] as Record<string, unknown>;
    expect(props["total"]).toEqual({ $ref: "#/$defs/Money" });
    // A message used once stays in place.
    expect(props["once"]).toEqual({
      type: "object",
      properties: { note: { type: "string" } },
      required: ["note"],
    });
  });

  it("keys by full name the messages whose own names clash", () => {
    const { schema } = buildToolSchema(
      message("PairRequest"),
      false,
      undefined,
      "compact",
    );
    expect(Object.keys(schema["$defs"] as object).sort()).toEqual([
      "t.v1.Left.Info",
      "t.v1.Right.Info",
    ]);
  });

  it("keeps strict references nullable and accepted by OpenAI strict", () => {
    const { schema } = buildToolSchema(
      message("OrderRequest"),
      true,
      undefined,
      "compact",
    );
    expect(checkOpenAiStrict(schema)).toEqual([]);
    const line = (schema["$defs"] as Record<string, Record<string, unknown>>)[
      "Line"
    ]!["properties"] as Record<string, unknown>;
    expect(line["discount"]).toEqual({
      anyOf: [{ $ref: "#/$defs/Money" }, { type: "null" }],
    });
  });

  it("leaves the default form without $defs", () => {
    const { schema } = buildToolSchema(message("OrderRequest"), true);
    expect(JSON.stringify(schema)).not.toContain("$ref");
    expect(schema["$defs"]).toBeUndefined();
  });

  it("keeps strict recursion stops (Gemini, Anthropic strict refuse the cycle)", () => {
    const strict = buildToolSchema(
      message("TreeRequest"),
      true,
      undefined,
      "compact",
    ).schema;
    expect(checkOpenAiStrict(strict)).toEqual([]);
    expect(strict["$defs"]).toBeUndefined();
  });

  it("makes non-strict recursion real, through $ref", () => {
    const loose = buildToolSchema(
      message("TreeRequest"),
      false,
      undefined,
      "compact",
    ).schema;
    const node = (loose["$defs"] as Record<string, Record<string, unknown>>)[
      "Node"
    ]!;
    expect((node["properties"] as Record<string, unknown>)["children"]).toEqual(
      { type: "array", items: { $ref: "#/$defs/Node" } },
    );
    // Values nest deeper than the old recursion stop.
    const values = valuesFor(loose, { count: 50, seed: 7, unknownKeys: false });
    expect(
      values.some((v) =>
        /"children":\[\{[^\]]*"children":\[\{/.test(JSON.stringify(v)),
      ),
    ).toBe(true);
    for (const v of values) expect(validateAgainst(loose, v)).toEqual([]);
  });

  it("does not require a non-strict property that closes a cycle (Gemini)", () => {
    const loose = buildToolSchema(
      message("TreeRequest"),
      false,
      undefined,
      "compact",
    ).schema;
    const node = (loose["$defs"] as Record<string, Record<string, unknown>>)[
      "Node"
    ]!;
    expect(node["required"]).toEqual(["name"]);
    // Entering the cycle from outside it stays required.
    expect(loose["required"]).toEqual(["root"]);
  });

  it("writes a oneof as its members side by side, with a sentence, once", () => {
    const { schema } = buildToolSchema(
      message("OrderRequest"),
      true,
      undefined,
      "compact",
    );
    const line = (schema["$defs"] as Record<string, JsonObject>)["Line"]!;
    expect(line["description"]).toBe(
      "Set at most one of sku, url; at most one of text, html.",
    );
    expect((line["properties"] as JsonObject)["sku"]).toEqual({
      anyOf: [{ type: "string" }, { type: "null" }],
    });
    expect(line["anyOf"]).toBeUndefined();
  });

  it("writes a oneof whose member closes a cycle as optional properties (Gemini)", () => {
    const { schema, oneofGroups } = buildToolSchema(
      message("CalcRequest"),
      false,
      undefined,
      "compact",
    );
    expect((schema["$defs"] as Record<string, unknown>)["Expr"]).toEqual({
      type: "object",
      properties: {
        number: { type: "number" },
        negated: { $ref: "#/$defs/Expr" },
      },
      description: "Set at most one of number, negated.",
    });
    expect(checkGeminiJsonSchema(schema)).toEqual([]);
    expect(oneofGroups).toContainEqual({
      path: ["e"],
      oneof: "kind",
      members: ["number", "negated"],
    });
  });

  it("keeps the default form's oneof branches", () => {
    const { schema } = buildToolSchema(message("CalcRequest"), false);
    const e = (schema["properties"] as Record<string, JsonObject>)["e"]!;
    expect((e["anyOf"] as unknown[]).length).toBe(2);
  });

  it("lists a definition's oneofs at every value path that uses it", () => {
    const tool = buildToolSchema(
      message("OrderRequest"),
      true,
      undefined,
      "compact",
    );
    expect(tool.oneofGroups).toEqual([
      { path: ["lines", "[]"], oneof: "target", members: ["sku", "url"] },
      { path: ["lines", "[]"], oneof: "note", members: ["text", "html"] },
      { path: ["featured"], oneof: "target", members: ["sku", "url"] },
      { path: ["featured"], oneof: "note", members: ["text", "html"] },
    ]);
    expect(Object.keys(tool.schema["$defs"] as object).sort()).toEqual([
      "Line",
      "Money",
    ]);
  });
});

describe("strict recursion (providers=openai: strictCycles)", () => {
  const strictTree = (): Record<string, unknown> =>
    buildToolSchema(message("TreeRequest"), true, undefined, "compact", true)
      .schema;

  it("writes the cycle through $ref, every property required, the back edge nullable", () => {
    const schema = strictTree();
    expect(checkOpenAiStrict(schema)).toEqual([]);
    const node = (schema["$defs"] as Record<string, Record<string, unknown>>)[
      "Node"
    ]!;
    expect(node).toEqual({
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/Node" } },
        parent: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] },
      },
      required: ["name", "children", "parent"],
      additionalProperties: false,
    });
    expect((schema["properties"] as Record<string, unknown>)["root"]).toEqual({
      $ref: "#/$defs/Node",
    });
  });

  it("is what the other providers refuse: Gemini (required cycle), Anthropic strict (recursion)", () => {
    const schema = strictTree();
    expect(checkGeminiJsonSchema(schema).map((v) => v.rule)).toContain(
      "required-cycle",
    );
    expect(checkAnthropicStrict(schema).map((v) => v.rule)).toContain(
      "no-recursion",
    );
  });

  it("admits values deeper than the old stop, which decode after the fix-up", () => {
    const schema = strictTree();
    const values = valuesFor(schema, { count: 60, seed: 11 });
    expect(
      values.some((v) =>
        /"children":\[\{[^\]]*"children":\[\{/.test(JSON.stringify(v)),
      ),
    ).toBe(true);
    const input = message("TreeRequest");
    for (const v of values) {
      expect(validateAgainst(schema, v)).toEqual([]);
      const fixed = fixArguments(JSON.stringify(v), input, true);
      expect(() =>
        fromJsonString(input, fixed, { registry: registry }),
      ).not.toThrow();
    }
  });

  it("makes a singular self reference nullable, and recursion through maps and oneofs real", () => {
    const { schema, oneofGroups } = buildToolSchema(
      message("ThreadRequest"),
      true,
      undefined,
      "compact",
      true,
    );
    expect(checkOpenAiStrict(schema)).toEqual([]);
    const reply = (schema["$defs"] as Record<string, Record<string, unknown>>)[
      "Reply"
    ]!;
    const props = reply["properties"] as Record<string, unknown>;
    expect(props["next"]).toEqual({
      anyOf: [{ $ref: "#/$defs/Reply" }, { type: "null" }],
    });
    expect(props["by_author"]).toEqual({
      type: "array",
      items: {
        type: "object",
        properties: {
          key: { type: "string" },
          value: { $ref: "#/$defs/Reply" },
        },
        required: ["key", "value"],
        additionalProperties: false,
      },
    });
    expect(oneofGroups).toEqual([
      { path: [], oneof: "pick", members: ["quoted", "plain"] },
    ]);
    const input = message("ThreadRequest");
    const groups = oneofGroups.map((g) => ({ ...g, name: g.oneof }));
    for (const v of valuesFor(schema, {
      count: 60,
      seed: 5,
      oneofGroups: groups,
    })) {
      expect(validateAgainst(schema, v, groups)).toEqual([]);
      const fixed = fixArguments(JSON.stringify(v), input, true);
      expect(() =>
        fromJsonString(input, fixed, { registry: registry }),
      ).not.toThrow();
    }
  });

  it("leaves the default inline form as it was (recursion cut)", () => {
    const inline = buildToolSchema(
      message("TreeRequest"),
      true,
      undefined,
      "inline",
      true,
    );
    expect(inline).toEqual(buildToolSchema(message("TreeRequest"), true));
    expect(inline.schema["$defs"]).toBeUndefined();
  });

  it("changes nothing for a tool without recursion", () => {
    const build = (cycles: boolean) =>
      buildToolSchema(
        message("OrderRequest"),
        true,
        undefined,
        "compact",
        cycles,
      );
    expect(build(true)).toEqual(build(false));
  });
});

describe("depth: $defs where a strict tool needs them", () => {
  it("counts the inline chain over 10 levels", () => {
    // Forced inline, the chain is 12 properties deep.
    const loose = buildToolSchema(message("DeepRequest"), false).schema;
    expect(schemaDepth(loose).depth).toBe(13);
  });

  it("gives a deep strict tool $defs in the default form, within 10 levels", () => {
    const { schema } = buildToolSchema(message("DeepRequest"), true);
    expect(schema["$defs"]).toBeDefined();
    expect(schemaDepth(schema).depth).toBeLessThanOrEqual(10);
    expect(checkOpenAiStrict(schema)).toEqual([]);
    const values = valuesFor(schema, { count: 20, seed: 3 });
    for (const v of values) expect(validateAgainst(schema, v)).toEqual([]);
  });

  it("leaves a deep non-strict tool inline (OpenAI's limit is strict mode's)", () => {
    const { schema } = buildToolSchema(message("DeepRequest"), false);
    expect(schema["$defs"]).toBeUndefined();
  });
});

describe.each(goldenCases())("compact form of case %s", (caseName) => {
  it("passes the strict checker and admits values that decode after the TypeScript and Python fix-ups", async () => {
    const request = await buildRequest(caseName);
    const model = modelOf(request);
    // providers=openai (the recursion case) makes strict recursion real.
    const options = parseOptions(request.parameter);
    const { strictCycles } = toolSelectionOf(options.common, options.lists);
    const set = create(FileDescriptorSetSchema, { file: request.protoFile });
    const types = createFileRegistry(set);
    const forPython: unknown[] = [];
    for (const [i, tool] of model.tools.entries()) {
      const { schema, oneofGroups } = buildToolSchema(
        tool.input,
        tool.strict,
        tool.method,
        "compact",
        strictCycles,
      );
      if (tool.strict) {
        expect(checkOpenAiStrict(schema), tool.name).toEqual([]);
      }
      const groups = oneofGroups.map((g) => ({
        path: g.path,
        members: g.members,
        name: g.oneof,
      }));
      const values = valuesFor(withDecodableMasks(schema), {
        count: 50,
        seed: 2000 + i,
        oneofGroups: groups,
        integerRange: () => ({ min: 0, max: 2 ** 31 - 1 }),
        numberLimit: 3.4e38,
      });
      let decoded = 0;
      for (const value of values) {
        expect(validateAgainst(schema, value, groups), tool.name).toEqual([]);
        // protobuf-es keeps maps in plain objects: a "__proto__" map key
        // is refused by the executor (toDecoderJson), not decoded here.
        const text = JSON.stringify(value);
        if (text.includes('"__proto__"')) continue;
        const input = esMessage(types, tool.input);
        const fixed = fixArguments(text, input, tool.strict);
        expect(() =>
          fromJsonString(input, fixed, {
            ignoreUnknownFields: true,
            registry: types,
          }),
        ).not.toThrow();
        decoded += 1;
      }
      if (!tool.input.fields.some((f) => f.name === "__proto__")) {
        expect(decoded, tool.name).toBeGreaterThan(values.length / 2);
      }
      forPython.push({
        tool: tool.name,
        requestType: tool.input.typeName,
        strict: tool.strict,
        values,
      });
    }
    const python = spawnSync(
      process.env["AI_TOOLS_PYTHON"] ||
        join(paths.generator, "..", ".venv", "bin", "python"),
      [join(import.meta.dirname, "support", "decode_values.py")],
      {
        input: JSON.stringify({
          descriptorSet: Buffer.from(
            toBinary(FileDescriptorSetSchema, set),
          ).toString("base64"),
          tools: forPython,
        }),
        encoding: "utf8",
        maxBuffer: 1 << 26,
      },
    );
    expect(python.status, python.stderr).toBe(0);
    expect(JSON.parse(python.stdout)).toEqual([]);
  }, 120_000);
});
