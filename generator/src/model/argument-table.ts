import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import type {
  DescField,
  DescMessage,
  DescMethod,
} from "../read/descriptors.js";
import { isRequiredBehavior } from "../schema/field-behavior.js";
import { methodRequiredFields } from "../schema/method-field-rules.js";
import { quoteJsonString } from "../schema/canonical-json.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { wellKnownSchema } from "../schema/well-known.js";
import { isFieldMask, maskTarget } from "../schema/mask-target.js";
import { createMaskNodes } from "./mask-nodes.js";

/**
 * The argument table of a tool (docs/runtime.md, "Argument check"): per
 * message the tool's schema shows, the property names the model may write
 * and those it must, read from the same schema the model sees (hidden
 * fields absent, recursion cut where the schema cuts it) and the request's
 * descriptors (which property is a message, a list or a map of messages,
 * and which fields are required).
 */

/**
 * One field of a node: a leaf, a message (singular, list or map) or a map
 * of non-messages (`map` without `node`: only its entries form is looked
 * into). `json` is its JSON name where it differs from the proto name, set
 * with lenient_arguments=true only (a lenient runtime accepts either name).
 */
interface TableField {
  readonly name: string;
  readonly json?: string;
  readonly node?: TableNode;
  readonly list?: boolean;
  readonly map?: boolean;
  /** A FieldMask field: the message its paths name (mask-target.ts). */
  readonly mask?: DescMessage;
}

/** A message as the schema shows it. */
interface TableNode {
  /** Its identity while the table is built. */
  readonly id: number;
  fields: TableField[];
  required: string[];
}

/** The own property `name` of a schema's `properties`, or undefined. */
function propertyOf(
  properties: JsonSchema,
  name: string,
): JsonSchema | undefined {
  return Object.prototype.hasOwnProperty.call(properties, name)
    ? (properties[name] as JsonSchema)
    : undefined;
}

/** How many property names the branches show, each counted once. */
function propertyCount(branches: readonly JsonSchema[]): number {
  if (branches.length === 1) {
    return Object.keys(branches[0]!["properties"] as JsonSchema).length;
  }
  const names = new Set<string>();
  for (const branch of branches) {
    for (const name of Object.keys(branch["properties"] as JsonSchema)) {
      names.add(name);
    }
  }
  return names.size;
}

/** What makes two nodes equal: their fields (children by id) and required. */
function signatureOf(n: TableNode): string {
  let out = "";
  for (const f of n.fields) {
    out += `${f.name}\0${f.json ?? ""}\0${f.node?.id ?? ""}\0${f.list === true ? "l" : f.map === true ? "m" : ""}\0${f.mask?.typeName ?? ""}\0`;
  }
  return `${out}\u0001${n.required.join("\0")}`;
}

const { LEGACY_REQUIRED } = FeatureSet_FieldPresence;

/**
 * The argument table of a tool whose parameter schema is `root` (the tree
 * its canonical text is written from, shared nodes and all, read only) and
 * whose request message is `message`, as JSON
 * text; "" when the root has no properties to check (a Struct request,
 * whose schema is an open object). With `lenientArguments` (plugin option
 * lenient_arguments=true) each field whose JSON name differs from its
 * proto name carries it as `json`. A FieldMask field carries `mask`, an
 * index into the table's `masks` (mask-nodes.ts); `method` is the tool's,
 * whose response a read mask at the root names.
 *
 * `stopAccepted` (a strict tool whose providers get two variants of its
 * schema, docs/compat.md "$defs and $ref"): `root` is the recursive
 * variant, and the table must also take what the stop variant lets a
 * model write, the empty object where the recursion stops. So a message
 * met again below itself (where the stop variant cuts) gets a node of
 * its own that requires nothing (`{}` passes; a nested value is checked
 * field by field); the messages above the first such point keep their
 * required fields (a REQUIRED scalar beside the cycle too).
 */
export function argumentTable(
  root: JsonSchema,
  message: DescMessage,
  strict: boolean,
  lenientArguments = false,
  method?: DescMethod,
  stopAccepted = false,
): string {
  const walk = createWalk(root, strict, lenientArguments, method, stopAccepted);
  const branches = walk.objectBranches(root);
  if (branches === undefined) {
    return "";
  }
  return serialize(walk.node(root, branches, message, true));
}

/**
 * The table's nodes, made from the schema's object branches and the
 * request's descriptors: one node per schema object, an equal node met
 * again (the same message expanded inline elsewhere) shared.
 */
function createWalk(
  root: JsonSchema,
  strict: boolean,
  lenientArguments: boolean,
  method: DescMethod | undefined,
  stopAccepted: boolean,
) {
  const { objectBranches, admitsNull, single } = createSchemaShapes(root);
  // Fields the method requires (HTTP-bound, AIP-134 identifiers), loose too.
  const methodRequired = methodRequiredFields(method);
  const byObject = new Map<JsonSchema, TableNode>();
  /** The nodes that require nothing (`stopAccepted`), by schema object. */
  const stopByObject = new Map<JsonSchema, TableNode>();
  const bySignature = new Map<string, TableNode>();
  /** Nodes a node below them points back to (recursion through `$ref`). */
  const referenced = new Set<TableNode>();
  let nextId = 0;
  /** The messages whose nodes are being filled, outermost first. */
  const filling: DescMessage[] = [];

  const node = (
    key: JsonSchema,
    branches: readonly JsonSchema[],
    message: DescMessage,
    atRoot = false,
    atStop = false,
  ): TableNode => {
    const nodes = atStop ? stopByObject : byObject;
    const known = nodes.get(key);
    if (known !== undefined) {
      referenced.add(known);
      return known;
    }
    // Registered before its fields, which may lead back to it through a
    // `$ref` (a cycle of definitions).
    const made: TableNode = { id: nextId++, fields: [], required: [] };
    nodes.set(key, made);
    filling.push(message);
    fill(made, branches, message, atRoot);
    filling.pop();
    if (atStop) {
      made.required = [];
    }
    // An equal node met before (the same message expanded again inline)
    // takes its place: its signature names its children by identity.
    const signature = signatureOf(made);
    const same = bySignature.get(signature);
    if (same !== undefined && !referenced.has(made)) {
      nodes.set(key, same);
      return same;
    }
    bySignature.set(signature, made);
    return made;
  };

  /** The node's fields and required names, from its schema branches. */
  const fill = (
    made: TableNode,
    branches: readonly JsonSchema[],
    message: DescMessage,
    atRoot: boolean,
  ): void => {
    // Declaration order (docs/runtime.md): the order messages list them in.
    let matched = 0;
    for (let i = 0, fields = message.fields; i < fields.length; i++) {
      const field = fields[i]!;
      const name = field.name;
      let schema: JsonSchema | undefined;
      let requiredIn = 0;
      for (let b = 0; b < branches.length; b++) {
        const branch = branches[b]!;
        const own = propertyOf(branch["properties"] as JsonSchema, name);
        schema ??= own;
        if (
          strict &&
          own !== undefined &&
          (branch["required"] as string[] | undefined)?.includes(name) === true
        ) {
          requiredIn++;
        }
      }
      if (schema === undefined) {
        continue;
      }
      matched++;
      made.fields.push(
        isFieldMask(field)
          ? {
              ...fieldOf(field, lenientArguments),
              ...(field.fieldKind === "list" ? { list: true } : {}),
              mask: maskTarget(field, atRoot, method),
            }
          : tableField(field, schema),
      );
      const required =
        field.presence === LEGACY_REQUIRED ||
        isRequiredBehavior(field) ||
        methodRequired.has(field) ||
        (strict && requiredIn === branches.length && !admitsNull(schema));
      if (required) {
        made.required.push(name);
      }
    }
    if (matched !== propertyCount(branches)) {
      throw new Error(
        `argument table: ${message.typeName} lacks a field its schema shows`,
      );
    }
  };

  /** A property of `field`, whose schema is `schema`. */
  const tableField = (field: DescField, schema: JsonSchema): TableField => {
    const own = fieldOf(field, lenientArguments);
    let child: DescMessage | undefined;
    let value: JsonSchema | undefined = schema;
    let shape: "list" | "map" | undefined;
    if (field.fieldKind === "message") {
      child = field.message;
    } else if (field.fieldKind === "list" && field.listKind === "message") {
      child = field.message;
      shape = "list";
      value = single(schema)?.["items"] as JsonSchema | undefined;
    } else if (field.fieldKind === "map" && field.mapKind === "message") {
      child = field.message;
      shape = "map";
      const outer = single(schema);
      value = (
        strict
          ? (
              (outer?.["items"] as JsonSchema | undefined)?.["properties"] as
                Record<string, JsonSchema> | undefined
            )?.["value"]
          : outer?.["additionalProperties"]
      ) as JsonSchema | undefined;
    }
    if (
      child === undefined ||
      value === undefined ||
      (wellKnownSchema(child.typeName, strict) !== undefined &&
        child.typeName !== "google.protobuf.Empty")
    ) {
      return own;
    }
    const branches = objectBranches(value);
    if (branches === undefined) {
      return own; // an open object: nothing checked inside
    }
    const target = single(value) ?? value;
    return {
      ...own,
      node: node(
        target,
        branches,
        child,
        false,
        // Where the stop variant cuts: a message met again below itself.
        stopAccepted && filling.includes(child),
      ),
      ...(shape === "list" ? { list: true } : {}),
      ...(shape === "map" ? { map: true } : {}),
    };
  };

  return { objectBranches, node };
}

/**
 * A field without a node: its name (and JSON name, lenient), and `map` for
 * a map (whose entries form is looked into all the same).
 */
function fieldOf(field: DescField, lenientArguments: boolean): TableField {
  return {
    name: field.name,
    ...(lenientArguments && field.jsonName !== field.name
      ? { json: field.jsonName }
      : {}),
    ...(field.fieldKind === "map" ? { map: true } : {}),
  };
}

/**
 * How the schema `root` shows a value, read through `$ref`s into its
 * `$defs`: the object branches a value may match, whether it admits null,
 * the one non-null schema of a wrapper.
 */
function createSchemaShapes(root: JsonSchema) {
  const defs = (root["$defs"] ?? {}) as Record<string, JsonSchema>;

  /** The schema a `$ref` points to. */
  const deref = (ref: string): JsonSchema => {
    const prefix = "#/$defs/";
    const key = ref.startsWith(prefix)
      ? ref.slice(prefix.length).replace(/~1/g, "/").replace(/~0/g, "~")
      : undefined;
    const target = key === undefined ? undefined : defs[key];
    if (target === undefined) {
      throw new Error(`argument table: cannot resolve $ref ${ref}`);
    }
    return target;
  };

  /**
   * The object schemas a value may match (a oneof's branches, a nullable
   * wrapper's object), nulls left out; undefined when the schema is no
   * object with properties (a leaf, an open object).
   */
  const objectBranches = (
    schema: JsonSchema,
    seen: Set<JsonSchema> = new Set(),
  ): JsonSchema[] | undefined => {
    if (seen.has(schema)) {
      return undefined;
    }
    seen.add(schema);
    const ref = schema["$ref"];
    if (typeof ref === "string") {
      return objectBranches(deref(ref), seen);
    }
    const anyOf = schema["anyOf"];
    if (Array.isArray(anyOf)) {
      const out: JsonSchema[] = [];
      for (const branch of anyOf as JsonSchema[]) {
        if (branch["type"] === "null") {
          continue;
        }
        const inner = objectBranches(branch, seen);
        if (inner === undefined) {
          return undefined;
        }
        out.push(...inner);
      }
      return out.length > 0 ? out : undefined;
    }
    return typeof schema["properties"] === "object" ? [schema] : undefined;
  };

  /** True when `schema` admits `null`. */
  const admitsNull = (schema: JsonSchema): boolean => {
    const type = schema["type"];
    if (type === "null" || (Array.isArray(type) && type.includes("null"))) {
      return true;
    }
    const ref = schema["$ref"];
    if (typeof ref === "string") {
      return admitsNull(deref(ref));
    }
    const anyOf = schema["anyOf"];
    return (
      Array.isArray(anyOf) && (anyOf as JsonSchema[]).some((b) => admitsNull(b))
    );
  };

  /**
   * The one non-null schema of a (nullable, described or referenced)
   * wrapper: the list or map schema itself.
   */
  const single = (schema: JsonSchema): JsonSchema | undefined => {
    const ref = schema["$ref"];
    if (typeof ref === "string") {
      return single(deref(ref));
    }
    const anyOf = schema["anyOf"];
    if (Array.isArray(anyOf)) {
      const rest = (anyOf as JsonSchema[]).filter((b) => b["type"] !== "null");
      return rest.length === 1 ? single(rest[0]!) : undefined;
    }
    return schema;
  };

  return { objectBranches, admitsNull, single };
}

/**
 * The table as JSON text: nodes numbered in first-visit order of a
 * depth-first walk from the request, fields in declaration order.
 */
function serialize(root: TableNode): string {
  const index = new Map<TableNode, number>();
  const order: TableNode[] = [];
  const visit = (n: TableNode): void => {
    if (index.has(n)) {
      return;
    }
    index.set(n, order.length);
    order.push(n);
    for (const f of n.fields) {
      if (f.node !== undefined) {
        visit(f.node);
      }
    }
  };
  visit(root);
  const masks = createMaskNodes();
  const nodes = order.map((n) => {
    const fields = n.fields.map((f) => {
      const parts: string[] = [];
      if (f.node !== undefined) {
        parts.push(`"node":${index.get(f.node)!}`);
      }
      if (f.mask !== undefined) parts.push(`"mask":${masks.index(f.mask)}`);
      if (f.list === true) parts.push(`"list":true`);
      if (f.map === true) parts.push(`"map":true`);
      if (f.json !== undefined) parts.push(`"json":${quoteJsonString(f.json)}`);
      return `${quoteJsonString(f.name)}:{${parts.join(",")}}`;
    });
    const required =
      n.required.length > 0
        ? `,"required":[${n.required.map(quoteJsonString).join(",")}]`
        : "";
    return `{"fields":{${fields.join(",")}}${required}}`;
  });
  const maskJson = masks.json();
  return `{"nodes":[${nodes.join(",")}]${maskJson === "" ? "" : `,"masks":${maskJson}`}}`;
}
