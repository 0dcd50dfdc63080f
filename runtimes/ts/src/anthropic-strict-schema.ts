import { findRefCycle } from "./schema-cycles.js";

/**
 * The form of a strict tool's schema sent to Anthropic with `strict: true`
 * (strict tool use), derived from the generated schema as Anthropic's own
 * SDK does: every object is closed (`additionalProperties: false`), and
 * what strict tool use does not take (numeric bounds, string lengths,
 * `maxItems`, a `minItems` over 1, a `format` outside its list, …) moves
 * into the description, as `(key: value, …)` with the keys sorted and the
 * values as compact JSON. The shared vectors
 * e2e/vectors/providers/anthropic-strict.json pin it (docs/compat.md, "What
 * providers accept"). A recursive schema (a `$ref` cycle: a compact strict
 * tool generated with `providers=openai`) is refused with an error, since
 * strict tool use takes no recursion.
 */
export function toAnthropicStrictSchema(
  schema: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const cycle = findRefCycle(schema, false);
  if (cycle !== undefined) {
    throw new Error(
      `the schema is recursive (a $ref cycle through ${JSON.stringify(cycle)}), which Anthropic strict tool use refuses; send the tool without strict, or generate it with providers=anthropic (recursion then stops at an empty object)`,
    );
  }
  return derive(schema) as Record<string, unknown>;
}

/** Values of `format` strict tool use accepts. */
const formats = [
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
];

const kept = new Set([
  "type",
  "title",
  "description",
  "properties",
  "required",
  "items",
  "enum",
  "const",
  "anyOf",
  "allOf",
  "pattern",
  "$ref",
  "$defs",
]);

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function mapValues(v: unknown): unknown {
  return isNode(v)
    ? Object.fromEntries(Object.entries(v).map(([k, s]) => [k, derive(s)]))
    : v;
}

function derive(node: unknown): unknown {
  if (!isNode(node)) {
    return node;
  }
  const out: Node = {};
  const moved: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" || key === "$defs") {
      out[key] = mapValues(value);
    } else if (key === "items") {
      out[key] = derive(value);
    } else if (key === "anyOf" || key === "allOf") {
      out[key] = Array.isArray(value) ? value.map(derive) : value;
    } else if (kept.has(key)) {
      out[key] = value;
    } else if (key === "format" && formats.includes(value as string)) {
      out[key] = value;
    } else if (key === "minItems" && (value === 0 || value === 1)) {
      out[key] = value;
    } else if (!(key === "additionalProperties" && value === false)) {
      moved[key] = value;
    }
  }
  const type = node["type"];
  if (
    type === "object" ||
    (Array.isArray(type) && type.includes("object")) ||
    "properties" in node
  ) {
    out["additionalProperties"] = false;
  }
  const keys = Object.keys(moved).sort();
  if (keys.length > 0) {
    const text = `(${keys.map((k) => `${k}: ${sortedJson(moved[k])}`).join(", ")})`;
    const description = out["description"];
    out["description"] =
      typeof description === "string" && description !== ""
        ? `${description} ${text}`
        : text;
  }
  return out;
}

/** Compact JSON with object keys sorted. */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) {
    return `[${v.map(sortedJson).join(",")}]`;
  }
  if (isNode(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}
