/**
 * Limits that hold per model request, not per tool (docs/compat.md, "What
 * providers accept"): the adapters that build a request's tool list refuse
 * one over them, as the provider would, before anything is sent.
 */

/**
 * Anthropic strict tool use, per request (Anthropic, "Structured outputs",
 * JSON Schema limitations): strict tools, optional parameters and
 * parameters with a union type across them.
 */
export const anthropicStrictLimits = {
  maxStrictTools: 20,
  maxOptionalParameters: 24,
  maxUnionParameters: 16,
} as const;

/**
 * Gemini, per request: function declarations (the API answers "At most 512
 * function declarations can be specified").
 */
export const geminiLimits = { maxFunctionDeclarations: 512 } as const;

/**
 * OpenAI, per request: tools (`maxItems: 128` on `tools` in OpenAI's API
 * description; docs/compat.md, "What providers accept").
 */
export const openAiLimits = { maxTools: 128 } as const;

/** What one strict schema adds to a request's Anthropic counts. */
export interface AnthropicStrictCounts {
  /** Properties, at every depth, that their object does not require. */
  readonly optional: number;
  /** Properties, at every depth, whose schema is an `anyOf` or a type list. */
  readonly unions: number;
}

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Counts a schema's optional and union parameters at every depth
 * (`properties`, `items`, `anyOf` branches, `$defs`), as the shared
 * vectors e2e/vectors/providers/anthropic-strict-counts.json pin.
 */
export function countAnthropicStrictParameters(
  schema: unknown,
): AnthropicStrictCounts {
  let optional = 0;
  let unions = 0;
  const walk = (node: unknown): void => {
    if (!isNode(node)) {
      return;
    }
    const properties = node["properties"];
    if (isNode(properties)) {
      const required = Array.isArray(node["required"]) ? node["required"] : [];
      for (const [name, sub] of Object.entries(properties)) {
        if (!required.includes(name)) {
          optional++;
        }
        if (isNode(sub) && ("anyOf" in sub || Array.isArray(sub["type"]))) {
          unions++;
        }
        walk(sub);
      }
    }
    walk(node["items"]);
    for (const branch of Array.isArray(node["anyOf"]) ? node["anyOf"] : []) {
      walk(branch);
    }
    const defs = node["$defs"];
    for (const def of isNode(defs) ? Object.values(defs) : []) {
      walk(def);
    }
  };
  walk(schema);
  return { optional, unions };
}

/**
 * Throws when the strict schemas of one Anthropic request exceed a limit
 * of {@link anthropicStrictLimits}, naming the count and the limit.
 */
export function checkAnthropicStrictRequest(schemas: readonly unknown[]): void {
  const limits = anthropicStrictLimits;
  let optional = 0;
  let unions = 0;
  for (const schema of schemas) {
    const counts = countAnthropicStrictParameters(schema);
    optional += counts.optional;
    unions += counts.unions;
  }
  const over = (what: string, count: number, limit: number): void => {
    if (count > limit) {
      throw new Error(
        `${count} ${what} in one request: Anthropic strict tool use takes at most ${limit}; send fewer tools with strict`,
      );
    }
  };
  over("strict tools", schemas.length, limits.maxStrictTools);
  over(
    "optional parameters across the strict tools",
    optional,
    limits.maxOptionalParameters,
  );
  over(
    "parameters with a union type across the strict tools",
    unions,
    limits.maxUnionParameters,
  );
}
