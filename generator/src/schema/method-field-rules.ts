import type {
  DescField,
  DescMessage,
  DescMethod,
} from "../read/descriptors.js";
import { hasMethodPrefix } from "./method-kind.js";
import { isIdentifierBehavior, isRequiredField } from "./field-behavior.js";
import { httpBoundFields } from "./http-bound-fields.js";
import { isProtobufType } from "./well-known.js";

/**
 * What a method makes of a request field, whatever its own declaration
 * says: `required` (never nullable, always in `required`, required by the
 * argument table) or `optional` (nullable in a strict tool, not required).
 */
export type FieldRule = "required" | "optional";

/**
 * The request's resource fields (AIP-133, AIP-134): its singular message
 * fields whose type is not `google.protobuf.*` and has an IDENTIFIER field,
 * each with that field.
 */
function resourceIdentifiers(
  request: DescMessage,
): { readonly resource: DescField; readonly id: DescField }[] {
  const out = [];
  for (const resource of request.fields) {
    if (resource.fieldKind !== "message" || isProtobufType(resource.message)) {
      continue;
    }
    const id = resource.message.fields.find(isIdentifierBehavior);
    if (id !== undefined) {
      out.push({ resource, id });
    }
  }
  return out;
}

const rulesByMethod = new WeakMap<DescMethod, ReadonlyMap<string, FieldRule>>();

/**
 * The fields of `method`'s request that the method itself makes required
 * or optional, by field path from the request (`book.name`):
 *
 * - every field a `(google.api.http)` path variable binds, and the message
 *   fields on the way to it (`book` of `{book.name=…}`): required;
 * - AIP-134, a method named `Update…`: the IDENTIFIER field of the
 *   resource field: required;
 * - AIP-133, a method named `Create…`: the IDENTIFIER field of the
 *   resource field: optional (the server names the resource), unless
 *   REQUIRED or bound; with or without a `parent` field (a top-level
 *   resource has none: the Gemini API's `CreateCorpus(corpus)`). A request
 *   that is itself the resource (Pub/Sub's `CreateTopic(Topic)`) has no
 *   resource field and is left alone.
 */
export function methodFieldRules(
  method: DescMethod | undefined,
): ReadonlyMap<string, FieldRule> {
  if (method === undefined) {
    return noRules;
  }
  let rules = rulesByMethod.get(method);
  if (rules === undefined) {
    rules = readRules(method);
    rulesByMethod.set(method, rules);
  }
  return rules;
}

const noRules: ReadonlyMap<string, FieldRule> = new Map();

function readRules(method: DescMethod): ReadonlyMap<string, FieldRule> {
  const rules = new Map<string, FieldRule>();
  const request = method.input;
  const update = hasMethodPrefix(method.name, "Update");
  const create = hasMethodPrefix(method.name, "Create");
  if (update || create) {
    for (const { resource, id } of resourceIdentifiers(request)) {
      if (update || !isRequiredField(id)) {
        rules.set(
          `${resource.name}.${id.name}`,
          update ? "required" : "optional",
        );
      }
    }
  }
  for (const bound of httpBoundFields(method)) {
    const names = bound.split(".");
    for (let i = 1; i <= names.length; i++) {
      rules.set(names.slice(0, i).join("."), "required");
    }
  }
  return rules.size === 0 ? noRules : rules;
}

/**
 * The request fields (descriptors) on the paths {@link methodFieldRules}
 * makes required: the argument table requires them in loose tools too.
 */
export function methodRequiredFields(
  method: DescMethod | undefined,
): ReadonlySet<DescField> {
  const out = new Set<DescField>();
  for (const [path, rule] of methodFieldRules(method)) {
    if (rule !== "required") {
      continue;
    }
    let message: DescMessage | undefined = method!.input;
    let field: DescField | undefined;
    for (const name of path.split(".")) {
      field = message?.fields.find((f) => f.name === name);
      message = field?.fieldKind === "message" ? field.message : undefined;
    }
    if (field !== undefined) {
      out.add(field);
    }
  }
  return out;
}
