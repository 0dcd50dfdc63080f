import { beforeAll, describe, expect, it } from "vitest";
import type { DescField, DescMessage } from "../src/read/descriptors.js";
import type { GeneratorModel, ToolModel } from "../src/model/model.js";
import { httpBoundFields } from "../src/schema/http-bound-fields.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { modelOf } from "./support/model.js";
import { realApiRequest } from "./support/real-apis.js";

// Issue 31's AIP rules on Google's own protos (google-proto-files), with
// `tools=all` as a user of these APIs would generate them.

interface Table {
  nodes: { fields: Record<string, { node?: number }>; required?: string[] }[];
}

function tableOf(tool: ToolModel): Table {
  return JSON.parse(tool.argumentsJson) as Table;
}

let pubsub: GeneratorModel;
let gemini: GeneratorModel;

beforeAll(() => {
  pubsub = modelOf(realApiRequest("google/pubsub/v1", "target=go,tools=all"));
  gemini = modelOf(
    realApiRequest(
      "google/ai/generativelanguage/v1beta",
      "target=go,tools=all",
    ),
  );
}, 120_000);

function toolFor(model: GeneratorModel, method: string): ToolModel {
  const tool = model.tools.find((t) => t.method.name === method);
  if (tool === undefined) throw new Error(`no tool for ${method}`);
  return tool;
}

function deref(root: JsonSchema, schema: JsonSchema): JsonSchema {
  const ref = schema["$ref"];
  if (typeof ref !== "string") return schema;
  const key = ref.slice("#/$defs/".length).replace(/~1/g, "/");
  return deref(root, (root["$defs"] as Record<string, JsonSchema>)[key]!);
}

/** The object branches of a schema, `$ref`s followed, nulls left out. */
function objects(root: JsonSchema, schema: JsonSchema): JsonSchema[] {
  const s = deref(root, schema);
  const anyOf = s["anyOf"] as JsonSchema[] | undefined;
  if (anyOf !== undefined) {
    return anyOf
      .filter((b) => b["type"] !== "null")
      .flatMap((b) => objects(root, b));
  }
  return s["properties"] !== undefined ? [s] : [];
}

/** True when a call may leave the property `name` of `object` unset. */
function canLeaveUnset(
  root: JsonSchema,
  object: JsonSchema,
  name: string,
): boolean {
  const required = (object["required"] ?? []) as string[];
  const prop = deref(
    root,
    (object["properties"] as Record<string, JsonSchema>)[name]!,
  );
  const anyOf = prop["anyOf"] as JsonSchema[] | undefined;
  return (
    !required.includes(name) ||
    anyOf?.some((b) => deref(root, b)["type"] === "null") === true
  );
}

/** `visit` for every field a tool's schema shows, with its object. */
function eachField(
  tool: ToolModel,
  visit: (field: DescField, object: JsonSchema, root: JsonSchema) => void,
): void {
  const root = JSON.parse(tool.schemaJson) as JsonSchema;
  const seen = new Set<JsonSchema>();
  const walk = (schema: JsonSchema, message: DescMessage): void => {
    for (const object of objects(root, schema)) {
      if (seen.has(object)) continue;
      seen.add(object);
      const properties = object["properties"] as Record<string, JsonSchema>;
      for (const field of message.fields) {
        const prop = properties[field.name];
        if (prop === undefined) continue;
        visit(field, object, root);
        if (field.fieldKind === "message") walk(prop, field.message);
      }
    }
  };
  walk(root, tool.input);
}

describe("AIP rules on real Google APIs", () => {
  it("Pub/Sub CreateTopic(Topic) keeps the topic's name required", () => {
    for (const method of ["CreateTopic", "CreateSubscription"]) {
      const tool = toolFor(pubsub, method);
      expect(tool.strict).toBe(true);
      const root = JSON.parse(tool.schemaJson) as JsonSchema;
      expect(canLeaveUnset(root, root, "name")).toBe(false);
      expect(tableOf(tool).nodes[0]!.required).toContain("name");
    }
  });

  it("an AIP-133 Create (Gemini API CreateDocument, CreateChunk, CreatePermission; top-level CreateCorpus, CreateFile) no longer requires the identifier", () => {
    for (const [method, resource] of [
      ["CreateDocument", "document"],
      ["CreateChunk", "chunk"],
      ["CreatePermission", "permission"],
      ["CreateCorpus", "corpus"],
      ["CreateFile", "file"],
    ] as const) {
      const tool = toolFor(gemini, method);
      const root = JSON.parse(tool.schemaJson) as JsonSchema;
      const inner = objects(
        root,
        (root["properties"] as Record<string, JsonSchema>)[resource]!,
      )[0]!;
      expect(
        (inner["properties"] as Record<string, JsonSchema>)["name"],
      ).toBeDefined();
      expect(canLeaveUnset(root, inner, "name")).toBe(true);
      const table = tableOf(tool);
      const node = table.nodes[table.nodes[0]!.fields[resource]!.node!]!;
      expect(node.required ?? []).not.toContain("name");
    }
  });

  it("path-bound fields are never nullable nor optional", () => {
    let checked = 0;
    for (const model of [pubsub, gemini]) {
      for (const tool of model.tools) {
        const root = JSON.parse(tool.schemaJson) as JsonSchema;
        for (const bound of httpBoundFields(tool.method)) {
          let object = root;
          let message: DescMessage | undefined = tool.input;
          for (const name of bound.split(".")) {
            const field: DescField | undefined = message?.fields.find(
              (f) => f.name === name,
            );
            if (field === undefined || message === undefined) break;
            expect(
              canLeaveUnset(root, object, name),
              `${tool.name}: ${bound}`,
            ).toBe(false);
            checked++;
            const props = object["properties"] as Record<string, JsonSchema>;
            object = objects(root, props[name]!)[0] ?? object;
            message = field.fieldKind === "message" ? field.message : undefined;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it("strict enum fields with an UNSPECIFIED zero can be null unless required", () => {
    // Every singular enum field outside a oneof that a strict tool shows,
    // by message: all have an UNSPECIFIED zero; the three REQUIRED ones
    // (field_behavior) must be sent, the others may be null.
    const nullable = [
      "google.ai.generativelanguage.v1beta.EmbedContentRequest.task_type",
      "google.ai.generativelanguage.v1beta.File.source",
      "google.ai.generativelanguage.v1beta.FunctionCallingConfig.mode",
      "google.ai.generativelanguage.v1beta.GenerationConfig.media_resolution",
      "google.ai.generativelanguage.v1beta.Permission.grantee_type",
      "google.pubsub.v1.GetSchemaRequest.view",
      "google.pubsub.v1.ListSchemaRevisionsRequest.view",
      "google.pubsub.v1.ListSchemasRequest.view",
      "google.pubsub.v1.PlatformLogsSettings.severity",
      "google.pubsub.v1.Schema.type",
      "google.pubsub.v1.SchemaSettings.encoding",
      "google.pubsub.v1.ValidateMessageRequest.encoding",
    ];
    const required = [
      "google.ai.generativelanguage.v1beta.GenerateAnswerRequest.answer_style",
      "google.ai.generativelanguage.v1beta.Permission.role",
      "google.ai.generativelanguage.v1beta.Schema.type",
    ];
    const seen = new Map<string, Set<boolean>>();
    for (const model of [pubsub, gemini]) {
      for (const tool of model.tools.filter((t) => t.strict)) {
        eachField(tool, (field, object, root) => {
          if (field.fieldKind !== "enum" || field.oneof !== undefined) return;
          const name = `${field.parent.typeName}.${field.name}`;
          const set = seen.get(name) ?? new Set<boolean>();
          set.add(canLeaveUnset(root, object, field.name));
          seen.set(name, set);
        });
      }
    }
    const each = (value: boolean): string[] =>
      [...seen]
        .filter(([, values]) => values.size === 1 && values.has(value))
        .map(([name]) => name)
        .sort();
    expect(each(true)).toEqual(nullable);
    expect(each(false)).toEqual(required);
    expect(seen.size).toBe(nullable.length + required.length);
  });
});
