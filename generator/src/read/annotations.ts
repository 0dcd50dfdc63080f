import type { DescField, DescMethod } from "./descriptors.js";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { GeneratorError } from "../errors.js";
import { decodeUtf8 } from "./decode-utf8.js";

/**
 * Extension numbers the plugin reads. Options are read by number from the
 * options' unknown fields, so any file declaring them works (see
 * docs/annotations.md) and none has to be known at generation time.
 */
export const extensionNumbers = {
  /** MethodOptions: (ai.tools.v1.rpc_tool), also (ai.context.v1.rpc_tool). */
  rpcTool: 52104,
  /** FieldOptions: (ai.tools.v1.tool_field). */
  toolField: 52105,
  /** FieldOptions: (ai.context.v1.field_context). */
  fieldContext: 52103,
  /** FieldOptions: (google.api.field_behavior), repeated enum. */
  fieldBehavior: 1052,
  /** MethodOptions: (google.api.http), a google.api.HttpRule. */
  http: 72295728,
  /** MethodOptions: protoc-gen-go-mcp's (mcp.v1.tool_name), a string. */
  mcpToolName: 58800,
} as const;

/** google.api.FieldBehavior values the plugin reads, as bits of a field's set. */
const fieldBehaviors = { required: 1, outputOnly: 2, identifier: 4 } as const;

/** The bit of each google.api.FieldBehavior value the plugin reads. */
const behaviorBits = new Map<number, number>([
  [2, fieldBehaviors.required], // REQUIRED
  [3, fieldBehaviors.outputOnly], // OUTPUT_ONLY
  [8, fieldBehaviors.identifier], // IDENTIFIER
]);

/** The `rpc_tool` method option. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly strict: boolean;
  readonly autoExecute: boolean;
  /** `timeout` (a google.protobuf.Duration), when set. */
  readonly timeout?: ToolTimeout;
  /** `hints`: the MCP hints it sets, each only when set. */
  readonly hints?: ToolHintOptions;
  /**
   * `required_scopes`, as written (order and repeats kept, unchecked: the
   * model checks and sorts them, required-scopes.ts); absent when none.
   */
  readonly requiredScopes?: readonly string[];
}

/** The `hints` of a ToolDefinition: the fields set, by name. */
export interface ToolHintOptions {
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
  readonly openWorld?: boolean;
}

/** A google.protobuf.Duration as the option holds it. */
export interface ToolTimeout {
  readonly seconds: bigint;
  readonly nanos: number;
}

/** The `tool_field` field option (all empty when absent). */
export interface ToolFieldOptions {
  readonly skip: boolean;
  readonly aliasPrefix: string;
  readonly usageNotes: string;
  readonly description: string;
}

/** An unknown field of an options message, as protobuf-es keeps it. */
export interface UnknownField {
  no: number;
  wireType: WireType;
  data: Uint8Array;
}

/** An options message, with the unknown fields its extensions are in. */
export interface WithUnknown {
  $unknown?: UnknownField[] | undefined;
}

const none: UnknownField[] = [];

/**
 * True when the options carry no unknown field, so no extension the plugin
 * reads: most fields, which need neither a decode nor a cache entry (nor
 * a lookup in one).
 */
function noExtensions(options: WithUnknown | undefined): boolean {
  const unknown = options?.$unknown;
  return unknown === undefined || unknown.length === 0;
}

/**
 * `decode` of a field's options, once per field: a field whose options
 * carry no extension (most) gets `absent` at once, without a decode, a
 * cache entry or a lookup in one. The schema builders ask once per field
 * and tool, for fields many tools share.
 */
export function perFieldOption<T extends NonNullable<unknown> | null>(
  absent: T,
  decode: (field: DescField) => T,
): (field: DescField) => T {
  return perElementOption(absent, decode);
}

/**
 * {@link perFieldOption} of a method or a field: every option the plugin
 * reads is decoded once per element of a request (descriptors are made per
 * request, so the cache lives as long as the request), however many stages
 * ask for it: tool selection, hints, schemas, field rules.
 */
function perElementOption<
  E extends DescMethod | DescField,
  T extends NonNullable<unknown> | null,
>(absent: T, decode: (element: E) => T): (element: E) => T {
  const cache = new WeakMap<E, T>();
  return (element) => {
    if (noExtensions(element.proto.options)) {
      return absent;
    }
    let value = cache.get(element);
    if (value === undefined) {
      value = decode(element);
      cache.set(element, value);
    }
    return value;
  };
}

/**
 * The unknown fields numbered `no` of an options message: the extensions
 * the plugin reads by number.
 */
export function unknownOf(
  options: WithUnknown | undefined,
  no: number,
): UnknownField[] {
  const unknown = options?.$unknown;
  if (unknown === undefined || unknown.length === 0) {
    return none; // most options carry no extension: allocate nothing
  }
  let found: UnknownField[] | undefined;
  for (let i = 0; i < unknown.length; i++) {
    const f = unknown[i]!;
    if (f.no === no) {
      (found ??= []).push(f);
    }
  }
  return found ?? none;
}

/**
 * The payload of a message-typed option. Several occurrences of the same
 * option merge, as the protobuf wire format says, so their payloads are
 * concatenated.
 */
export function messagePayload(fields: UnknownField[]): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.wireType !== WireType.LengthDelimited) {
      continue;
    }
    parts.push(lengthDelimited(f.data) ?? new BinaryReader(f.data).bytes());
  }
  if (parts.length === 0) {
    return undefined;
  }
  if (parts.length === 1) {
    return parts[0];
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * The value of a length-delimited field's data (a varint length, then the
 * bytes), read without a BinaryReader (whose DataView costs more than the
 * read) when the length is a varint of at most four bytes within the data;
 * else undefined, for BinaryReader to read or to report.
 */
function lengthDelimited(data: Uint8Array): Uint8Array | undefined {
  let length = 0;
  for (let i = 0; i < 4 && i < data.length; i++) {
    const b = data[i]!;
    length |= (b & 0x7f) << (7 * i);
    if (b < 0x80) {
      const end = i + 1 + length;
      return end <= data.length ? data.subarray(i + 1, end) : undefined;
    }
  }
  return undefined;
}

/**
 * Run an option's decoder; bytes it cannot read (a truncated or malformed
 * option, which protoc and buf never write) are a GeneratorError naming
 * the file, the element (`Service.Method`, `Message.field`) and the option,
 * not an internal error.
 */
export function decodeOption<T>(
  file: string,
  element: string,
  option: string,
  decode: () => T,
): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof GeneratorError) {
      throw e;
    }
    throw new GeneratorError(
      `${file}: ${element}: option ${option} cannot be read (${e instanceof Error ? e.message : String(e)}): compile the proto with protoc or buf`,
    );
  }
}

/**
 * {@link decodeOption} of a method's or a field's option. The element's
 * name is put together only for an error: options are read per field, and
 * nearly always read well.
 */
function decodeElementOption<T>(
  element: DescMethod | DescField,
  option: string,
  decode: () => T,
): T {
  try {
    return decode();
  } catch (e) {
    return decodeOption(
      element.parent.file.proto.name,
      `${element.parent.name}.${element.name}`,
      option,
      () => {
        throw e;
      },
    );
  }
}

type FieldValue = string | boolean;

/**
 * Decode a flat message of string and bool fields; later values win.
 * Options are decoded per annotated field, so the usual shape (one-byte
 * tags of the fields in `kinds`, bools of one byte, lengths of at most four
 * bytes) is read by hand; anything else is left to BinaryReader, which
 * reads it the same way or throws its error.
 */
export function decodeFlat(
  payload: Uint8Array,
  kinds: Readonly<Record<number, "string" | "bool">>,
): Map<number, FieldValue> {
  return scanFlat(payload, kinds) ?? readFlat(payload, kinds);
}

/** {@link decodeFlat} of the usual shape, or undefined. */
function scanFlat(
  payload: Uint8Array,
  kinds: Readonly<Record<number, "string" | "bool">>,
): Map<number, FieldValue> | undefined {
  const values = new Map<number, FieldValue>();
  const end = payload.length;
  let pos = 0;
  while (pos < end) {
    const tag = payload[pos++]!;
    const kind = tag < 0x80 ? kinds[tag >>> 3] : undefined;
    const wireType: WireType = tag & 7;
    if (kind === "bool" && wireType === WireType.Varint) {
      const b = payload[pos++];
      if (b === undefined || b >= 0x80) {
        return undefined;
      }
      values.set(tag >>> 3, b !== 0);
    } else if (kind === "string" && wireType === WireType.LengthDelimited) {
      let length = 0;
      let i = 0;
      for (; i < 4; i++) {
        const b = payload[pos++];
        if (b === undefined) {
          return undefined;
        }
        length |= (b & 0x7f) << (7 * i);
        if (b < 0x80) {
          break;
        }
      }
      if (i === 4 || pos + length > end) {
        return undefined;
      }
      values.set(tag >>> 3, decodeUtf8(payload, pos, pos + length));
      pos += length;
    } else {
      return undefined;
    }
  }
  return values;
}

/** {@link decodeFlat} with BinaryReader: any shape, and its errors. */
function readFlat(
  payload: Uint8Array,
  kinds: Readonly<Record<number, "string" | "bool">>,
): Map<number, FieldValue> {
  const values = new Map<number, FieldValue>();
  const reader = new BinaryReader(payload);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    const kind = kinds[no];
    if (kind === "string" && wireType === WireType.LengthDelimited) {
      values.set(no, reader.string());
    } else if (kind === "bool" && wireType === WireType.Varint) {
      values.set(no, reader.bool());
    } else {
      reader.skip(wireType, no);
    }
  }
  return values;
}

function str(values: Map<number, FieldValue>, no: number): string {
  const v = values.get(no);
  return typeof v === "string" ? v : "";
}

function bool(values: Map<number, FieldValue>, no: number): boolean {
  return values.get(no) === true;
}

/** The method's `rpc_tool` option, or undefined when the method has none. */
export function readToolDefinition(
  method: DescMethod,
): ToolDefinition | undefined {
  return toolDefinition(method) ?? undefined;
}

/** The `rpc_tool` option, decoded once per method; null when absent. */
const toolDefinition = perElementOption(null, (method: DescMethod) =>
  decodeElementOption(method, "(ai.tools.v1.rpc_tool)", () =>
    decodeToolDefinition(method),
  ),
);

function decodeToolDefinition(method: DescMethod): ToolDefinition | null {
  const payload = messagePayload(
    unknownOf(method.proto.options, extensionNumbers.rpcTool),
  );
  if (payload === undefined) {
    return null;
  }
  const v = decodeFlat(payload, {
    1: "string",
    2: "string",
    3: "bool",
    4: "bool",
  });
  const timeout = decodeTimeout(payload);
  const hints = decodeHints(payload);
  const scopes = decodeRequiredScopes(payload);
  return {
    name: str(v, 1),
    description: str(v, 2),
    strict: bool(v, 3),
    autoExecute: bool(v, 4),
    ...(timeout === undefined ? {} : { timeout }),
    ...(hints === undefined ? {} : { hints }),
    ...(scopes.length === 0 ? {} : { requiredScopes: scopes }),
  };
}

/**
 * ToolDefinition's field 7, `repeated string required_scopes`, every
 * value in the order given (several occurrences of the option append, as
 * protobuf merges a repeated field).
 */
function decodeRequiredScopes(payload: Uint8Array): string[] {
  const scopes: string[] = [];
  const reader = new BinaryReader(payload);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (no === 7 && wireType === WireType.LengthDelimited) {
      scopes.push(reader.string());
    } else {
      reader.skip(wireType, no);
    }
  }
  return scopes;
}

const hintNames = [
  "readOnly",
  "destructive",
  "idempotent",
  "openWorld",
] as const;

/**
 * ToolDefinition's field 6, `ToolHints hints` (four `optional bool`s,
 * 1 to 4), merged as protobuf merges a message given more than once (the
 * last value of a field wins); undefined when absent.
 */
function decodeHints(payload: Uint8Array): ToolHintOptions | undefined {
  let hints: Partial<Record<(typeof hintNames)[number], boolean>> | undefined;
  const reader = new BinaryReader(payload);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (no !== 6 || wireType !== WireType.LengthDelimited) {
      reader.skip(wireType, no);
      continue;
    }
    hints ??= {};
    const inner = new BinaryReader(reader.bytes());
    while (inner.pos < inner.len) {
      const [n, w] = inner.tag();
      const name = hintNames[n - 1];
      if (name !== undefined && w === WireType.Varint) {
        hints[name] = inner.bool();
      } else {
        inner.skip(w, n);
      }
    }
  }
  return hints;
}

/**
 * ToolDefinition's field 5, `google.protobuf.Duration timeout` (1 seconds,
 * 2 nanos), merged as protobuf merges a message given more than once;
 * undefined when absent.
 */
function decodeTimeout(payload: Uint8Array): ToolTimeout | undefined {
  let timeout: { seconds: bigint; nanos: number } | undefined;
  const reader = new BinaryReader(payload);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (no !== 5 || wireType !== WireType.LengthDelimited) {
      reader.skip(wireType, no);
      continue;
    }
    timeout ??= { seconds: 0n, nanos: 0 };
    const inner = new BinaryReader(reader.bytes());
    while (inner.pos < inner.len) {
      const [n, w] = inner.tag();
      if (n === 1 && w === WireType.Varint) {
        timeout.seconds = BigInt(inner.int64());
      } else if (n === 2 && w === WireType.Varint) {
        timeout.nanos = inner.int32();
      } else {
        inner.skip(w, n);
      }
    }
  }
  return timeout;
}

/**
 * The value of protoc-gen-go-mcp's `(mcp.v1.tool_name)` on the method
 * (their mcp/v1/annotations.proto as published with Go package
 * .../pkg/mcpv1: `extend google.protobuf.MethodOptions { string tool_name =
 * 58800; }`; docs/annotations.md says where it was found), the last
 * one given when set more than once; undefined when absent. An empty
 * value set explicitly is "", for the model to refuse as they do.
 */
export function readMcpToolName(method: DescMethod): string | undefined {
  return mcpToolName(method) ?? undefined;
}

/** `(mcp.v1.tool_name)`, decoded once per method; null when absent. */
const mcpToolName = perElementOption(null, (method: DescMethod) =>
  decodeElementOption(method, "(mcp.v1.tool_name)", () => {
    let name: string | null = null;
    for (const f of unknownOf(
      method.proto.options,
      extensionNumbers.mcpToolName,
    )) {
      if (f.wireType === WireType.LengthDelimited) {
        name = new BinaryReader(f.data).string();
      }
    }
    return name;
  }),
);

const noToolField: ToolFieldOptions = {
  skip: false,
  aliasPrefix: "",
  usageNotes: "",
  description: "",
};

const toolFieldKinds = {
  1: "bool",
  2: "string",
  3: "string",
  4: "string",
} as const;

/** The field's `tool_field` option; all fields empty when absent. */
export const readToolField = perFieldOption(noToolField, (field) =>
  decodeElementOption(field, "(ai.tools.v1.tool_field)", () =>
    decodeToolField(field),
  ),
);

function decodeToolField(field: DescField): ToolFieldOptions {
  const payload = messagePayload(
    unknownOf(field.proto.options, extensionNumbers.toolField),
  );
  if (payload === undefined) {
    return noToolField;
  }
  const v = decodeFlat(payload, toolFieldKinds);
  return {
    skip: bool(v, 1),
    aliasPrefix: str(v, 2),
    usageNotes: str(v, 3),
    description: str(v, 4),
  };
}

/** The description of the field's `(ai.context.v1.field_context)`, or "". */
export const readFieldContextDescription = perFieldOption("", (field) =>
  decodeElementOption(field, "(ai.context.v1.field_context)", () =>
    decodeFieldContext(field),
  ),
);

function decodeFieldContext(field: DescField): string {
  const payload = messagePayload(
    unknownOf(field.proto.options, extensionNumbers.fieldContext),
  );
  if (payload === undefined) {
    return "";
  }
  return str(decodeFlat(payload, { 1: "string" }), 1);
}

/** True when `(google.api.field_behavior)` includes OUTPUT_ONLY, packed or not. */
export function isOutputOnly(field: DescField): boolean {
  return (fieldBehaviorBits(field) & fieldBehaviors.outputOnly) !== 0;
}

/** True when `(google.api.field_behavior)` includes REQUIRED, packed or not. */
export function isRequired(field: DescField): boolean {
  return (fieldBehaviorBits(field) & fieldBehaviors.required) !== 0;
}

/** True when `(google.api.field_behavior)` includes IDENTIFIER, packed or not. */
export function isIdentifier(field: DescField): boolean {
  return (fieldBehaviorBits(field) & fieldBehaviors.identifier) !== 0;
}

/** The behaviors the plugin reads, one bit each, decoded once per field. */
const fieldBehaviorBits = perFieldOption(0, (field) =>
  decodeElementOption(field, "(google.api.field_behavior)", () =>
    decodeFieldBehavior(field),
  ),
);

function decodeFieldBehavior(field: DescField): number {
  let bits = 0;
  const add = (value: number) => {
    bits |= behaviorBits.get(value) ?? 0;
  };
  for (const f of unknownOf(
    field.proto.options,
    extensionNumbers.fieldBehavior,
  )) {
    const reader = new BinaryReader(f.data);
    if (f.wireType === WireType.Varint) {
      add(reader.int32());
    } else if (f.wireType === WireType.LengthDelimited) {
      const packed = new BinaryReader(reader.bytes());
      while (packed.pos < packed.len) {
        add(packed.int32());
      }
    }
  }
  return bits;
}

/**
 * The URL path templates of the method's `(google.api.http)` rule: its
 * get, put, post, delete, patch or custom path, then those of its
 * additional_bindings (google/api/http.proto: HttpRule fields 2-6, 8
 * CustomHttpPattern.path = 2, 11 additional_bindings). Empty without the
 * option.
 */
export const readHttpPaths = perElementOption(
  [] as readonly string[],
  (method: DescMethod): readonly string[] =>
    decodeElementOption(method, "(google.api.http)", () =>
      decodeHttpPaths(method),
    ),
);

function decodeHttpPaths(method: DescMethod): string[] {
  const payload = messagePayload(
    unknownOf(method.proto.options, extensionNumbers.http),
  );
  const paths: string[] = [];
  if (payload !== undefined) {
    collectHttpPaths(payload, paths, 0);
  }
  return paths;
}

/** Bindings nest only one level in practice; this bounds hostile input. */
const maxHttpRuleDepth = 8;

function collectHttpPaths(
  rule: Uint8Array,
  paths: string[],
  depth: number,
): void {
  const reader = new BinaryReader(rule);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (wireType !== WireType.LengthDelimited) {
      reader.skip(wireType, no);
    } else if (no >= 2 && no <= 6) {
      paths.push(reader.string());
    } else if (no === 8) {
      const custom = decodeFlat(reader.bytes(), { 2: "string" });
      paths.push(str(custom, 2));
    } else if (no === 11 && depth < maxHttpRuleDepth) {
      collectHttpPaths(reader.bytes(), paths, depth + 1);
    } else {
      reader.skip(wireType, no);
    }
  }
}
