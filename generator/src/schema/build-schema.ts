import { ScalarType } from "@bufbuild/protobuf";
import type {
  DescField,
  DescMessage,
  DescMethod,
  DescOneof,
} from "../read/descriptors.js";
import {
  Edition,
  FeatureSet_FieldPresence,
  FieldDescriptorProto_Label,
} from "@bufbuild/protobuf/wkt";
import { readToolField } from "../read/annotations.js";

import { aliasPrefixOf } from "./alias-prefix.js";
import { withAliasNote } from "./alias-note.js";
import { enumSchema, hasUnspecifiedZero } from "./enum-schema.js";
import {
  isDeprecatedField,
  isRequiredField,
  leftOutOfInput,
} from "./field-behavior.js";
import { methodFieldRules, type FieldRule } from "./method-field-rules.js";
import {
  defaultSchemaRules,
  schemaRulesKey,
  type SchemaRules,
} from "./schema-rules.js";
import { isFieldMask, maskHint, maskTarget } from "./mask-target.js";
import { fieldDescription } from "./field-description.js";
import { httpBoundFields } from "./http-bound-fields.js";
import { oneofNote } from "./oneof-note.js";
import { reachesCycle } from "./reaches-cycle.js";
import { shareBase64 } from "./shared-base64.js";
import type { JsonSchema, JsonValue } from "./json-schema.js";
import {
  createSchemaDefs,
  expandedMessage,
  type DefsPolicy,
  type RefSite,
  type SchemaDefs,
  wrapDescribedRefs,
} from "./schema-defs.js";
import { buildInForm, type SchemaForm } from "./schema-form.js";
import { applyValidateRules, schemaDialect } from "./validate-keywords.js";
import {
  base64PatternsWritten,
  bytesSchema,
  noteBase64Pattern,
  wellKnownSchema,
} from "./well-known.js";

/**
 * Members of one oneof that the schema shows as sibling properties, so that
 * a value could set several of them. `path` leads from the root to the
 * object holding them: property names, `[]` for array items, `{}` for map
 * values.
 */
export interface OneofGroup {
  readonly path: readonly string[];
  readonly oneof: string;
  readonly members: readonly string[];
}

/** A tool's parameter schema, and facts about it that tests need. */
export interface ToolSchema {
  readonly schema: JsonSchema;
  readonly oneofGroups: readonly OneofGroup[];
}

/** A path from the root, built as a chain so that extending it is cheap. */
type SchemaPath =
  { readonly parent: SchemaPath; readonly name: string } | undefined;

function child(parent: SchemaPath, ...names: string[]): SchemaPath {
  let path = parent;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    path = { parent: path, name };
  }
  return path;
}

function pathArray(path: SchemaPath): string[] {
  const out: string[] = [];
  for (let p = path; p !== undefined; p = p.parent) {
    out.unshift(p.name);
  }
  return out;
}

interface Context {
  readonly strict: boolean;
  /** Messages being expanded on the current path (ancestors only). */
  readonly expanding: Set<string>;
  readonly oneofGroups: OneofGroup[];
  /** Field paths (`permission.name`) the method's HTTP paths bind. */
  readonly bound: ReadonlySet<string>;
  /** What the method makes of fields, by path (method-field-rules.ts). */
  readonly fieldRules: ReadonlyMap<string, FieldRule>;
  /** The options `deprecated` and `output_only_comments` (schema-rules.ts). */
  readonly rules: SchemaRules;
  /** The tool's method, when known: a root read mask names its response. */
  readonly method: DescMethod | undefined;
  /** The tool's `$defs` (schema-defs.ts). */
  readonly defs: SchemaDefs<OneofGroup>;
  /** The `$ref`s written, paths relative to the definition being built. */
  readonly refSites: RefSite[];
  /**
   * `schema=compact`: a oneof is written as its members side by side with
   * a sentence (oneof-note.ts), never as one whole object per member.
   */
  readonly compact: boolean;
  /**
   * The `gemini` variant of a non-strict tool: a field that closes a cycle
   * is never required, REQUIRED ones included (Gemini refuses a cycle
   * through required properties).
   */
  readonly cyclesOptional: boolean;
}

/** Thrown when the request message cannot be the root of a tool schema. */
export class RootSchemaError extends Error {}

/**
 * Build the parameter schema of a tool whose request message is `message`,
 * following the base rules of docs/schemas.md and the fixes of
 * docs/compat.md. With `method`, the OUTPUT_ONLY fields its
 * `(google.api.http)` paths bind are kept. In `form` (schema-form.ts):
 * `compact` writes shared and recursive messages once under `$defs`;
 * either form gets `$defs` where a strict tool needs them to fit OpenAI's
 * nesting limit. With `strictCycles` (every enforced provider takes it:
 * provider-checks.ts, strictRecursionAllowed), a compact strict tool's
 * recursion is real, through `$ref`, instead of a closed empty object.
 * `rules`: the options `deprecated` and `output_only_comments`. With
 * `method`, the method's AIP-133/134 and HTTP rules on which fields are
 * required apply too (method-field-rules.ts). `recursion` asks for one
 * variant of docs/compat.md, "$defs and $ref", whatever the form and
 * `strictCycles` choose: `refs` (messages on a cycle under `$defs`, short
 * keys, the rest as the form writes it), `gemini` (as `refs`, a field
 * that closes a cycle never required: a non-strict tool's Gemini form) or
 * `stop` (recursion cut at an empty object, closed in a strict tool).
 */
export function buildToolSchema(
  message: DescMessage,
  strict: boolean,
  method?: DescMethod,
  form: SchemaForm = "inline",
  strictCycles = false,
  rules: SchemaRules = defaultSchemaRules,
  recursion?: Recursion,
): ToolSchema {
  const compact = form === "compact";
  const cycles =
    recursion === undefined
      ? compact && (strictCycles || !strict)
      : recursion !== "stop";
  // An inline tool reaching no cycle is the same in both variants, built
  // without the message graph the definitions need.
  const cycleDefs = cycles && !compact && reachesCycle(message);
  return buildInForm(
    (policy) =>
      buildWithDefs(
        message,
        strict,
        method,
        policy,
        cycles,
        compact,
        rules,
        compact || cycleDefs,
        recursion === "gemini",
      ),
    strict,
    form,
    cycleDefs,
  );
}

/**
 * A variant of a tool's schema on a message cycle (docs/compat.md, "$defs
 * and $ref"): `refs`, the recursion written with `$ref`; `gemini`, the
 * same with no field that closes a cycle required; `stop`, cut at an
 * empty object.
 */
export type Recursion = "refs" | "gemini" | "stop";

/**
 * The variant of `parameters` a non-strict tool's schema is built in:
 * recursive (docs/compat.md, "$defs and $ref"). A strict tool's follows
 * the form and the enforced providers (undefined).
 */
export function parametersRecursion(strict: boolean): Recursion | undefined {
  return strict ? undefined : "refs";
}

function buildWithDefs(
  message: DescMessage,
  strict: boolean,
  method: DescMethod | undefined,
  policy: DefsPolicy,
  cycles: boolean,
  compact: boolean,
  rules: SchemaRules,
  shortKeys: boolean,
  cyclesOptional = false,
): ToolSchema {
  const base64Before = base64PatternsWritten();
  const ctx: Context = {
    strict,
    expanding: new Set(),
    oneofGroups: [],
    bound: method === undefined ? new Set() : httpBoundFields(method),
    fieldRules: methodFieldRules(method),
    rules,
    method,
    defs: createSchemaDefs(message, policy, strict, cycles, shortKeys, rules),
    refSites: [],
    compact,
    cyclesOptional,
  };
  const wkt = wellKnownSchema(message.typeName, strict);
  if (wkt !== undefined) {
    if (wkt === null || wkt["type"] !== "object") {
      throw new RootSchemaError(
        `request type ${message.typeName} has no JSON object form${strict ? " in a strict tool" : ""}; use a request message with fields`,
      );
    }
    return { schema: wkt, oneofGroups: [] };
  }
  const schema = flattenRoot(messageSchema(message, ctx, undefined, true));
  const defs = ctx.defs.definitions();
  if (defs !== undefined) {
    schema["$defs"] = defs;
    wrapDescribedRefs(schema);
  }
  return {
    schema:
      base64PatternsWritten() === base64Before ? schema : shareBase64(schema),
    oneofGroups: ctx.defs.unroll(ctx.oneofGroups, ctx.refSites),
  };
}

/** Merge the branches of a root-level anyOf into one object (docs/schemas.md). */
function flattenRoot(schema: JsonSchema): JsonSchema {
  const branches = schema["anyOf"];
  if (
    schema["type"] !== undefined ||
    !Array.isArray(branches) ||
    branches.length === 0
  ) {
    return schema;
  }
  const properties = propertyMap();
  const requiredCount = new Map<string, number>();
  let additional: JsonValue | undefined;
  for (let i = 0, list = branches as JsonSchema[]; i < list.length; i++) {
    const branch = list[i]!;
    Object.assign(properties, branch["properties"] as JsonSchema);
    const names = branch["required"] as string[];
    for (let j = 0; j < names.length; j++) {
      const name = names[j]!;
      requiredCount.set(name, (requiredCount.get(name) ?? 0) + 1);
    }
    if (
      additional === undefined &&
      branch["additionalProperties"] !== undefined
    ) {
      additional = branch["additionalProperties"];
    }
  }
  const required = [...requiredCount]
    .filter(([, n]) => n === branches.length)
    .map(([name]) => name)
    .sort();
  const flat: JsonSchema = { type: "object", properties, required };
  if (schema["description"] !== undefined) {
    flat["description"] = schema["description"];
  }
  if (additional !== undefined) {
    flat["additionalProperties"] = additional;
  }
  return flat;
}

/**
 * An empty `properties` object without a prototype, so that a field named
 * `__proto__` is an ordinary key (canonicalJson writes it like any other).
 */
function propertyMap(): JsonSchema {
  return Object.create(null) as JsonSchema;
}

/**
 * A oneof branch's properties: the message's other properties, then the
 * member. A map without a prototype, as {@link propertyMap} makes, so that
 * copying is quick.
 */
function withMember(properties: JsonSchema, member: Member): JsonSchema {
  const out = Object.assign(propertyMap(), properties);
  out[member.name] = member.schema;
  return out;
}

/** `anyOf [s, null]` of docs/schemas.md: never an anyOf inside an anyOf. */
function nullable(schema: JsonSchema): JsonSchema {
  const anyOf = schema["anyOf"];
  if (schema["type"] === undefined && Array.isArray(anyOf)) {
    return { anyOf: [...anyOf, { type: "null" }] };
  }
  return { anyOf: [schema, { type: "null" }] };
}

/** Wrap in nullable(), moving the description onto the wrapper. */
function nullableWithDescription(schema: JsonSchema): JsonSchema {
  const description = schema["description"];
  if (description === undefined) {
    return nullable(schema);
  }
  const inner = { ...schema };
  delete inner["description"];
  return { ...nullable(inner), description };
}

/**
 * True when the field has the `optional` keyword, belongs to a oneof, or is
 * a scalar or enum field with explicit presence (Editions, docs/editions.md).
 * Message fields always have presence: they are optional only with proto2's
 * `optional` keyword, as in proto3 and Editions they are not.
 */
function isOptional(field: DescField): boolean {
  if (field.oneof !== undefined || field.proto.proto3Optional === true) {
    return true;
  }
  if (field.fieldKind === "scalar" || field.fieldKind === "enum") {
    return field.presence === FeatureSet_FieldPresence.EXPLICIT;
  }
  return (
    field.fieldKind === "message" &&
    field.parent.file.edition === Edition.EDITION_PROTO2 &&
    field.proto.label === FieldDescriptorProto_Label.OPTIONAL
  );
}

/**
 * True for `skip` fields and OUTPUT_ONLY ones, except those that identify
 * the resource: IDENTIFIER (field-behavior.ts), or bound by the method's
 * HTTP path at `path`. A binding keeps a field whose schema expands no
 * message only, as google/api/http.proto allows a path to bind only a
 * field of a primitive type: the definitions' cycle graph
 * (schema-defs.ts) then knows every message a schema expands.
 */
function isSkipped(field: DescField, ctx: Context, path: SchemaPath): boolean {
  if (!leftOutOfInput(field, ctx.rules)) {
    return false;
  }
  return (
    readToolField(field).skip ||
    !(ctx.bound.size > 0 && ctx.bound.has(pathArray(path).join("."))) ||
    expandedMessage(field, ctx.strict) !== undefined
  );
}

/**
 * True when a field outside a oneof may be left unset (strict: nullable;
 * non-strict: not in `required`): what the method makes of it at `path`
 * first (method-field-rules.ts), then required fields (REQUIRED,
 * `buf.validate` required, proto2 required) never, fields with the
 * `optional` keyword or explicit presence and singular enum fields whose
 * 0 value is `*_UNSPECIFIED` (the server default) always.
 */
function isLeftUnset(
  field: DescField,
  ctx: Context,
  path: SchemaPath,
): boolean {
  if (ctx.fieldRules.size > 0) {
    const rule = ctx.fieldRules.get(pathArray(path).join("."));
    if (rule !== undefined) {
      return rule === "optional";
    }
  }
  if (isRequiredField(field)) {
    return false;
  }
  return (
    isOptional(field) ||
    (field.fieldKind === "enum" && hasUnspecifiedZero(field.enum))
  );
}

/**
 * A request field's description (field-description.ts), marked
 * `Deprecated.` first when the field is deprecated (kept because it is
 * required, or by `deprecated=keep`), with the alias note (alias-note.ts)
 * as its last paragraph when the field takes an alias and its description
 * names no alias of that prefix yet.
 */
function inputDescription(field: DescField): string {
  let description = fieldDescription(field);
  if (isDeprecatedField(field)) {
    description =
      description === "" ? "Deprecated." : `Deprecated. ${description}`;
  }
  const prefix = aliasPrefixOf(field);
  return prefix === "" ? description : withAliasNote(description, prefix);
}

function closedEmptyObject(): JsonSchema {
  return {
    type: "object",
    properties: {},
    required: [],
    additionalProperties: false,
  };
}

/**
 * True when the method's HTTP paths bind a field below `path`: the message
 * there keeps OUTPUT_ONLY fields it keeps nowhere else, so it is expanded
 * in place, never shared.
 */
function bindsBelow(ctx: Context, path: SchemaPath): boolean {
  if (ctx.fieldRules.size === 0) {
    return false;
  }
  // Every bound path is in fieldRules, as are the AIP-133/134 identifiers.
  const prefix = `${pathArray(path).join(".")}.`;
  for (const ruled of ctx.fieldRules.keys()) {
    if (ruled.startsWith(prefix)) {
      return true;
    }
  }
  return false;
}

/**
 * A message's schema below the root of an inline schema, where it does not
 * depend on the tool: its nodes frozen (shared by every tool that uses the
 * message), its oneof groups with paths from the message.
 */
interface Expansion {
  readonly schema: JsonSchema;
  readonly oneofGroups: readonly OneofGroup[];
  /** True when the schema holds the strict bytes pattern (well-known.ts). */
  readonly base64: boolean;
}

/** Expansions of messages, strict ones first, per rules (schema-rules.ts). */
const expansions = [0, 1, 2, 3, 4, 5, 6, 7].map(
  () => new WeakMap<DescMessage, Expansion>(),
);

const noFieldRules: ReadonlyMap<string, FieldRule> = new Map();

const noBound: ReadonlySet<string> = new Set();

/**
 * The schema of `message` below the root of an inline schema (`$defs`
 * policy inline), built once per message and mode. Only for a message
 * whose expansion is the same wherever it is: no HTTP-bound field below
 * it, no recursion stop (no cycle reachable from it). Returns a copy of
 * its top node, which the caller may change (a field's description), and
 * records its oneof groups at `path`.
 */
function sharedExpansion(
  message: DescMessage,
  ctx: Context,
  path: SchemaPath,
): JsonSchema {
  const cache = expansions[(ctx.strict ? 0 : 4) + schemaRulesKey(ctx.rules)]!;
  let expansion = cache.get(message);
  if (expansion === undefined) {
    const oneofGroups: OneofGroup[] = [];
    const base64Before = base64PatternsWritten();
    const schema = expandMessage(
      message,
      {
        ...ctx,
        expanding: new Set([message.typeName]),
        oneofGroups,
        bound: noBound,
        fieldRules: noFieldRules,
        refSites: [],
      },
      undefined,
      false,
    );
    expansion = {
      schema: deepFreeze(schema),
      oneofGroups,
      base64: base64PatternsWritten() !== base64Before,
    };
    cache.set(message, expansion);
  }
  if (expansion.oneofGroups.length > 0) {
    const at = pathArray(path);
    for (let i = 0, groups = expansion.oneofGroups; i < groups.length; i++) {
      const group = groups[i]!;
      ctx.oneofGroups.push({ ...group, path: [...at, ...group.path] });
    }
  }
  if (expansion.base64) {
    noteBase64Pattern();
  }
  return { ...expansion.schema };
}

/**
 * Freeze a shared expansion's nodes: a pass that changed a node in place
 * would change the schema of every tool sharing it, so it throws instead
 * (modules are strict code).
 */
function deepFreeze<T extends JsonValue>(value: T): T {
  freezeAll(value);
  return value;
}

function freezeAll(value: JsonValue): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) {
    return;
  }
  Object.freeze(value);
  if (Array.isArray(value)) {
    value.forEach(freezeAll);
    return;
  }
  // `for…in` meets the keys of Object.values without its array (JSON
  // values inherit no enumerable key).
  for (const key in value) {
    freezeAll(value[key]!);
  }
}

function messageSchema(
  message: DescMessage,
  ctx: Context,
  path: SchemaPath,
  atRoot: boolean,
): JsonSchema {
  if (!atRoot && !bindsBelow(ctx, path)) {
    const policy = ctx.defs.policy;
    if (
      (policy === "inline" || policy === "cycles") &&
      !ctx.compact &&
      !reachesCycle(message)
    ) {
      return sharedExpansion(message, ctx, path);
    }
    // A definition is built once, apart from where it is used.
    const ref = ctx.defs.messageRef(message, (scope) =>
      expandMessage(
        message,
        {
          ...ctx,
          expanding: new Set([message.typeName]),
          oneofGroups: scope.facts,
          // Paths below are relative to the definition: no method rule
          // applies there (bindsBelow keeps ruled messages in place).
          fieldRules: noFieldRules,
          refSites: scope.refSites,
        },
        undefined,
        false,
      ),
    );
    if (ref !== undefined) {
      ctx.refSites.push({ path: pathArray(path), key: message.typeName });
      return ref;
    }
  }
  if (ctx.expanding.has(message.typeName)) {
    // A message already being expanded on this path: stop the recursion.
    return ctx.strict ? closedEmptyObject() : { type: "object" };
  }
  ctx.expanding.add(message.typeName);
  try {
    return expandMessage(message, ctx, path, atRoot);
  } finally {
    ctx.expanding.delete(message.typeName);
  }
}

interface Member {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly oneof: DescOneof;
  /** The member closes a cycle of message types (SchemaDefs.isCyclic). */
  readonly cyclic: boolean;
}

function expandMessage(
  message: DescMessage,
  ctx: Context,
  path: SchemaPath,
  atRoot: boolean,
): JsonSchema {
  const properties = propertyMap();
  const required: string[] = [];
  const members: Member[] = [];
  const oneofs: DescOneof[] = [];
  for (let i = 0, fields = message.fields; i < fields.length; i++) {
    const field = fields[i]!;
    if (isSkipped(field, ctx, child(path, field.name))) {
      continue;
    }
    const schema = fieldSchema(field, ctx, child(path, field.name));
    if (schema === null) {
      continue; // google.protobuf.Any: no usable JSON shape
    }
    if (isFieldMask(field)) {
      schema["description"] = maskHint(
        maskTarget(field, atRoot, ctx.method),
        ctx.rules,
      );
    }
    const description = applyValidateRules(
      field,
      schema,
      schemaDialect(ctx.strict),
      inputDescription(field),
    );
    if (description !== "") {
      // A type's own description (a strict Value's "JSON-encoded value")
      // says how to write it: it follows the field's, after a blank line.
      const hint = schema["description"];
      schema["description"] =
        typeof hint === "string" ? `${description}\n\n${hint}` : description;
    }
    if (field.oneof !== undefined) {
      members.push({
        name: field.name,
        schema,
        oneof: field.oneof,
        cyclic: ctx.defs.isCyclic(field),
      });
      if (!oneofs.includes(field.oneof)) {
        oneofs.push(field.oneof);
      }
      continue;
    }
    const optional = isLeftUnset(field, ctx, child(path, field.name));
    // A message field that closes a cycle is nullable (strict) or not
    // required, so that the schema has finite values, unless the field
    // must be sent (REQUIRED, proto2 required: the argument check requires
    // it too) and the variant is not Gemini's, which takes a cycle only
    // through a property that is not required.
    const cyclic = ctx.defs.isCyclic(field);
    properties[field.name] =
      ctx.strict && (optional || (cyclic && field.fieldKind === "message"))
        ? nullableWithDescription(schema)
        : schema;
    if (
      ctx.strict ||
      (!optional &&
        (!cyclic || (!ctx.cyclesOptional && isRequiredField(field))))
    ) {
      required.push(field.name);
    }
  }

  // One real oneof becomes one branch per member, except at the root of a
  // strict tool, where providers need a plain object with every property
  // required, and in a compact schema, which writes the message's other
  // fields once, not once per member (and where a member that closes a
  // cycle must not be required in a non-strict tool, as Gemini needs):
  // there it is treated like several oneofs. In a branch of a non-strict
  // tool, a member that closes a cycle is not required either.
  if (oneofs.length === 1 && !(ctx.strict && atRoot) && !ctx.compact) {
    if (atRoot) {
      ctx.oneofGroups.push({
        path: pathArray(path),
        oneof: oneofs[0]!.name,
        members: members.map((m) => m.name),
      });
    }
    return {
      anyOf: members.map((m) => {
        const branch: JsonSchema = {
          type: "object",
          properties: withMember(properties, m),
          required:
            m.cyclic && !ctx.strict ? [...required] : [...required, m.name],
        };
        if (ctx.strict) {
          branch["additionalProperties"] = false;
        }
        return branch;
      }),
    };
  }

  for (let i = 0; i < oneofs.length; i++) {
    const oneof = oneofs[i]!;
    const own = members.filter((m) => m.oneof === oneof);
    ctx.oneofGroups.push({
      path: pathArray(path),
      oneof: oneof.name,
      members: own.map((m) => m.name),
    });
  }
  for (let i = 0; i < members.length; i++) {
    const m = members[i]!;
    if (ctx.strict) {
      properties[m.name] = nullableWithDescription(m.schema);
      required.push(m.name);
    } else {
      properties[m.name] = m.schema;
    }
  }
  const result: JsonSchema = { type: "object", properties };
  if (required.length > 0 || ctx.strict) {
    result["required"] = required;
  }
  const note = ctx.compact
    ? oneofNote(
        oneofs.map((o) =>
          members.filter((m) => m.oneof === o).map((m) => m.name),
        ),
      )
    : undefined;
  if (note !== undefined) {
    result["description"] = note;
  }
  if (ctx.strict) {
    result["additionalProperties"] = false;
  }
  return result;
}

/** A field's schema; null for a field that is left out (Any). */
function fieldSchema(
  field: DescField,
  ctx: Context,
  path: SchemaPath,
): JsonSchema | null {
  switch (field.fieldKind) {
    case "map": {
      const value =
        field.mapKind === "message"
          ? messageOrWkt(
              field.message,
              ctx,
              ctx.strict ? child(path, "[]", "value") : child(path, "{}"),
            )
          : field.mapKind === "enum"
            ? enumSchema(field.enum, ctx.rules)
            : scalarSchema(field.scalar, ctx.strict);
      if (value === null) {
        return null;
      }
      if (ctx.strict) {
        return {
          type: "array",
          items: {
            type: "object",
            properties: { key: mapKeySchema(field.mapKey), value },
            required: ["key", "value"],
            additionalProperties: false,
          },
        };
      }
      const result: JsonSchema = {
        type: "object",
        additionalProperties: value,
      };
      const names = propertyNames(field.mapKey);
      if (names !== undefined) {
        result["propertyNames"] = names;
      }
      return result;
    }
    case "list": {
      const items =
        field.listKind === "message"
          ? messageOrWkt(field.message, ctx, child(path, "[]"))
          : field.listKind === "enum"
            ? enumSchema(field.enum, ctx.rules)
            : scalarSchema(field.scalar, ctx.strict);
      return items === null ? null : { type: "array", items };
    }
    case "message":
      return messageOrWkt(field.message, ctx, path);
    case "enum":
      return enumSchema(field.enum, ctx.rules);
    case "scalar":
      return scalarSchema(field.scalar, ctx.strict);
  }
}

function messageOrWkt(
  message: DescMessage,
  ctx: Context,
  path: SchemaPath,
): JsonSchema | null {
  const wkt = wellKnownSchema(message.typeName, ctx.strict);
  if (wkt !== undefined) {
    return wkt;
  }
  return messageSchema(message, ctx, path, false);
}

function scalarSchema(scalar: ScalarType, strict: boolean): JsonSchema {
  switch (scalar) {
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BYTES:
      return bytesSchema(strict);
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      return { type: "number" };
    default:
      return { type: "integer" };
  }
}

function mapKeySchema(key: ScalarType): JsonSchema {
  switch (key) {
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    default:
      return { type: "integer" };
  }
}

/**
 * Non-strict maps: the object keys protobuf JSON accepts for the key type,
 * spelled one way only (no leading zeros, no "-0"), so that two keys never
 * name the same map entry.
 */
function propertyNames(key: ScalarType): JsonSchema | undefined {
  switch (key) {
    case ScalarType.STRING:
      return undefined;
    case ScalarType.BOOL:
      return { enum: ["false", "true"] };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { pattern: "^(0|-?[1-9][0-9]{0,8})$" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { pattern: "^(0|[1-9][0-9]{0,8})$" };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { pattern: "^(0|[1-9][0-9]{0,18})$" };
    default:
      return { pattern: "^(0|-?[1-9][0-9]{0,17})$" };
  }
}
