// toProtoJsonString against the texts Go's protojson writes for the same
// messages (compacted, as the Go runtime writes MCP results): written by
// google.golang.org/protobuf v1 from runtimes/go/internal/testpb, checked
// by hand.
import { create, createRegistry, fromJson } from "@bufbuild/protobuf";
import {
  anyPack,
  AnySchema,
  DoubleValueSchema,
  DurationSchema,
  FloatValueSchema,
  ListValueSchema,
  StructSchema,
  ValueSchema,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  shortestFloat32,
  toProtoJsonString,
  toProtoJsonStrings,
} from "../src/proto-json.js";
import {
  file_aitest_v1_vectors,
  FixupRequestSchema,
  ItemSchema,
} from "./src/gen/aitest/v1/vectors_pb.js";

const registry = createRegistry(file_aitest_v1_vectors);
const mcp = { useProtoFieldName: true, alwaysEmitImplicit: true, registry };

const negativeZero = () =>
  create(ValueSchema, { kind: { case: "numberValue", value: -0 } });

const attrsJson = {
  z: 1,
  é: 2,
  "！": 3,
  "😀": 4,
  "10": 5,
  a: { d: true, c: null, B: "x" },
};
const attrs = fromJson(StructSchema, attrsJson);

// Keys given out of order; Go sorts them.
const request = create(FixupRequestSchema, {
  labels: { b: "1", a: "2", "10": "3", ä: "4", Z: "5" },
  itemsByNum: {
    10: { name: "x", counts: { b: 1, a: 2, "10": 3 } },
    [-2]: {},
    3: { payload: negativeZero() },
  },
  flags: { true: "t", false: "f" },
  attrs: attrsJson,
  extra: negativeZero(),
  list: fromJson(ListValueSchema, [
    1,
    1e-7,
    1e21,
    123456789.125,
    -1.5e-10,
    "s",
  ]),
  kind: { case: "otherText", value: "o" },
  note: "n",
  count: -1,
  timeout: create(DurationSchema, { seconds: 1n, nanos: 500_000_000 }),
  data: new Uint8Array([0xfb, 0xff]),
});

const item = create(ItemSchema, {
  name: "x",
  ownerId: "u",
  counts: { b: 1, a: 2 },
  children: [{ name: "c" }],
});

describe("toProtoJsonString", () => {
  it("writes a message as Go does with proto names and defaults (MCP results)", () => {
    expect(toProtoJsonString(FixupRequestSchema, request, mcp)).toBe(
      '{"labels":{"10":"3","Z":"5","a":"2","b":"1","ä":"4"},"items_by_num":{"-2":{"name":"","counts":{},"children":[],"owner_id":""},"3":{"name":"","counts":{},"payload":-0,"children":[],"owner_id":""},"10":{"name":"x","counts":{"10":3,"a":2,"b":1},"children":[],"owner_id":""}},"flags":{"false":"f","true":"t"},"attrs":{"10":5,"a":{"B":"x","c":null,"d":true},"z":1,"é":2,"！":3,"😀":4},"extra":-0,"list":[1,1e-7,1e+21,123456789.125,-1.5e-10,"s"],"items":[],"other_text":"o","note":"n","values":[],"value_map":{},"display_name":"","count":-1,"enabled":false,"timeout":"1.500s","data":"+/8=","level":"LEVEL_UNSPECIFIED","levels":{}}',
    );
  });

  it("writes a message as Go does with JSON names, unset fields left out", () => {
    expect(toProtoJsonString(FixupRequestSchema, request, { registry })).toBe(
      '{"labels":{"10":"3","Z":"5","a":"2","b":"1","ä":"4"},"itemsByNum":{"-2":{},"3":{"payload":-0},"10":{"name":"x","counts":{"10":3,"a":2,"b":1}}},"flags":{"false":"f","true":"t"},"attrs":{"10":5,"a":{"B":"x","c":null,"d":true},"z":1,"é":2,"！":3,"😀":4},"extra":-0,"list":[1,1e-7,1e+21,123456789.125,-1.5e-10,"s"],"otherText":"o","note":"n","count":-1,"timeout":"1.500s","data":"+/8="}',
    );
  });

  it("writes an empty message's defaults as Go does", () => {
    expect(
      toProtoJsonString(FixupRequestSchema, create(FixupRequestSchema), mcp),
    ).toBe(
      '{"labels":{},"items_by_num":{},"flags":{},"items":[],"values":[],"value_map":{},"display_name":"","count":0,"enabled":false,"data":"","level":"LEVEL_UNSPECIFIED","levels":{}}',
    );
  });

  it("writes @type first in an Any, the packed fields after it", () => {
    const packed = anyPack(ItemSchema, item);
    expect(toProtoJsonString(AnySchema, packed, { registry })).toBe(
      '{"@type":"type.googleapis.com/aitest.v1.Item","name":"x","counts":{"a":2,"b":1},"children":[{"name":"c"}],"ownerId":"u"}',
    );
    expect(toProtoJsonString(AnySchema, packed, mcp)).toBe(
      '{"@type":"type.googleapis.com/aitest.v1.Item","name":"x","counts":{"a":2,"b":1},"children":[{"name":"c","counts":{},"children":[],"owner_id":""}],"owner_id":"u"}',
    );
  });

  it("writes a well-known type in an Any under value, an Any in an Any too", () => {
    const types = createRegistry(registry, StructSchema, DurationSchema);
    expect(
      toProtoJsonString(AnySchema, anyPack(StructSchema, attrs), {
        registry: types,
      }),
    ).toBe(
      '{"@type":"type.googleapis.com/google.protobuf.Struct","value":{"10":5,"a":{"B":"x","c":null,"d":true},"z":1,"é":2,"！":3,"😀":4}}',
    );
    expect(
      toProtoJsonString(
        AnySchema,
        anyPack(DurationSchema, create(DurationSchema, { seconds: 1n })),
        { registry: types },
      ),
    ).toBe(
      '{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1s"}',
    );
    expect(
      toProtoJsonString(
        AnySchema,
        anyPack(AnySchema, anyPack(ItemSchema, item)),
        { registry: createRegistry(types, AnySchema) },
      ),
    ).toBe(
      '{"@type":"type.googleapis.com/google.protobuf.Any","value":{"@type":"type.googleapis.com/aitest.v1.Item","name":"x","counts":{"a":2,"b":1},"children":[{"name":"c"}],"ownerId":"u"}}',
    );
  });
});

describe("float fields", () => {
  // Go writes a float (32-bit) field with the shortest digits that read
  // back as the same float32 (strconv.AppendFloat(…, 32)); protobuf-es
  // writes its double value.
  it.each([
    [2.802596928649634e-45, 3e-45],
    [1.401298464324817e-45, 1e-45],
    [3.4028234663852886e38, 3.4028235e38],
    [0.10000000149011612, 0.1],
    [-2.5, -2.5],
    [16777216, 16777216],
  ])("shortestFloat32(%s) is %s", (x, shortest) => {
    expect(shortestFloat32(x)).toBe(shortest);
  });

  it("writes a float as Go does, a double as it is", () => {
    const float = (value: number) =>
      toProtoJsonString(FloatValueSchema, create(FloatValueSchema, { value }));
    expect(float(2.8026e-45)).toBe("3e-45");
    expect(float(0.1)).toBe("0.1");
    expect(float(3.4e38)).toBe("3.4e+38");
    expect(float(-0)).toBe("-0");
    expect(
      toProtoJsonString(
        DoubleValueSchema,
        create(DoubleValueSchema, { value: 2.8026e-45 }),
      ),
    ).toBe("2.8026e-45");
  });
});

describe("toProtoJsonStrings", () => {
  it("writes both namings of one encoding, as toProtoJsonString does each", () => {
    const both = toProtoJsonStrings(FixupRequestSchema, request, { registry });
    expect(both.jsonNames).toBe(
      toProtoJsonString(FixupRequestSchema, request, { registry }),
    );
    expect(both.protoNames).toBe(
      toProtoJsonString(FixupRequestSchema, request, {
        registry,
        useProtoFieldName: true,
      }),
    );
    // Names differ (itemsByNum, otherText), values do not.
    expect(both.protoNames).toContain('"items_by_num":');
    expect(both.jsonNames).toContain('"itemsByNum":');
    expect(JSON.parse(both.protoNames)).toHaveProperty("other_text", "o");
  });
});
