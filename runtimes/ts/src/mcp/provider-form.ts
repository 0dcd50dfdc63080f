import type { AgentTool } from "../agent-tool.js";

/**
 * A model provider whose generated schema form a registration serves
 * (`McpServiceOptions.provider`; docs/mcp.md, "Serving a provider's form"):
 * `"openai"` the `openai` form (OpenAI's `parameters`), `"anthropic"` the
 * `anthropic` form (Anthropic's `input_schema` without strict), `"gemini"`
 * the `gemini` form (Gemini's `parametersJsonSchema`).
 */
export type McpProvider = "openai" | "anthropic" | "gemini";

const mcpProviders: readonly string[] = ["openai", "anthropic", "gemini"];

/**
 * Throws an Error for a provider that is not one of {@link McpProvider}
 * (a value from untyped code or configuration).
 */
export function checkMcpProvider(provider: string | undefined): void {
  if (provider !== undefined && !mcpProviders.includes(provider)) {
    throw new Error(
      `unknown provider ${JSON.stringify(provider)}: use "openai", "anthropic" or "gemini"`,
    );
  }
}

/**
 * The input schema a registration serves for the tool: its `parameters`
 * without a provider; with one, the form the generator wrote for it
 * (`parameters` where it wrote none: the form equals them). Never derived
 * here. The tool's own object, not a copy: frozen for a tool of
 * `defineTool`, so a listing can share its parts; copy one that is not.
 * Throws an Error naming the tool and the fix when the tool has no
 * generated forms (a tool written by hand).
 */
export function servedSchema(
  tool: AgentTool,
  provider: McpProvider | undefined,
): { readonly [key: string]: unknown } {
  if (provider === undefined) {
    return tool.parameters;
  }
  const forms = tool.forms;
  if (forms === undefined) {
    throw new Error(
      `provider ${JSON.stringify(provider)}: tool ${JSON.stringify(tool.name)} has no generated ${JSON.stringify(provider)} form; generate with providers=${provider} (or without providers=), or register a tool written by hand without a provider`,
    );
  }
  return forms[provider] ?? tool.parameters;
}
