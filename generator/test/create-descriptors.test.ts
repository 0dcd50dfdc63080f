import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  create,
  createFileRegistry,
  fromBinary,
  toBinary,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import { nestedTypes as esNestedTypes } from "@bufbuild/protobuf/reflect";
import {
  CodeGeneratorRequestSchema,
  DescriptorProtoSchema,
  Edition,
  FeatureSet_FieldPresence,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  ServiceDescriptorProtoSchema,
  type CodeGeneratorRequest,
  type DescriptorProto,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { createDescriptors } from "../src/read/create-descriptors.js";
import {
  nestedTypes,
  type DescEnum,
  type DescField,
  type DescFile,
  type DescMessage,
  type DescService,
} from "../src/read/descriptors.js";
import { resolveRequestFiles } from "../src/model/build-model.js";
import { readRequest } from "../src/read/read-request.js";
import { randomProto } from "./fuzz/random-proto.js";
import { generateCorpus } from "./support/bench-corpus.js";
import { compileRequest } from "./support/compile.js";
import { largeApiProtos } from "./support/large-api.js";
import { realApiRequest, realApis } from "./support/real-apis.js";
import { buildRequest, goldenCases } from "./support/request.js";

// createDescriptors must give, for every property src/read/descriptors.ts keeps,
// what protobuf-es's createFileRegistry gives (the generator read those
// before), over every kind of request the project knows: golden cases, the
// e2e protos, the benchmark corpus, real and large APIs, random files, and
// what compilers seldom write. Each descriptor is projected onto plain
// values (a reference to another descriptor as its name, a proto as its
// place in the request), read through the generator's own types: a
// protobuf-es descriptor is one of them.

const repoRoot = resolve(import.meta.dirname, "..", "..");

/** Each proto object of the request, by identity, as its path. */
function protoPaths(
  files: readonly FileDescriptorProto[],
): Map<object, string> {
  const paths = new Map<object, string>();
  const message = (m: DescriptorProto, at: string): void => {
    paths.set(m, at);
    m.field.forEach((f, i) => paths.set(f, `${at}.field[${i}]`));
    m.oneofDecl.forEach((o, i) => paths.set(o, `${at}.oneof[${i}]`));
    m.extension.forEach((e, i) => paths.set(e, `${at}.extension[${i}]`));
    m.enumType.forEach((e, i) => {
      paths.set(e, `${at}.enum[${i}]`);
      e.value.forEach((v, j) => paths.set(v, `${at}.enum[${i}].value[${j}]`));
    });
    m.nestedType.forEach((n, i) => message(n, `${at}.nested[${i}]`));
  };
  for (const file of files) {
    const at = file.name;
    paths.set(file, at);
    file.messageType.forEach((m, i) => message(m, `${at}:message[${i}]`));
    file.enumType.forEach((e, i) => {
      paths.set(e, `${at}:enum[${i}]`);
      e.value.forEach((v, j) => paths.set(v, `${at}:enum[${i}].value[${j}]`));
    });
    file.extension.forEach((e, i) => paths.set(e, `${at}:extension[${i}]`));
    file.service.forEach((s, i) => {
      paths.set(s, `${at}:service[${i}]`);
      s.method.forEach((m, j) => paths.set(m, `${at}:service[${i}].rpc[${j}]`));
    });
  }
  return paths;
}

/** A file's descriptors as plain values (see the top of this file). */
function project(file: DescFile, paths: Map<object, string>): unknown {
  const at = (proto: object) => paths.get(proto) ?? "not the request's";
  // A type referred to, by file and name: two files may declare one name.
  const ref = (d: DescMessage | DescEnum | undefined) =>
    d && `${d.file.proto.name}:${d.typeName}`;
  const field = (f: DescField) => ({
    kind: f.kind,
    name: f.name,
    number: f.number,
    jsonName: f.jsonName,
    presence: f.presence,
    parent: f.parent.typeName,
    proto: at(f.proto),
    fieldKind: f.fieldKind,
    scalar: f.scalar,
    enum: ref(f.enum),
    message: ref(f.message),
    oneof: f.oneof?.name,
    // Read whatever the kind: a list or map property on another kind of
    // field is a difference too.
    listKind: (f as { listKind?: unknown }).listKind,
    mapKind: (f as { mapKind?: unknown }).mapKind,
    mapKey: (f as { mapKey?: unknown }).mapKey,
  });
  const enumeration = (e: DescEnum) => ({
    kind: e.kind,
    typeName: e.typeName,
    name: e.name,
    file: e.file.proto.name,
    parent: e.parent?.typeName,
    proto: at(e.proto),
    values: e.values.map((v) => ({
      kind: v.kind,
      name: v.name,
      number: v.number,
      parent: v.parent.typeName,
      proto: at(v.proto),
    })),
  });
  const message = (m: DescMessage): unknown => ({
    kind: m.kind,
    typeName: m.typeName,
    name: m.name,
    file: m.file.proto.name,
    parent: m.parent?.typeName,
    proto: at(m.proto),
    fields: m.fields.map(field),
    oneofs: m.oneofs.map((o) => ({
      kind: o.kind,
      name: o.name,
      parent: o.parent.typeName,
      proto: at(o.proto),
      fields: o.fields.map((f) => f.name),
    })),
    nestedMessages: m.nestedMessages.map(message),
    nestedEnums: m.nestedEnums.map(enumeration),
    nestedExtensions: m.nestedExtensions.map((x) => [x.typeName, at(x.proto)]),
  });
  const service = (s: DescService) => ({
    kind: s.kind,
    typeName: s.typeName,
    name: s.name,
    file: s.file.proto.name,
    proto: at(s.proto),
    methods: s.methods.map((m) => ({
      kind: m.kind,
      name: m.name,
      localName: m.localName,
      parent: m.parent.typeName,
      methodKind: m.methodKind,
      input: ref(m.input),
      output: ref(m.output),
      idempotency: m.idempotency,
      proto: at(m.proto),
    })),
  });
  return {
    kind: file.kind,
    name: file.name,
    edition: file.edition,
    proto: at(file.proto),
    messages: file.messages.map(message),
    enums: file.enums.map(enumeration),
    services: file.services.map(service),
    extensions: file.extensions.map((x) => ({
      typeName: x.typeName,
      name: x.name,
      file: x.file.proto.name,
      parent: x.parent?.typeName,
      proto: at(x.proto),
    })),
  };
}

/**
 * Every reference of the files' descriptors (parent, file, a field's
 * message, enum and oneof, a method's input and output) is the one object
 * the tree holds for that element: the generator keys WeakMaps on them.
 */
function expectOneObjectPerElement(files: Iterable<DescFile>): void {
  const elements = new Set<object>();
  const all: (DescMessage | DescEnum | DescService)[] = [];
  for (const file of files) {
    for (const type of nestedTypes(file)) {
      expect(type.file).toBe(file);
      expect(elements.has(type), type.typeName).toBe(false);
      elements.add(type);
      if (type.kind !== "extension") {
        all.push(type);
      }
    }
  }
  const isElement = (desc: object, what: string) =>
    expect(elements.has(desc), what).toBe(true);
  for (const type of all) {
    switch (type.kind) {
      case "message":
        if (type.parent !== undefined) {
          isElement(type.parent, `parent of ${type.typeName}`);
        }
        for (const f of type.fields) {
          expect(f.parent).toBe(type);
          if (f.message) isElement(f.message, `${type.typeName}.${f.name}`);
          if (f.enum) isElement(f.enum, `${type.typeName}.${f.name}`);
          if (f.oneof) expect(type.oneofs).toContain(f.oneof);
        }
        for (const o of type.oneofs) {
          expect(o.parent).toBe(type);
          for (const f of o.fields) expect(f.oneof).toBe(o);
        }
        break;
      case "enum":
        for (const v of type.values) expect(v.parent).toBe(type);
        break;
      case "service":
        for (const m of type.methods) {
          expect(m.parent).toBe(type);
          isElement(m.input, `${type.typeName}.${m.name}`);
          isElement(m.output, `${type.typeName}.${m.name}`);
        }
        break;
    }
  }
}

/** Files in the order the request lists them (compilers: imports first). */
function expectSameAsProtobufEs(files: readonly FileDescriptorProto[]): void {
  const ours = createDescriptors(files);
  const registry = createFileRegistry(
    create(FileDescriptorSetSchema, { file: [...files] }),
  );
  const paths = protoPaths(files);
  expect([...ours.keys()]).toEqual(files.map((f) => f.name));
  for (const proto of files) {
    const mine = ours.get(proto.name)!;
    const theirs = registry.getFile(proto.name)!;
    expect(project(mine, paths), proto.name).toEqual(project(theirs, paths));
    expect(
      [...nestedTypes(mine)].map((t) => `${t.kind} ${t.typeName}`),
      proto.name,
    ).toEqual([...esNestedTypes(theirs)].map((t) => `${t.kind} ${t.typeName}`));
  }
  expectOneObjectPerElement(ours.values());
}

/**
 * A hand-built map entry message of string keys and values, with an enum
 * nested in it if `nestedEnum` names one (no compiler nests one there).
 */
function stringMapEntry(name: string, nestedEnum?: string): DescriptorProto {
  return create(DescriptorProtoSchema, {
    name,
    options: { mapEntry: true },
    field: [1, 2].map((number) => ({
      name: number === 1 ? "key" : "value",
      number,
      type: FieldDescriptorProto_Type.STRING,
    })),
    enumType:
      nestedEnum === undefined
        ? []
        : [
            {
              name: nestedEnum,
              value: [{ name: `${nestedEnum}_A`, number: 0 }],
            },
          ],
  });
}

/** How many fields the files hold, nested messages included. */
function fieldCount(files: readonly FileDescriptorProto[]): number {
  const count = (m: DescriptorProto): number =>
    m.field.length + m.nestedType.reduce((n, t) => n + count(t), 0);
  return files.reduce(
    (n, f) => n + f.messageType.reduce((k, m) => k + count(m), 0),
    0,
  );
}

describe("createDescriptors gives what protobuf-es's createFileRegistry gives", () => {
  it.each([...goldenCases(), "e2e"])("for case %s", async (name) => {
    const request = await buildRequest(
      name === "e2e" ? join(repoRoot, "e2e", "proto") : name,
    );
    expectSameAsProtobufEs(request.protoFile);
  });

  it("for the benchmark corpus (both versions)", () => {
    const sources: Record<string, string> = {};
    for (const version of [1, 2]) {
      for (const file of generateCorpus("ai-tools-bench-1", 8, version)) {
        sources[file.path] = file.content;
      }
    }
    const request = compileRequest(sources);
    expect(fieldCount(request.protoFile)).toBeGreaterThan(1000);
    expectSameAsProtobufEs(request.protoFile);
  });

  it.each(realApis)("for the real API %s", (api) => {
    expectSameAsProtobufEs(realApiRequest(api, "target=go").protoFile);
  });

  it("for the large API", () => {
    const request = compileRequest(largeApiProtos("example.com/large"));
    expect(fieldCount(request.protoFile)).toBeGreaterThan(500);
    expectSameAsProtobufEs(request.protoFile);
  });

  it("for 60 random files", () => {
    const sources: Record<string, string> = {};
    for (let seed = 1; seed <= 60; seed++) {
      const { name, text } = randomProto(seed * 7919);
      sources[name] = text;
    }
    expectSameAsProtobufEs(compileRequest(sources).protoFile);
  });

  it("for Editions features at every level, proto2 and what compilers seldom write", () => {
    const request = compileRequest({
      "ed/v1/ed.proto": `edition = "2023";
package ed.v1;
option features.field_presence = IMPLICIT;
message M {
  string a = 1 [features.field_presence = EXPLICIT];
  int64 b = 2;
  repeated int32 c = 3 [features.repeated_field_encoding = EXPANDED];
  M d = 4 [features.message_encoding = DELIMITED];
  E e = 5 [features.field_presence = LEGACY_REQUIRED];
  map<string, M> f = 6;
  oneof g { double h = 7; bytes i = 8; }
  message Inner { string j = 1; Inner k = 2; map<int64, E> l = 3; }
  Inner m = 9;
  extensions 100 to 200;
}
enum E { option features.enum_type = CLOSED; E_A = 0; E_B = -1; }
extend M { string n = 100; }
`,
      "ed/v2/ed.proto": `edition = "2024";
package ed.v2;
message P { string a = 1; repeated P b = 2; map<bool, bytes> c = 3; }
`,
      "p2/v1/p2.proto": `syntax = "proto2";
package p2.v1;
message Q {
  required string a = 1;
  optional group G = 2 { optional int32 b = 3; }
  repeated Q c = 4;
  optional Q d = 5;
  extensions 10 to 20;
  extend Q { optional string e = 11; }
  message FooEntry { optional string key = 1; optional string value = 2; }
  repeated FooEntry foo = 30;
}
`,
      "p3/v1/p3.proto": `syntax = "proto3";
package p3.v1;
import "p2/v1/p2.proto";
message R {
  optional string a = 1;
  oneof b { string c = 2; R d = 3; }
  optional int32 e = 4;
  oneof f { p2.v1.Q g = 5; }
  map<string, p2.v1.Q> h = 6;
  repeated string i = 7;
  R j = 8;
}
service ToString {
  rpc ToString(R) returns (R);
  rpc Constructor(R) returns (stream R);
  rpc ValueOf(stream R) returns (R) { option idempotency_level = NO_SIDE_EFFECTS; }
  rpc toJSON(stream R) returns (stream R);
  rpc lower(R) returns (p2.v1.Q);
}
`,
      "nopkg.proto": `syntax = "proto3";
message S { enum T { T_A = 0; } T t = 1; map<string, S> u = 2; }
service V { rpc W(S) returns (S); }
`,
    });
    expectSameAsProtobufEs(request.protoFile);
    const files = createDescriptors(request.protoFile);
    const m = files.get("ed/v1/ed.proto")!.messages[0]!;
    const presence = Object.fromEntries(
      m.fields.map((f) => [f.name, FeatureSet_FieldPresence[f.presence]]),
    );
    // By hand: the field's feature, else the file's (IMPLICIT), a message
    // field EXPLICIT, repeated and map IMPLICIT, oneof members EXPLICIT.
    expect(presence).toEqual({
      a: "EXPLICIT",
      b: "IMPLICIT",
      c: "IMPLICIT",
      d: "EXPLICIT",
      e: "LEGACY_REQUIRED",
      f: "IMPLICIT",
      h: "EXPLICIT",
      i: "EXPLICIT",
      m: "EXPLICIT",
    });
    expect(m.nestedMessages[0]!.fields.map((f) => f.presence)).toEqual([
      FeatureSet_FieldPresence.IMPLICIT,
      FeatureSet_FieldPresence.EXPLICIT,
      FeatureSet_FieldPresence.IMPLICIT,
    ]);
    const methods = files.get("p3/v1/p3.proto")!.services[0]!.methods;
    expect(methods.map((x) => x.localName)).toEqual([
      "toString$",
      "constructor$",
      "valueOf$",
      "toJSON$",
      "lower",
    ]);
  });

  it("for a message-level presence feature, an empty name and a repeated Entry message that is no map", () => {
    // Descriptors no compiler writes today (buf refuses field_presence on
    // a message), built by hand: protobuf-es reads them all the same.
    const field = (init: MessageInitShape<typeof FieldDescriptorProtoSchema>) =>
      create(FieldDescriptorProtoSchema, init);
    const { OPTIONAL, REPEATED } = FieldDescriptorProto_Label;
    const { STRING, MESSAGE } = FieldDescriptorProto_Type;
    const file = create(FileDescriptorProtoSchema, {
      name: "h.proto",
      package: "h",
      syntax: "editions",
      edition: Edition.EDITION_2023,
      messageType: [
        create(DescriptorProtoSchema, {
          name: "A",
          options: {
            features: { fieldPresence: FeatureSet_FieldPresence.IMPLICIT },
          },
          field: [
            field({
              name: "x",
              number: 1,
              label: OPTIONAL,
              type: STRING,
              jsonName: "x",
            }),
            field({
              name: "y",
              number: 2,
              label: REPEATED,
              type: MESSAGE,
              typeName: ".h.A.BEntry",
              jsonName: "why",
            }),
          ],
          nestedType: [
            create(DescriptorProtoSchema, {
              name: "BEntry",
              field: [
                field({ name: "z", number: 1, label: OPTIONAL, type: STRING }),
              ],
            }),
          ],
        }),
      ],
      service: [
        {
          name: "S",
          method: [{ name: "", inputType: ".h.A", outputType: "h.A" }],
        },
      ],
    });
    expectSameAsProtobufEs([file]);
    const a = createDescriptors([file]).get("h.proto")!.messages[0]!;
    expect(a.fields[0]!.presence).toBe(FeatureSet_FieldPresence.IMPLICIT);
    expect(a.fields[1]!.fieldKind).toBe("list");
  });
});

describe("createDescriptors, where protobuf-es's descriptors are not the reference", () => {
  it("reads the files the plugin decodes itself (readRequest) as protobuf-es reads them", async () => {
    for (const request of [
      await buildRequest(join(repoRoot, "e2e", "proto")),
      await buildRequest("editions2023"),
    ]) {
      const decoded = readRequest(
        toBinary(CodeGeneratorRequestSchema, request),
      );
      expectSameAsProtobufEs(decoded.protoFile);
    }
  });

  it("reads what Debian's protoc writes: proto2 groups in a oneof, extension groups, defaults", () => {
    const dir = mkdtempSync(join(tmpdir(), "ai-tools-desc-"));
    try {
      writeFileSync(
        join(dir, "g.proto"),
        `syntax = "proto2";
package g.v1;
message A {
  oneof choice {
    group Picked = 1 { optional string name = 2; }
    int32 count = 3 [default = 7];
  }
  optional group Loose = 4 { repeated A again = 5; }
  map<string, A> byName = 6;
  extensions 100 to 199;
}
extend A { optional group Extra = 100 { optional bool on = 101; } }
service S { rpc Get(A) returns (A); }
`,
      );
      writeFileSync(
        join(dir, "o.proto"),
        `syntax = "proto3";
package o.v1;
import "g.proto";
message B { optional g.v1.A a = 1; oneof c { string d = 2; } optional string e = 3; map<int32, g.v1.A> f = 4; }
`,
      );
      execFileSync("protoc", [
        `-I${dir}`,
        "--include_imports",
        "--include_source_info",
        `--descriptor_set_out=${join(dir, "set.binpb")}`,
        "g.proto",
        "o.proto",
      ]);
      const set = fromBinary(
        FileDescriptorSetSchema,
        readFileSync(join(dir, "set.binpb")),
      );
      expect(set.file.map((f) => f.name)).toEqual(["g.proto", "o.proto"]);
      expectSameAsProtobufEs(set.file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("resolves a type name two files declare to the later file's, as protobuf-es does", () => {
    // No compiler writes this; a hand-built request may.
    const declaring = (name: string, field: string) =>
      create(FileDescriptorProtoSchema, {
        name,
        package: "d",
        syntax: "proto3",
        messageType: [
          {
            name: "M",
            field: [
              {
                name: field,
                number: 1,
                type: FieldDescriptorProto_Type.STRING,
                jsonName: field,
              },
            ],
          },
        ],
      });
    const user = create(FileDescriptorProtoSchema, {
      name: "u.proto",
      package: "u",
      syntax: "proto3",
      messageType: [
        {
          name: "N",
          field: [
            {
              name: "m",
              number: 1,
              type: FieldDescriptorProto_Type.MESSAGE,
              typeName: ".d.M",
              jsonName: "m",
            },
          ],
        },
      ],
    });
    const files = [
      declaring("a.proto", "first"),
      declaring("b.proto", "second"),
      user,
    ];
    expectSameAsProtobufEs(files);
    const n = createDescriptors(files).get("u.proto")!.messages[0]!;
    expect(n.fields[0]!.message!.file.proto.name).toBe("b.proto");
  });

  it("refuses a type nested in a map entry, which protobuf-es reads and no compiler writes", () => {
    const file = create(FileDescriptorProtoSchema, {
      name: "e.proto",
      package: "e",
      syntax: "proto3",
      messageType: [
        {
          name: "M",
          nestedType: [stringMapEntry("XEntry", "E")],
          field: [
            {
              name: "x",
              number: 1,
              label: FieldDescriptorProto_Label.REPEATED,
              type: FieldDescriptorProto_Type.MESSAGE,
              typeName: ".e.M.XEntry",
            },
            {
              name: "y",
              number: 2,
              type: FieldDescriptorProto_Type.ENUM,
              typeName: ".e.M.XEntry.E",
            },
          ],
        },
      ],
    });
    expect(() =>
      createFileRegistry(create(FileDescriptorSetSchema, { file: [file] })),
    ).not.toThrow();
    expect(() => createDescriptors([file])).toThrow(
      'e.proto: field e.M.y: type ".e.M.XEntry.E" is not an enum of the request\'s files',
    );
  });
});

describe("createDescriptors refuses", () => {
  /** Adds a field "x" (number 1) with `init` to message b.A. */
  const withFieldX =
    (init: MessageInitShape<typeof FieldDescriptorProtoSchema>) =>
    (f: FileDescriptorProto) => {
      f.messageType[0]!.field.push(
        create(FieldDescriptorProtoSchema, { name: "x", number: 1, ...init }),
      );
    };
  const base = () =>
    create(FileDescriptorProtoSchema, {
      name: "b.proto",
      package: "b",
      syntax: "proto3",
      messageType: [{ name: "A" }],
    });

  it.each([
    [
      "a field of an unknown type",
      withFieldX({
        type: FieldDescriptorProto_Type.MESSAGE,
        typeName: ".b.Missing",
      }),
      'b.proto: field b.A.x: type ".b.Missing" is not a message of the request\'s files',
    ],
    [
      "an enum field naming a message",
      withFieldX({
        type: FieldDescriptorProto_Type.ENUM,
        typeName: ".b.A",
      }),
      'b.proto: field b.A.x: type ".b.A" is not an enum of the request\'s files',
    ],
    [
      "an RPC whose input is not a message",
      (f: FileDescriptorProto) => {
        f.service.push(
          create(ServiceDescriptorProtoSchema, {
            name: "S",
            method: [{ name: "M", inputType: ".b.B", outputType: ".b.A" }],
          }),
        );
      },
      'b.proto: rpc b.S.M: type ".b.B" is not a message of the request\'s files',
    ],
    [
      "a oneof index out of range",
      withFieldX({
        type: FieldDescriptorProto_Type.STRING,
        oneofIndex: 2,
      }),
      "b.proto: field b.A.x: oneof_index 2 is not among the message's 0 oneofs",
    ],
    [
      "a map entry keyed by a float",
      (f: FileDescriptorProto) => {
        const a = f.messageType[0]!;
        a.nestedType.push(
          create(DescriptorProtoSchema, {
            name: "XEntry",
            options: { mapEntry: true },
            field: [
              create(FieldDescriptorProtoSchema, {
                name: "key",
                number: 1,
                type: FieldDescriptorProto_Type.FLOAT,
              }),
              create(FieldDescriptorProtoSchema, {
                name: "value",
                number: 2,
                type: FieldDescriptorProto_Type.STRING,
              }),
            ],
          }),
        );
        a.field.push(
          create(FieldDescriptorProtoSchema, {
            name: "x",
            number: 1,
            label: FieldDescriptorProto_Label.REPEATED,
            type: FieldDescriptorProto_Type.MESSAGE,
            typeName: ".b.A.XEntry",
          }),
        );
      },
      'b.proto: field b.A.x: map entry ".b.A.XEntry" needs a key (field 1) of a scalar type other than bytes, float and double, and a value (field 2) that is not repeated',
    ],
    [
      "a singular field of a map entry's type",
      (f: FileDescriptorProto) => {
        const a = f.messageType[0]!;
        a.nestedType.push(stringMapEntry("XEntry"));
        withFieldX({
          type: FieldDescriptorProto_Type.MESSAGE,
          typeName: ".b.A.XEntry",
        })(f);
      },
      'b.proto: field b.A.x: type ".b.A.XEntry" is a map entry, which only the map field it was made for refers to',
    ],
    [
      "an edition past those the plugin reads",
      (f: FileDescriptorProto) => {
        f.syntax = "editions";
        f.edition = Edition.EDITION_99997_TEST_ONLY;
      },
      'b.proto: edition: edition "99997_TEST_ONLY" is not supported: the plugin reads proto2, proto3 and the editions up to "2024"',
    ],
    [
      "an unknown syntax",
      (f: FileDescriptorProto) => {
        f.syntax = "proto4";
      },
      'b.proto: syntax "proto4" is not "proto2", "proto3" or "editions"',
    ],
  ])(
    "%s, as protobuf-es does, naming the file and element",
    (_, mutate, message) => {
      const file = base();
      mutate(file);
      expect(() =>
        createFileRegistry(create(FileDescriptorSetSchema, { file: [file] })),
      ).toThrow();
      expect(() => createDescriptors([file])).toThrow(message);
    },
  );

  it("through the plugin, with the request-level prefix and no stack trace", () => {
    const file = base();
    withFieldX({
      type: FieldDescriptorProto_Type.MESSAGE,
      typeName: ".b.Missing",
    })(file);
    const request: CodeGeneratorRequest = create(CodeGeneratorRequestSchema, {
      fileToGenerate: ["b.proto"],
      protoFile: [file],
    });
    expect(() => resolveRequestFiles(request)).toThrow(
      /^cannot resolve the request's descriptors: b\.proto: field b\.A\.x: type "\.b\.Missing" is not a message of the request's files$/,
    );
  });
});
