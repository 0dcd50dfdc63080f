// Scenario 4: every well-known type, map and oneof. Arguments generated from
// each samples_echo_* schema (by @protoc-gen-ai-tools/testkit, from the schema the
// generated file carries) go through the executor to the real server; what
// the server received must equal the request the arguments mean, worked out
// independently (expectedJson: the schema fixes of docs/compat.md undone by
// hand, then protobuf-es decoding), and so must the echo.
//
// A FieldMask (Sample.mask) is generated as any string: one whose paths name
// no field of Sample is refused before sending (invalid-value on "mask"),
// then sent again with a mask of Sample (wireMask decides, from Sample's
// descriptor, independently of the runtime).
//
// A map or Struct key "__proto__" (fast-check likes it) is refused by the
// runtime as invalid arguments, with nothing sent and no prototype touched:
// protobuf-es keeps maps in plain objects, where that key would set the
// prototype instead of adding an entry (the Go suite leaves such values out
// because the server, written with protobuf-es, loses the key).
import {
  modelOfTestApi,
  valuesPerTool,
} from "@protoc-gen-ai-tools/e2e-samples";
import { valuesFor, validateAgainst } from "@protoc-gen-ai-tools/testkit";
import {
  equals,
  fromJsonString,
  type DescField,
  type DescMessage,
} from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  samplesEchoLoose,
  samplesEchoStrict,
} from "../src/gen/ai_tools.gen.js";
import { SampleSchema, type Sample } from "../src/gen/linkhub/v1/samples_pb.js";
import {
  Model,
  recorded,
  resetServer,
  toolError,
  useServer,
} from "./support.js";

const env = useServer();
const count = valuesPerTool; // 200 nightly, 40 in .ci/run

/** The plugin's model of e2e/proto: the schema and oneof groups of a tool. */
function oneofGroupsOf(toolName: string) {
  const tool = modelOfTestApi("ts").tools.find((t) => t.name === toolName)!;
  return { schemaJson: tool.schemaJson, groups: tool.oneofGroups };
}

/**
 * A FieldMask text as sent (lowerCamel paths joined by `,`, blanks around
 * paths and empty paths dropped), or undefined when a path names no field
 * of Sample: each segment a field by proto or lowerCamel name, a message
 * (not google.protobuf.*) descended into, one key of lower-case letters
 * and digits after a map, nothing
 * after anything else; `*` alone.
 */
function wireMask(text: string): string | undefined {
  const paths: string[] = [];
  for (const raw of text.split(",")) {
    const path = raw.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");
    if (path === "" || path === "*") {
      if (path === "*") paths.push(path);
      continue;
    }
    let message: DescMessage | undefined = SampleSchema;
    let mapKey = false;
    const segments: string[] = [];
    for (const seg of path.split(".")) {
      if (seg === "") return undefined;
      if (mapKey) {
        // The JSON form of a mask carries lower-case keys only (runtime.md).
        if (!/^[a-z][a-z0-9]*$/.test(seg)) return undefined;
        segments.push(seg);
        mapKey = false;
        message = undefined;
        continue;
      }
      const field: DescField | undefined = message?.fields.find(
        (f) => f.name === seg || protoCamelCase(f.name) === seg,
      );
      if (field === undefined) return undefined;
      segments.push(protoCamelCase(field.name));
      mapKey = field.fieldKind === "map";
      message =
        field.fieldKind === "message" &&
        !field.message.typeName.startsWith("google.protobuf.")
          ? field.message
          : undefined;
    }
    paths.push(segments.join("."));
  }
  return paths.join(",");
}

/** A proto name in lowerCamel, as FieldMask JSON writes it. */
function protoCamelCase(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Masks of Sample in either naming, sent instead of a refused one. */
const sampleMasks = [
  "maybe_text, byName.k",
  "inner.name,at",
  "*",
  "items,by_num.n7",
  "meta,ttl",
  "text,inner.rank,",
];

/** Sample arguments rewritten into protobuf JSON (docs/compat.md, by hand). */
function expectedJson(args: string, strict: boolean): string {
  const obj = JSON.parse(args) as Record<string, unknown>;
  const jsonText = (v: unknown): unknown => {
    if (typeof v !== "string" || !strict) return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  };
  const entries = (v: unknown, valueIsJsonText: boolean): unknown => {
    if (!Array.isArray(v)) return v;
    const m = Object.create(null) as Record<string, unknown>;
    for (const { key, value } of v as { key: unknown; value: unknown }[]) {
      m[String(key)] = valueIsJsonText ? jsonText(value) : value;
    }
    return m;
  };
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(obj)) {
    let v = value;
    if (v === null && k !== "value") continue;
    if (k === "meta" || k === "attrs") v = entries(v, true);
    else if (k === "by_name" || k === "by_num" || k === "by_flag")
      v = entries(v, false);
    else if (k === "value") v = jsonText(v);
    else if (k === "mask" && typeof v === "string") v = wireMask(v);
    else if (k === "list" && Array.isArray(v)) v = v.map(jsonText);
    out[k] = v;
  }
  return JSON.stringify(out);
}

/** True when "__proto__" is an object key, or a map or Struct entry's key. */
function hasProtoKey(v: unknown, mapField = false): boolean {
  if (Array.isArray(v)) {
    return v.some(
      (item) =>
        (mapField &&
          typeof item === "object" &&
          item !== null &&
          (item as { key?: unknown }).key === "__proto__") ||
        hasProtoKey(item),
    );
  }
  if (typeof v !== "object" || v === null) return false;
  return Object.entries(v).some(
    ([k, item]) =>
      k === "__proto__" ||
      hasProtoKey(
        item,
        ["meta", "attrs", "by_name", "by_num", "by_flag"].includes(k),
      ),
  );
}

/**
 * True when the empty message `nothing` carries keys: its loose schema
 * (`{"type":"object","properties":{}}`) does not forbid them, and the value
 * generator adds `x_` keys to such objects, which are unknown fields.
 */
function hasEmptyKeys(v: unknown): boolean {
  const n = (v as Record<string, unknown>)["nothing"];
  return (
    typeof n === "object" &&
    n !== null &&
    !Array.isArray(n) &&
    Object.keys(n).length > 0
  );
}

/**
 * `sample` with its score as the float32 the wire carries, and a -0 score as
 * 0 (unset): what the recording and the echo can tell apart.
 */
function asFloat32Score(sample: Sample): Sample {
  sample.score = Math.fround(sample.score);
  if (Object.is(sample.score, -0)) {
    sample.score = 0;
  }
  return sample;
}

describe("schema-generated values reach the server intact", () => {
  for (const [i, tool] of [samplesEchoStrict, samplesEchoLoose].entries()) {
    it(tool.name, async () => {
      const { schemaJson, groups } = oneofGroupsOf(tool.name);
      // The generated file carries the plugin's schema.
      expect(tool.parameters).toEqual(JSON.parse(schemaJson));
      const values = valuesFor(JSON.parse(schemaJson), {
        count,
        seed: 7000 + i,
        oneofGroups: groups.map((g) => ({
          path: g.path,
          members: g.members,
          name: g.oneof,
        })),
        integerRange: () => ({ min: 0, max: 2 ** 31 - 1 }),
        numberLimit: 3.4e38,
        // Undeclared keys are refused before sending (unknown fields).
        unknownKeys: false,
      });
      expect(values).toHaveLength(count);
      await resetServer(env);
      const m = new Model(env);
      let sent = 0;
      let protoKeys = 0;
      let negZero = 0;
      let emptyKeys = 0;
      let masksRefused = 0;
      for (const v of values) {
        expect(validateAgainst(JSON.parse(schemaJson), v, groups)).toEqual([]);
        const args = JSON.stringify(v);
        const before = (await recorded(env)).length;
        if (hasProtoKey(v)) {
          protoKeys++;
          const err = await toolError(
            m.executor.execute(tool.name, args),
            args,
          );
          expect(err.reason).toBe("invalid-arguments");
          expect(err.message).toMatch(/"__proto__"/);
          expect((await recorded(env)).length).toBe(before);
          expect(Object.prototype).not.toHaveProperty("polluted");
          continue;
        }
        if (hasEmptyKeys(v)) {
          emptyKeys++;
          const err = await toolError(
            m.executor.execute(tool.name, args),
            args,
          );
          expect(err.violations.map((x) => x.reason)).toContain(
            "unknown-field",
          );
          expect(err.message).toMatch(/"nothing\.x_/);
          expect((await recorded(env)).length).toBe(before);
          continue;
        }
        const mask = (v as Record<string, unknown>)["mask"];
        if (typeof mask === "string" && wireMask(mask) === undefined) {
          const err = await toolError(
            m.executor.execute(tool.name, JSON.stringify(v)),
            args,
          );
          expect(
            err.violations.map((x) => [x.field, x.reason]),
            args,
          ).toEqual(err.violations.map(() => ["mask", "invalid-value"]));
          expect(err.violations.length).toBeGreaterThan(0);
          expect((await recorded(env)).length).toBe(before);
          (v as Record<string, unknown>)["mask"] =
            sampleMasks[masksRefused++ % sampleMasks.length];
        }
        await sendIntact(v);
      }
      async function sendIntact(v: unknown): Promise<void> {
        const args = JSON.stringify(v);
        const before = (await recorded(env)).length;
        const want = fromJsonString(
          SampleSchema,
          expectedJson(args, tool.strict),
          {
            ignoreUnknownFields: true,
          },
        );
        const out = await m.executor.execute(tool.name, args);
        const recs = (await recorded(env)).slice(before);
        expect(recs.map((r) => r.procedure)).toEqual([
          `linkhub.v1.SampleService/${tool.strict ? "EchoStrict" : "EchoLoose"}`,
        ]);
        // score is a float: protobuf-es holds the decoded double, the wire
        // carries float32. And protobuf-es writes no JSON for a float -0: the
        // recording cannot tell it from unset.
        if (Object.is(want.score, -0)) {
          negZero++;
        }
        asFloat32Score(want);
        const got = fromJsonString(SampleSchema, recs[0]!.requestJson);
        expect(
          equals(SampleSchema, got, want),
          `server received ${recs[0]!.requestJson}\nargs ${args}`,
        ).toBe(true);
        // The echo is written as Go writes it: a float in its shortest
        // float32 digits (3.4e+38), which protobuf-es reads as that double,
        // and -0 as "-0".
        const echoed = asFloat32Score(fromJsonString(SampleSchema, out));
        expect(equals(SampleSchema, echoed, want), `echo ${out}`).toBe(true);
        sent++;
      }
      console.log(
        `${tool.name}: ${sent} schema-generated values sent, all intact; ${protoKeys} with a "__proto__" key refused before sending; ${emptyKeys} with keys in the empty message refused as unknown fields; ${masksRefused} with a mask naming no field refused, then sent with a mask of Sample; ${negZero} with a score of -0`,
      );
      expect(sent).toBeGreaterThanOrEqual(count / 2);
    });
  }
});

it('a "__proto__" map or Struct key is refused before sending, and so is an unknown message key; as a value it is sent', async () => {
  await resetServer(env);
  const m = new Model(env);
  const refused: [string, string][] = [
    ["samples_echo_loose", `{"by_name":{"__proto__":{"name":"x","rank":1}}}`],
    ["samples_echo_loose", `{"attrs":{"__proto__":{"polluted":true}}}`],
    ["samples_echo_loose", `{"meta":{"a":{"__proto__":{"polluted":true}}}}`],
    // Entries, as a strict schema writes maps (the loose tool reads them
    // too: the strict tool would first want every field).
    [
      "samples_echo_loose",
      `{"by_name":[{"key":"__proto__","value":{"name":"x","rank":1}}]}`,
    ],
    [
      "samples_echo_loose",
      `{"meta":[{"key":"__proto__","value":"{\\"polluted\\":true}"}]}`,
    ],
    // A message key matching no field: an unknown field.
    ["samples_echo_loose", `{"__proto__":{"polluted":true},"note":"x"}`],
  ];
  for (const [tool, args] of refused) {
    const err = await toolError(m.executor.execute(tool, args), args);
    expect(err.reason, args).toBe("invalid-arguments");
    expect(err.message, args).toMatch(
      /^invalid arguments, nothing was sent:\n- .*"__proto__"/,
    );
  }
  expect(await recorded(env)).toEqual([]);
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  // Not a key: an ordinary string.
  const out: unknown = JSON.parse(
    await m.executor.execute(
      "samples_echo_loose",
      `{"note":"__proto__","by_num":{"7":"__proto__"}}`,
    ),
  );
  expect(out).toMatchObject({
    note: "__proto__",
    by_num: { "7": "__proto__" },
  });
  expect(
    (await recorded(env)).map((r): unknown => JSON.parse(r.requestJson)),
  ).toEqual([{ note: "__proto__", byNum: { "7": "__proto__" } }]);
  expect(Object.prototype).not.toHaveProperty("polluted");
});
