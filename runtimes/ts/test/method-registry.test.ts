// The registry an executor writes a response's Anys with: the method's
// file and its imports, and the well-known types, which Go and Python know
// in any program (docs/runtime.md, "Responses").
import { create, createRegistry } from "@bufbuild/protobuf";
import {
  anyPack,
  type Any,
  DurationSchema,
  FieldMaskSchema,
  OptionSchema,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { createMethodRegistry } from "../src/method-registry.js";
import { toProtoJsonString } from "../src/proto-json.js";
import { file_aitest_v1_vectors } from "./src/gen/aitest/v1/vectors_pb.js";

const method = file_aitest_v1_vectors.services[0]!.methods[0]!;

describe("createMethodRegistry", () => {
  it("holds the method's types and every well-known type", () => {
    // vectors.proto imports duration.proto, not field_mask.proto or type.proto.
    expect(
      file_aitest_v1_vectors.dependencies.map((f) => f.name),
    ).not.toContain("google/protobuf/field_mask");
    const registry = createMethodRegistry(method);
    expect(registry.getMessage(method.input.typeName)).toBe(method.input);
    for (const name of [
      "google.protobuf.Duration",
      "google.protobuf.FieldMask",
      "google.protobuf.Option",
      "google.protobuf.Struct",
      "google.protobuf.BytesValue",
    ]) {
      expect(registry.getMessage(name)?.typeName).toBe(name);
    }
  });

  it("writes a well-known type in an Any as Go does, imported or not", () => {
    const registry = createMethodRegistry(method);
    const option = (value: Any) =>
      toProtoJsonString(
        OptionSchema,
        create(OptionSchema, { name: "o", value }),
        {
          registry,
        },
      );
    expect(
      option(
        anyPack(
          FieldMaskSchema,
          create(FieldMaskSchema, { paths: ["a", "b_c"] }),
        ),
      ),
    ).toBe(
      '{"name":"o","value":{"@type":"type.googleapis.com/google.protobuf.FieldMask","value":"a,bC"}}',
    );
    expect(
      option(
        anyPack(
          DurationSchema,
          create(DurationSchema, { seconds: 1n, nanos: 500000000 }),
        ),
      ),
    ).toBe(
      '{"name":"o","value":{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1.500s"}}',
    );
  });

  it("lets the given registry's types in", () => {
    const extra = createRegistry(OptionSchema);
    expect(
      createMethodRegistry(method, extra).getMessage(OptionSchema.typeName),
    ).toBe(OptionSchema);
  });
});
