// Mutations of real CodeGeneratorRequests for the plugin fuzz test
// (fuzz-plugin.test.ts): structure-level (a field's type, label, number,
// type name or options; a method's types, streaming or rpc_tool option; a
// file's syntax, package, imports; the parameter; files dropped or named
// for generation) and bytes-level (bytes flipped, inserted, cut out, the
// request truncated). One seed gives one mutation of a request.
import { clone, create, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  DescriptorProtoSchema,
  FieldDescriptorProtoSchema,
  FieldDescriptorProto_Label,
  FieldOptionsSchema,
  MethodOptionsSchema,
  FieldDescriptorProto_Type,
  type CodeGeneratorRequest,
  type DescriptorProto,
  type FieldDescriptorProto,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { createRandom, type Random } from "./random-proto.js";

const texts = [
  "",
  "x",
  "acct",
  "a b",
  '"',
  "\\",
  "ü",
  "\u0000",
  "execute",
  "all_tools",
  "x".repeat(65),
  ".",
  "..",
  "9",
];
const parameters = [
  "target=go",
  "target=ts",
  "target=py",
  "target=py,mcp=true",
  "target=ts,mcp=true",
  "target=go,mcp=true",
  "target=go,tools=all",
  "target=ts,schema=compact",
  "target=py,providers=openai",
  "target=go,providers=anthropic,gemini",
  "target=go,include=x.*",
  "target=ts,trim_prefix=linkhub.v1,name_prefix=lh_",
  "target=rust",
  "target=go,target=ts",
  "mcp=maybe",
  "schema=",
  "=",
  ",,,",
  "target=go,unknown=1",
];

/** A ToolDefinition (rpc_tool, 52104) or ToolFieldOptions (52105) with random values. */
function optionBytes(r: Random, fields: number): Uint8Array {
  const w = new BinaryWriter();
  const n = 1 + r.int(4);
  for (let i = 0; i < n; i++) {
    const no = 1 + r.int(fields + 1);
    if (r.chance(0.5)) {
      w.tag(no, WireType.LengthDelimited).string(r.pick(texts));
    } else if (r.chance(0.8)) {
      w.tag(no, WireType.Varint).int32(r.int(3));
    } else {
      w.tag(no, WireType.Bit64).fixed64(BigInt(r.int(1000)));
    }
  }
  const out = w.finish();
  return r.chance(0.1) ? out.subarray(0, r.int(out.length + 1)) : out;
}

function allMessages(messages: DescriptorProto[]): DescriptorProto[] {
  return messages.flatMap((m) => [m, ...allMessages(m.nestedType)]);
}

function typeNames(req: CodeGeneratorRequest): string[] {
  return req.protoFile.flatMap((f) => {
    const walk = (prefix: string, ms: DescriptorProto[]): string[] =>
      ms.flatMap((m) => [
        `${prefix}.${m.name}`,
        ...walk(`${prefix}.${m.name}`, m.nestedType),
        ...m.enumType.map((e) => `${prefix}.${m.name}.${e.name}`),
      ]);
    const pkg = f.package === "" ? "" : `.${f.package}`;
    return [
      ...walk(pkg, f.messageType),
      ...f.enumType.map((e) => `${pkg}.${e.name}`),
    ];
  });
}

function mutateField(
  r: Random,
  f: FieldDescriptorProto,
  names: string[],
  m: DescriptorProto,
): void {
  switch (r.int(10)) {
    case 0:
      f.type = 1 + r.int(18);
      break;
    case 1:
      f.label = r.pick([
        FieldDescriptorProto_Label.OPTIONAL,
        FieldDescriptorProto_Label.REPEATED,
        FieldDescriptorProto_Label.REQUIRED,
      ]);
      break;
    case 2:
      f.typeName = r.chance(0.7) ? r.pick(names) : `.${r.pick(texts)}`;
      if (r.chance(0.5)) {
        f.type = r.pick([
          FieldDescriptorProto_Type.MESSAGE,
          FieldDescriptorProto_Type.ENUM,
        ]);
      }
      break;
    case 3:
      f.name = r.pick(texts);
      break;
    case 4:
      f.jsonName = r.pick(texts);
      break;
    case 5:
      f.number = r.pick([0, -1, 1, 2, 19000, 536_870_912, f.number]);
      break;
    case 6:
      f.oneofIndex = r.int(m.oneofDecl.length + 2) - 1;
      if (r.chance(0.3)) f.proto3Optional = !f.proto3Optional;
      break;
    case 7:
      f.options ??= create(FieldOptionsSchema);
      f.options.$unknown = [
        optionField(r, r.pick([52105, 52105, 52103, 1052, 1159])),
      ];
      break;
    case 8:
      f.defaultValue = r.pick(texts);
      break;
    default:
      m.field.push(clone(FieldDescriptorProtoSchema, f));
  }
}

/** An extension of an options message, as protobuf-es keeps it: random, or a random message. */
function optionField(r: Random, no: number) {
  if (r.chance(0.2)) {
    return { no, wireType: WireType.Varint, data: Uint8Array.of(r.int(256)) };
  }
  const payload = r.chance(0.2)
    ? Uint8Array.from({ length: r.int(12) }, () => r.int(256))
    : optionBytes(r, no === 1159 ? 30 : 11);
  return {
    no,
    wireType: WireType.LengthDelimited,
    data: lengthPrefixed(payload),
  };
}

function lengthPrefixed(data: Uint8Array): Uint8Array {
  return new BinaryWriter().bytes(data).finish();
}

function mutateFile(
  r: Random,
  req: CodeGeneratorRequest,
  file: FileDescriptorProto,
): void {
  const names = typeNames(req);
  const messages = allMessages(file.messageType);
  const methods = file.service.flatMap((s) => s.method);
  const roll = r.int(12);
  if (roll < 5 && messages.length > 0) {
    const m = r.pick(messages);
    if (m.field.length > 0 && roll < 4) {
      mutateField(r, r.pick(m.field), names, m);
    } else if (r.chance(0.5)) {
      m.name = r.pick(texts);
    } else if (m.field.length > 0) {
      m.field.splice(r.int(m.field.length), 1);
    } else {
      m.nestedType.push(clone(DescriptorProtoSchema, m));
    }
    return;
  }
  if (roll < 9 && methods.length > 0) {
    const method = r.pick(methods);
    switch (r.int(5)) {
      case 0:
        method.inputType = r.chance(0.8) ? r.pick(names) : r.pick(texts);
        break;
      case 1:
        method.outputType = r.chance(0.8) ? r.pick(names) : r.pick(texts);
        break;
      case 2:
        method.clientStreaming = r.chance(0.5);
        method.serverStreaming = r.chance(0.5);
        break;
      case 3:
        method.name = r.pick(texts);
        break;
      default:
        method.options ??= create(MethodOptionsSchema);
        method.options.$unknown = [
          optionField(r, r.pick([52104, 52104, 72295728])),
        ];
    }
    return;
  }
  switch (r.int(5)) {
    case 0:
      file.syntax = r.pick(["proto2", "proto3", "editions", "", "proto4"]);
      break;
    case 1:
      file.package = r.pick(texts);
      break;
    case 2:
      file.dependency.push(
        r.pick([...req.protoFile.map((f) => f.name), "missing.proto"]),
      );
      break;
    case 3:
      file.dependency.splice(r.int(file.dependency.length + 1), 1);
      break;
    default:
      file.name = r.pick([...texts, req.protoFile[0]!.name]);
  }
}

/** A structure-level mutation of request (a copy): 1 to 4 changes. */
export function mutateRequest(
  request: CodeGeneratorRequest,
  seed: number,
): CodeGeneratorRequest {
  const r = createRandom(seed);
  const req = clone(CodeGeneratorRequestSchema, request);
  const n = 1 + r.int(4);
  for (let i = 0; i < n; i++) {
    const roll = r.int(10);
    if (roll < 7 && req.protoFile.length > 0) {
      const generated = req.protoFile.filter((f) =>
        req.fileToGenerate.includes(f.name),
      );
      mutateFile(
        r,
        req,
        r.pick(
          generated.length > 0 && r.chance(0.8) ? generated : req.protoFile,
        ),
      );
    } else if (roll < 8) {
      req.parameter = r.pick(parameters);
    } else if (roll < 9) {
      req.protoFile.splice(r.int(req.protoFile.length), 1);
    } else {
      req.fileToGenerate.push(
        r.pick([...req.protoFile.map((f) => f.name), "nope.proto"]),
      );
    }
  }
  return req;
}

/** A bytes-level mutation of the request's encoding. */
export function mutateBytes(
  request: CodeGeneratorRequest,
  seed: number,
): Uint8Array {
  const r = createRandom(seed);
  let bytes: Uint8Array = toBinary(CodeGeneratorRequestSchema, request);
  const n = 1 + r.int(8);
  for (let i = 0; i < n; i++) {
    const at = r.int(bytes.length);
    switch (r.int(4)) {
      case 0: {
        const copy = bytes.slice();
        copy[at] = r.int(256);
        bytes = copy;
        break;
      }
      case 1:
        bytes = concat(
          bytes.subarray(0, at),
          Uint8Array.of(r.int(256)),
          bytes.subarray(at),
        );
        break;
      case 2:
        bytes = concat(
          bytes.subarray(0, at),
          bytes.subarray(at + 1 + r.int(16)),
        );
        break;
      default:
        if (r.chance(0.3)) bytes = bytes.subarray(0, at);
    }
  }
  return bytes;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
