import { create, equals, toJsonString } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Color,
  SampleSchema,
  type Sample,
} from "../src/gen/linkhub/v1/samples_pb.js";
import { startHarness, type Harness } from "./support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function fullSample(): Sample {
  return create(SampleSchema, {
    at: { seconds: 1_700_000_000n, nanos: 5 },
    ttl: { seconds: 90n },
    mask: { paths: ["a.b", "c"] },
    meta: { k: [1, "two", null, { nested: true }] },
    value: { kind: { case: "numberValue", value: 1.5 } },
    list: { values: [{ kind: { case: "stringValue", value: "x" } }] },
    maybeText: "",
    maybeCount: -9_007_199_254_740_993n,
    maybeFlag: false,
    maybeBlob: new Uint8Array([0, 255]),
    maybeRatio: 0.25,
    maybePort: 8080,
    blob: new Uint8Array([1, 2, 3]),
    big: 9_223_372_036_854_775_807n,
    ubig: 18_446_744_073_709_551_615n,
    sbig: -9_223_372_036_854_775_808n,
    fbig: 42n,
    color: Color.GREEN,
    note: "",
    byName: { a: { name: "A", rank: 1 } },
    byNum: { "-3": "minus three" },
    byFlag: { true: 1, false: 0 },
    attrs: { x: { kind: { case: "boolValue", value: true } } },
    items: [{ name: "i", rank: 2 }],
    times: [{ seconds: 1n }],
    choice: { case: "inner", value: { name: "in", rank: 3 } },
    score: 0.5,
  });
}

describe("SampleService", () => {
  it.each(["echoStrict", "echoLoose"] as const)(
    "%s returns the request unchanged",
    async (method) => {
      const sent = fullSample();
      const got = await h.samples[method](sent);
      expect(equals(SampleSchema, got, sent)).toBe(true);
      expect(toJsonString(SampleSchema, got)).toBe(
        toJsonString(SampleSchema, sent),
      );
      const empty = await h.samples[method]({});
      expect(equals(SampleSchema, empty, create(SampleSchema))).toBe(true);
    },
  );
});
