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
 * Anthropic tool search, per request: the tools of the catalog ("Maximum
 * tools: 10,000 tools in your catalog"; every tool of the request, deferred
 * or not, the search tool too), of which at least one not deferred.
 */
export const anthropicToolSearchLimits = { maxTools: 10000 } as const;

/**
 * OpenAI, per request: tools (`maxItems: 128` on `tools` in OpenAI's API
 * description; docs/compat.md, "What providers accept").
 */
export const openAiLimits = { maxTools: 128 } as const;

/**
 * What one strict tool adds to a request's Anthropic counts, as the
 * generator counts them on its strict form (shared vectors
 * e2e/vectors/providers/anthropic-strict-counts.json).
 */
export interface AnthropicStrictCounts {
  /** Properties, at every depth, that their object does not require. */
  readonly optional: number;
  /** Properties, at every depth, whose schema is an `anyOf` or a type list. */
  readonly unions: number;
}

/**
 * Throws when the strict tools of one Anthropic request exceed a limit of
 * {@link anthropicStrictLimits}, naming the count and the limit: `counts`
 * holds each strict tool's, as the generator counted them
 * (`forms.anthropicStrictCounts`).
 */
export function checkAnthropicStrictRequest(
  counts: readonly AnthropicStrictCounts[],
): void {
  const limits = anthropicStrictLimits;
  let optional = 0;
  let unions = 0;
  for (const c of counts) {
    optional += c.optional;
    unions += c.unions;
  }
  const over = (what: string, count: number, limit: number): void => {
    if (count > limit) {
      throw new Error(
        `${count} ${what} in one request: Anthropic strict tool use takes at most ${limit}; send fewer tools with strict`,
      );
    }
  };
  over("strict tools", counts.length, limits.maxStrictTools);
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

/**
 * Throws when a deferred Anthropic request would carry more tools than
 * {@link anthropicToolSearchLimits} allows. (Anthropic also wants one tool
 * not deferred: the deferred request's search tool always is.)
 */
export function checkAnthropicToolSearchRequest(count: number): void {
  const limit = anthropicToolSearchLimits.maxTools;
  if (count > limit) {
    throw new Error(
      `${count} tools in one request: Anthropic tool search takes at most ${limit}; send a subset of the tools`,
    );
  }
}
