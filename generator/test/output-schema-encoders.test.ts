import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  create,
  createFileRegistry,
  fromBinary,
  toBinary,
  toJson,
  type DescMessage,
  type JsonValue,
  type Registry,
} from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Ajv2020 } from "ajv/dist/2020.js";
import { esMessage } from "./support/es-registry.js";
import formats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import type { GeneratorModel, ToolModel } from "../src/model/model.js";
import { buildOutputSchema } from "../src/schema/build-output-schema.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { compileRequest, type ProtoSources } from "./support/compile.js";
import { modelOf } from "./support/model.js";
import {
  closedProto,
  edgeProto,
  editionsProto,
  outputProto,
} from "./support/output-protos.js";
import {
  sampleMessage,
  sampleVariants,
  type SampleVariant,
} from "./support/output-samples.js";

// Every response type of the e2e test API (e2e/proto) and of the edge-case
// protos, filled with typical, extreme and default values, written by the
// three languages' protobuf JSON encoders as the MCP files and the
// executors configure them, and validated against the output schemas with
// a real JSON Schema validator (ajv, draft 2020-12, with ajv-formats, as
// the TypeScript MCP client validates structuredContent).

const repoRoot = resolve(import.meta.dirname, "..", "..");
const e2eProtoDir = join(repoRoot, "e2e", "proto", "linkhub", "v1");

/** One response message, written by each encoder in each encoding. */
interface Sample {
  readonly tool: ToolModel;
  readonly variant: SampleVariant | "empty";
  readonly desc: DescMessage;
  readonly binary: Uint8Array;
  /** Encoder → JSON text: proto names and defaults emitted (MCP). */
  readonly mcp: Map<string, string>;
  /** Encoder → JSON text: the executors' encoding (JSON names, unset left out). */
  readonly plain: Map<string, string>;
}

const addFormats = formats as unknown as (ajv: Ajv2020) => Ajv2020;

let model: GeneratorModel;
let samples: Sample[];

function sources(): ProtoSources {
  const out: ProtoSources = {
    "t/v1/t.proto": outputProto,
    "t/v2/t.proto": closedProto,
    "t/v3/t.proto": editionsProto,
    "t/v4/t.proto": edgeProto,
  };
  for (const name of readdirSync(e2eProtoDir).sort()) {
    out[`linkhub/v1/${name}`] = readFileSync(join(e2eProtoDir, name), "utf8");
  }
  return out;
}

/** Run a sample printer: JSON on stdin, an array of {encoding: text} out. */
function runPrinter(
  command: string,
  args: readonly string[],
  cwd: string,
  input: string,
): Record<string, string>[] {
  let out: string;
  try {
    out = execFileSync(command, args, {
      cwd,
      input,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["pipe", "pipe", "pipe"],
    });
  } catch (e) {
    const stderr = (e as { stderr?: string }).stderr ?? "";
    throw new Error(
      `${command} ${args.join(" ")} failed (needs Go and the repository's .venv: bash scripts/setup.sh): ${e instanceof Error ? e.message : String(e)}\n${stderr}`,
      { cause: e },
    );
  }
  return JSON.parse(out) as Record<string, string>[];
}

beforeAll(() => {
  const request = compileRequest(sources());
  model = modelOf(request);
  const registry: Registry = createFileRegistry(
    create(FileDescriptorSetSchema, { file: request.protoFile }),
  );
  samples = [];
  for (const tool of model.tools) {
    const desc = esMessage(registry, tool.output);
    for (const variant of ["empty", ...sampleVariants] as const) {
      if (variant === "empty" && desc.typeName === "google.protobuf.Value") {
        continue; // a Value with no kind has no JSON: every encoder fails
      }
      const binary = toBinary(
        desc,
        variant === "empty"
          ? create(desc)
          : sampleMessage(desc, variant, registry),
      );
      // As a server's response arrives: decoded from the wire.
      const message = fromBinary(desc, binary);
      samples.push({
        tool,
        variant,
        desc,
        binary,
        mcp: new Map([
          [
            "ts",
            JSON.stringify(
              toJson(desc, message, {
                registry,
                useProtoFieldName: true,
                alwaysEmitImplicit: true,
              }),
            ),
          ],
        ]),
        plain: new Map([
          ["ts", JSON.stringify(toJson(desc, message, { registry }))],
        ]),
      });
    }
  }
  const input = JSON.stringify({
    descriptorSet: Buffer.from(
      toBinary(
        FileDescriptorSetSchema,
        create(FileDescriptorSetSchema, { file: request.protoFile }),
      ),
    ).toString("base64"),
    cases: samples.map((s) => ({
      type: s.desc.typeName,
      binary: Buffer.from(s.binary).toString("base64"),
    })),
  });
  const go = runPrinter(
    "go",
    ["run", "./protojson-samples"],
    join(repoRoot, "e2e", "go"),
    input,
  );
  const py = runPrinter(
    process.env["AI_TOOLS_PYTHON"] || join(repoRoot, ".venv", "bin", "python"),
    [join(import.meta.dirname, "support", "protojson_samples.py")],
    repoRoot,
    input,
  );
  samples.forEach((s, i) => {
    s.mcp.set("go", go[i]!["mcp"]!);
    s.mcp.set("go EmitUnpopulated", go[i]!["unpopulated"]!);
    s.plain.set("go", go[i]!["default"]!);
    s.mcp.set("py", py[i]!["mcp"]!);
    s.plain.set("py", py[i]!["default"]!);
  });
}, 240_000);

function createValidator(): Ajv2020 {
  // strict: the schemas use no keyword ajv does not know, no union types.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** The result JSON of a tool: the samples of its response, wrapped. */
function results(
  tool: ToolModel,
  texts: readonly string[],
): { label: string; value: JsonValue }[] {
  const values = texts.map((t) => JSON.parse(t) as JsonValue);
  switch (tool.outputWrapKey) {
    case "messages":
      return [
        { label: "all messages", value: { messages: values } },
        { label: "no message", value: { messages: [] } },
      ];
    case "value":
      return values.map((v, i) => ({ label: `#${i}`, value: { value: v } }));
    case "":
      return values.map((v, i) => ({ label: `#${i}`, value: v }));
  }
}

function failures(
  ajv: Ajv2020,
  schema: JsonSchema,
  encoding: "mcp" | "plain",
  tool: ToolModel,
): string[] {
  const validate = ajv.compile(schema);
  const own = samples.filter((s) => s.tool === tool);
  const out: string[] = [];
  for (const encoder of own[0]![encoding].keys()) {
    const texts = own.map((s) => s[encoding].get(encoder)!);
    for (const { label, value } of results(tool, texts)) {
      if (!validate(value)) {
        out.push(
          `${tool.name} ${encoder} ${encoding} ${label}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value)}`,
        );
      }
    }
  }
  return out;
}

/**
 * The JSON text written again by JSON.stringify: the checks below read the
 * parsed values, not the encoder's bytes (Go's protojson varies its white
 * space from build to build on purpose).
 */
function reencoded(text: string): string {
  return JSON.stringify(JSON.parse(text));
}

describe("output schemas against the encoders", () => {
  it("covers every response type of the e2e test API", () => {
    const e2e = model.tools.filter((t) => t.file.startsWith("linkhub/"));
    expect(e2e.length).toBeGreaterThanOrEqual(12);
    expect(samples.length).toBe(model.tools.length * 4 - 1);
  });

  it("holds the edge values in every encoder's output", () => {
    const edge = samples.filter((s) => s.tool.name === "edge");
    for (const encoder of edge[0]!.mcp.keys()) {
      const text = edge.map((s) => reencoded(s.mcp.get(encoder)!)).join("\n");
      expect(text, encoder).toContain('"NaN"');
      expect(text, encoder).toContain('"-Infinity"');
      expect(text, encoder).toContain('"9223372036854775807"');
      expect(text, encoder).toContain('"18446744073709551615"');
      expect(text, encoder).toContain('"maybe":99'); // an undeclared enum number
      expect(text, encoder).toContain('"by_i32":{}'); // an empty map
      expect(text, encoder).toContain('"by_i32":{"-7":{"by_i32":{"-7":{'); // recursion
      expect(text, encoder).toContain(
        '"@type":"type.googleapis.com/google.protobuf.Duration"',
      );
      expect(text, encoder).toMatch(/"anys":\[\{\},\{\}\]|"anys":\[\]/);
    }
    const unpopulated = samples
      .map((s) => reencoded(s.mcp.get("go EmitUnpopulated")!))
      .join("\n");
    expect(unpopulated).toContain('"meta":null'); // a message field
    expect(unpopulated).not.toContain('"child":null'); // a oneof member
    expect(unpopulated).not.toContain('"maybe":null'); // a proto3 optional
    expect(unpopulated).toContain('"a":null'); // editions: explicit presence
  });

  it("validates what every encoder writes for an MCP result", () => {
    const ajv = createValidator();
    const all = model.tools.flatMap((tool) =>
      failures(
        ajv,
        JSON.parse(tool.outputSchemaJson) as JsonSchema,
        "mcp",
        tool,
      ),
    );
    expect(all).toEqual([]);
  });

  it("validates what every executor writes today (JSON names, unset fields left out) against the schema of that encoding", () => {
    const ajv = createValidator();
    const all = model.tools.flatMap((tool) =>
      failures(
        ajv,
        buildOutputSchema(tool.output, tool.serverStreaming, {
          protoNames: false,
          emitDefaults: false,
        }).schema,
        "plain",
        tool,
      ),
    );
    expect(all).toEqual([]);
  });

  it("refuses what the encoders do not write", () => {
    const ajv = createValidator();
    const schemaOf = (name: string) =>
      ajv.compile(
        JSON.parse(
          model.tools.find((t) => t.name === name)!.outputSchemaJson,
        ) as JsonSchema,
      );
    const scalars = schemaOf("scalars");
    const mcpText = samples.find(
      (s) => s.tool.name === "scalars" && s.variant === "typical",
    )!.mcp;
    const good = JSON.parse(mcpText.get("go")!) as Record<string, JsonValue>;
    expect(scalars(good)).toBe(true);
    expect(scalars({ ...good, i64: 12 })).toBe(false); // 64-bit as a number
    expect(scalars({ ...good, d: "1.5" })).toBe(false); // a number as a string
    expect(scalars({ ...good, color: "BLUE" })).toBe(false);
    expect(scalars({ ...good, by: "not base64!" })).toBe(false);
    const missing = { ...good };
    delete missing["s"];
    expect(scalars(missing)).toBe(false); // fields without presence are written
    const shapes = schemaOf("shapes");
    const plain = JSON.parse(
      samples
        .find((s) => s.tool.name === "shapes" && s.variant === "typical")!
        .plain.get("go")!,
    ) as JsonValue;
    expect(shapes(plain)).toBe(false); // JSON names are not proto names
    expect(schemaOf("anything")({ value: "1s" })).toBe(false); // no @type
    expect(schemaOf("durations")([])).toBe(false); // top level is an object
  });

  it("gets the same MCP result from Go (EmitDefaultValues), TypeScript and Python, but for float fields (protobuf-es writes a float as its double value: 0.10000000149011612 where Go and Python write 0.1)", () => {
    const differ: string[] = [];
    for (const s of samples) {
      const ts = JSON.parse(s.mcp.get("ts")!) as JsonValue;
      for (const encoder of ["go", "py"]) {
        const other = JSON.parse(s.mcp.get(encoder)!) as JsonValue;
        if (
          JSON.stringify(roundFloats(ts)) !== JSON.stringify(roundFloats(other))
        ) {
          differ.push(
            `${s.tool.name} ${s.variant} ts ${s.mcp.get("ts")} ${encoder} ${s.mcp.get(encoder)}`,
          );
        }
      }
    }
    expect(differ).toEqual([]);
  });
});

/** Numbers to 6 significant digits, object keys sorted. */
function roundFloats(value: JsonValue): JsonValue {
  if (typeof value === "number") {
    return Number(value.toPrecision(6));
  }
  if (Array.isArray(value)) {
    return value.map(roundFloats);
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, roundFloats(value[k]!)]),
    );
  }
  return value;
}
