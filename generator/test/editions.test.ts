import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  CodeGeneratorResponse_Feature,
  CodeGeneratorResponseSchema,
  Edition,
} from "@bufbuild/protobuf/wkt";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import { modelOf } from "./support/model.js";
import { buildRequest, paths } from "./support/request.js";

// Protobuf Editions (docs/editions.md): what the plugin declares, the golden
// cases' twins, and each feature's effect on the output, or its absence.

const root = resolve(import.meta.dirname, "..", "..");
const plugin = join(root, "node_modules", ".bin", "protoc-gen-ai-tools");
const buf = join(root, "node_modules", ".bin", "buf");

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A throw-away case directory holding `files` (path → text). */
function caseDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "ai-tools-editions-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** The plugin's files for a case, per target (main file and MCP file). */
async function outputs(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const request = await buildRequest(dir);
  for (const target of ["go", "ts", "py"]) {
    request.parameter = `target=${target},mcp=true`;
    for (const f of generate(request, () => undefined)) {
      out[`${target}:${f.name}`] = f.content;
    }
  }
  return out;
}

/** Tool name → [strict, description, schema] of a case. */
async function schemas(
  dir: string,
): Promise<Map<string, [boolean, string, string]>> {
  const model = modelOf(await buildRequest(dir));
  return new Map(
    model.tools.map((t) => [t.name, [t.strict, t.description, t.schemaJson]]),
  );
}

function parameters(
  all: Map<string, [boolean, string, string]>,
  tool: string,
): { properties: Record<string, unknown>; required?: string[] } {
  const entry = all.get(tool);
  if (entry === undefined) {
    throw new Error(`no tool ${JSON.stringify(tool)}`);
  }
  return JSON.parse(entry[2]) as {
    properties: Record<string, unknown>;
    required?: string[];
  };
}

describe("the plugin's response", () => {
  it("declares Editions support, from proto2 to 2024", async () => {
    const { protocGenAiTools } = await import("../src/plugin.js");
    for (const request of [
      await buildRequest("editions2023"),
      await buildRequest("editions2023", { parameter: "target=cobol" }),
    ]) {
      const response = protocGenAiTools.run(request);
      expect(
        Number(response.supportedFeatures) &
          CodeGeneratorResponse_Feature.SUPPORTS_EDITIONS,
      ).not.toBe(0);
      expect(
        Number(response.supportedFeatures) &
          CodeGeneratorResponse_Feature.PROTO3_OPTIONAL,
      ).not.toBe(0);
      expect(response.minimumEdition).toBe(Edition.EDITION_PROTO2);
      expect(response.maximumEdition).toBe(Edition.EDITION_2024);
    }
  });

  it("is written so by the executable", () => {
    const request = toBinary(CodeGeneratorRequestSchema, {
      $typeName: "google.protobuf.compiler.CodeGeneratorRequest",
      fileToGenerate: [],
      parameter: "target=go",
      protoFile: [],
      sourceFileDescriptors: [],
    });
    const response = fromBinary(
      CodeGeneratorResponseSchema,
      execFileSync(plugin, [], { input: request }),
    );
    expect(response.supportedFeatures).toBe(3n);
    expect(response.minimumEdition).toBe(Edition.EDITION_PROTO2);
    expect(response.maximumEdition).toBe(Edition.EDITION_2024);
  });

  it("is accepted by buf generate on Edition 2023 and 2024 files", () => {
    for (const [c, dir] of [
      ["editions2023", "ed2023"],
      ["editions2024", "ed2024"],
    ] as const) {
      const out = mkdtempSync(join(tmpdir(), "ai-tools-editions-out-"));
      dirs.push(out);
      const template = JSON.stringify({
        version: "v2",
        plugins: [{ local: plugin, out, opt: "target=go", strategy: "all" }],
      });
      const workspace = caseDir({
        "buf.yaml": `version: v2\nmodules:\n  - path: proto\n  - path: case\n`,
      });
      execFileSync("ln", ["-s", join(root, "proto"), join(workspace, "proto")]);
      execFileSync("ln", [
        "-s",
        join(paths.protos, c),
        join(workspace, "case"),
      ]);
      execFileSync(
        buf,
        ["generate", "--template", template, "--path", `case/${dir}`],
        { cwd: workspace, stdio: "pipe" },
      );
      expect(readFileSync(join(out, "ai_tools.gen.go"), "utf8")).toBe(
        readFileSync(join(paths.golden, c, "ai_tools.gen.go"), "utf8"),
      );
    }
  });
});

describe("an edition outside the declared range", () => {
  it("is refused naming the file and the editions the plugin reads", async () => {
    // protoc and buf send none (the response declares the range); another
    // caller may. Edition 2024 is read; later ones, UNSTABLE and none at
    // all are refused.
    const request = await buildRequest("editions2024");
    const file = request.protoFile.find((f) =>
      request.fileToGenerate.includes(f.name),
    )!;
    expect(file.edition).toBe(Edition.EDITION_2024);
    expect(generate(request, () => {}).length).toBeGreaterThan(0);
    const refused: [number, string][] = [
      [1002, "1002"],
      [Edition.EDITION_UNSTABLE, "UNSTABLE"],
      [Edition.EDITION_UNKNOWN, "UNKNOWN"],
    ];
    for (const [edition, name] of refused) {
      file.edition = edition;
      expect(() => generate(request, () => {})).toThrow(
        `${file.name}: edition: edition "${name}" is not supported: the plugin reads proto2, proto3 and the editions up to "2024", the highest its companion generators accept; write the file in one of them`,
      );
    }
  });
});

describe("the Editions twins of testdata/twins/proto3", () => {
  it("have the proto3 file's schemas, in 2023 and in 2024", async () => {
    const proto3 = await schemas(join(paths.protos, "..", "twins", "proto3"));
    expect([...proto3.keys()]).toEqual(["twin_put_loose", "twin_put_strict"]);
    for (const c of ["editions2023", "editions2024"]) {
      const all = await schemas(c);
      for (const [name, want] of proto3) {
        expect(all.get(name), `${c}: ${name}`).toEqual(want);
      }
    }
  });
});

// One field of each kind under a feature, and the same file without it.
const header = `edition = "2023";

package feat.v1;

import "ai/tools/v1/annotations.proto";

option go_package = "example.com/feat/v1;featv1";

`;
const service = `
service FeatService {
  rpc Strict(Req) returns (Resp) {
    option (ai.tools.v1.rpc_tool) = {name: "feat_strict", description: "Strict.", strict: true, auto_execute: true};
  }
  rpc Loose(Req) returns (Resp) {
    option (ai.tools.v1.rpc_tool) = {name: "feat_loose", description: "Loose.", auto_execute: true};
  }
}
`;

/** A request and response using `options` (by placeholder) on their fields. */
function featureFile(o: {
  file?: string;
  message?: string;
  enum?: string;
  field?: string;
  box?: string;
  repeated?: string;
}): string {
  const opt = (s: string | undefined) => (s ? ` [${s}]` : "");
  return `${header}${o.file ?? ""}
enum Color {
  ${o.enum ?? ""}
  COLOR_UNSPECIFIED = 0;
  COLOR_RED = 1;
}

message Box {
  ${o.message ?? ""}
  string label = 1;
}

message Req {
  ${o.message ?? ""}
  string name = 1${opt(o.field)};
  int32 count = 2${opt(o.field)};
  Color color = 3${opt(o.field)};
  Box box = 4${opt(o.box)};
  repeated int32 numbers = 5${opt(o.repeated)};
  repeated Box boxes = 6${opt(o.box)};
  map<string, Box> by_name = 7;
}

message Resp {
  ${o.message ?? ""}
  Req echo = 1${opt(o.box)};
  Color color = 2${opt(o.field)};
  int64 total = 3${opt(o.field)};
}
${service}`;
}

describe("Edition 2023 features", () => {
  const plain = featureFile({});
  const noEffect: [string, Parameters<typeof featureFile>[0]][] = [
    [
      "message_encoding = DELIMITED",
      { box: "features.message_encoding = DELIMITED" },
    ],
    [
      "message_encoding = DELIMITED (file)",
      { file: "option features.message_encoding = DELIMITED;\n" },
    ],
    [
      "repeated_field_encoding = EXPANDED",
      { repeated: "features.repeated_field_encoding = EXPANDED" },
    ],
    [
      "utf8_validation = NONE",
      { file: "option features.utf8_validation = NONE;\n" },
    ],
    [
      "json_format = LEGACY_BEST_EFFORT",
      { message: "option features.json_format = LEGACY_BEST_EFFORT;" },
    ],
  ];
  it.each(noEffect)(
    "%s changes nothing in any target's files (MCP files included)",
    async (_, options) => {
      const want = await outputs(caseDir({ "feat/v1/feat.proto": plain }));
      expect(Object.keys(want).sort()).toEqual([
        "go:ai_tools.gen.go",
        "go:ai_tools_mcp.gen.go",
        "py:ai_tools_gen.py",
        "py:ai_tools_mcp_gen.py",
        "ts:ai_tools.gen.ts",
        "ts:ai_tools_mcp.gen.ts",
      ]);
      const got = await outputs(
        caseDir({ "feat/v1/feat.proto": featureFile(options) }),
      );
      expect(got).toEqual(want);
    },
  );

  it("enum_type = CLOSED changes no byte: output schemas admit an integer for undeclared numbers either way", async () => {
    const open = await outputs(caseDir({ "feat/v1/feat.proto": plain }));
    const closed = await outputs(
      caseDir({
        "feat/v1/feat.proto": featureFile({
          enum: "option features.enum_type = CLOSED;",
        }),
      }),
    );
    expect(closed).toEqual(open);
    // A field of an open enum may hold a number no value declares, and so
    // may a closed one in Go (protobuf-go reads every enum as open): the
    // output schema admits an integer beside the names.
    const number = String.raw`\"COLOR_RED\"],\"type\":\"string\"},{\"type\":\"integer\"}`;
    expect(closed["go:ai_tools_mcp.gen.go"]).toContain(number);
  });

  it("field_presence set on the file holds in nested messages, and a field's own feature wins", async () => {
    // Features resolve field, then each enclosing message, then file, then
    // the edition's defaults; field_presence can be set on a field or a
    // file only (protoc and buf refuse it on a message).
    const nested = `${header}option features.field_presence = IMPLICIT;

message Req {
  message Inner {
    string note = 1;
    int32 rank = 2 [features.field_presence = EXPLICIT];
  }
  string name = 1;
  Inner inner = 2;
  int32 count = 3 [features.field_presence = EXPLICIT];
}

message Resp {}
${service}`;
    const all = await schemas(caseDir({ "feat/v1/feat.proto": nested }));
    const loose = parameters(all, "feat_loose") as {
      properties: Record<string, { required?: string[] }>;
      required?: string[];
    };
    // `name` is IMPLICIT (the file's), `count` EXPLICIT (its own); the
    // message field `inner` is required whatever the presence.
    expect(loose.required?.sort()).toEqual(["inner", "name"]);
    // The nested message's fields: `note` takes the file's IMPLICIT,
    // `rank` its own EXPLICIT.
    expect(loose.properties["inner"]?.required).toEqual(["note"]);
  });

  it("field_presence: EXPLICIT (the default) makes scalars and enums optional, IMPLICIT and LEGACY_REQUIRED required", async () => {
    const explicit = await schemas(caseDir({ "feat/v1/feat.proto": plain }));
    const implicit = await schemas(
      caseDir({
        "feat/v1/feat.proto": featureFile({
          file: "option features.field_presence = IMPLICIT;\n",
        }),
      }),
    );
    const required = await schemas(
      caseDir({
        "feat/v1/feat.proto": featureFile({
          field: "features.field_presence = LEGACY_REQUIRED",
        }),
      }),
    );
    const nullable = { anyOf: [{ type: "string" }, { type: "null" }] };
    // Non-strict: optional fields are left out of `required`; message
    // fields are required, as in proto3, whatever the presence.
    expect(parameters(explicit, "feat_loose").required?.sort()).toEqual([
      "box",
      "boxes",
      "by_name",
      "numbers",
    ]);
    // An enum with a COLOR_UNSPECIFIED zero may be left unset unless
    // required (LEGACY_REQUIRED is).
    expect(parameters(implicit, "feat_loose").required?.sort()).toEqual([
      "box",
      "boxes",
      "by_name",
      "count",
      "name",
      "numbers",
    ]);
    expect(parameters(required, "feat_loose").required?.sort()).toEqual(
      [...parameters(implicit, "feat_loose").required!, "color"].sort(),
    );
    // Strict: every property is required; optional ones are nullable.
    expect(parameters(explicit, "feat_strict").properties["name"]).toEqual(
      nullable,
    );
    for (const other of [implicit, required]) {
      expect(parameters(other, "feat_strict").properties["name"]).toEqual({
        type: "string",
      });
    }
    // LEGACY_REQUIRED reads as proto2 `required`, IMPLICIT as proto3: the
    // fields' schemas are the same (Box.label keeps explicit presence),
    // but for the enum, which only LEGACY_REQUIRED makes required.
    for (const field of ["name", "count"]) {
      expect(parameters(required, "feat_strict").properties[field]).toEqual(
        parameters(implicit, "feat_strict").properties[field],
      );
    }
    expect(parameters(implicit, "feat_strict").properties["color"]).toEqual({
      anyOf: [
        parameters(required, "feat_strict").properties["color"],
        { type: "null" },
      ],
    });
  });
});
