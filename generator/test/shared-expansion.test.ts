// A message nested in several requests is built once per mode and shared
// by their schemas (build-schema.ts, sharedExpansion): each use must still
// get its own field description and oneof paths, and the shared nodes must
// be frozen, so that no pass can change one tool's schema through another.
import { beforeAll, expect, it } from "vitest";
import type { DescMessage } from "../src/read/descriptors.js";
import { resolveRequestFiles } from "../src/model/build-model.js";
import { buildToolSchema } from "../src/schema/build-schema.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { compileRequest } from "./support/compile.js";

const proto = `
syntax = "proto3";
package t.v1;

message Address {
  string street = 1;
  oneof where {
    string city = 2;
    string region = 3;
  }
  // Two oneofs: written side by side, which the executors check.
  oneof kind {
    string home = 4;
    string work = 5;
  }
}

message CreateRequest {
  // Where to deliver.
  Address delivery = 1;
}

message UpdateRequest {
  string id = 1;
  // Where to send the bill.
  Address billing = 2;
}
`;

let messages: Map<string, DescMessage>;

beforeAll(() => {
  const request = compileRequest({ "t/v1/t.proto": proto });
  const { files } = resolveRequestFiles(request);
  messages = new Map(files[0]!.messages.map((m) => [m.name, m]));
});

function build(name: string, strict: boolean) {
  return buildToolSchema(messages.get(name)!, strict);
}

function property(schema: JsonSchema, name: string): JsonSchema {
  return (schema["properties"] as Record<string, JsonSchema>)[name]!;
}

it.each([false, true])(
  "strict %s: two requests share Address's nodes, each with its own description and oneof path",
  (strict) => {
    const create = build("CreateRequest", strict);
    const update = build("UpdateRequest", strict);
    const delivery = property(create.schema, "delivery");
    const billing = property(update.schema, "billing");
    const text = JSON.stringify([delivery, billing]);
    expect(text).toContain("Where to deliver.");
    expect(text).toContain("Where to send the bill.");
    expect(JSON.stringify(delivery)).not.toContain("bill");

    // The Address object (nullable in strict tools) below each field.
    const addressOf = (node: JsonSchema): JsonSchema =>
      node["anyOf"] === undefined
        ? node
        : (node["anyOf"] as JsonSchema[]).find((s) => s["type"] !== "null")!;
    const street = property(addressOf(delivery), "street");
    expect(property(addressOf(billing), "street")).toBe(street);
    expect(Object.isFrozen(street)).toBe(true);
    expect(() => {
      street["description"] = "changed";
    }).toThrow(TypeError);

    const groups = (at: string) => [
      { path: [at], oneof: "where", members: ["city", "region"] },
      { path: [at], oneof: "kind", members: ["home", "work"] },
    ];
    expect(create.oneofGroups).toEqual(groups("delivery"));
    expect(update.oneofGroups).toEqual(groups("billing"));
  },
);
