/**
 * Tool-name rules of each model provider (docs/compat.md, "What providers
 * accept").
 */

/** A provider whose tool-name rule is known. */
export type ToolNameProvider = "openai" | "anthropic" | "gemini" | "mcp";

/** One provider that would refuse a tool name. */
export interface ToolNameViolation {
  readonly provider: ToolNameProvider;
  /** Lower-case, with the offending name quoted. */
  readonly message: string;
}

/** A name that every provider accepts. */
export const safeToolNamePattern = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

const rules: ReadonlyArray<{
  readonly provider: ToolNameProvider;
  readonly pattern: RegExp;
  readonly rule: string;
}> = [
  {
    provider: "openai",
    pattern: /^[a-zA-Z0-9_-]{1,64}$/,
    rule: "1 to 64 of [a-zA-Z0-9_-]",
  },
  {
    provider: "anthropic",
    pattern: /^[a-zA-Z0-9_-]{1,64}$/,
    rule: "1 to 64 of [a-zA-Z0-9_-]",
  },
  {
    provider: "gemini",
    pattern: /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/,
    rule: "a letter or _ followed by [a-zA-Z0-9_.-], at most 64 in all",
  },
  {
    provider: "mcp",
    pattern: /^[A-Za-z0-9_.-]{1,128}$/,
    rule: "1 to 128 of [A-Za-z0-9_.-]",
  },
];

/**
 * Returns, for each provider that would refuse `name`, why. An empty array
 * means every provider accepts it (the same as matching
 * {@link safeToolNamePattern}).
 */
export function checkToolName(name: string): ToolNameViolation[] {
  return rules
    .filter((r) => !r.pattern.test(name))
    .map((r) => ({
      provider: r.provider,
      message: `tool name ${JSON.stringify(name)} is refused by ${r.provider}: it must be ${r.rule}`,
    }));
}
