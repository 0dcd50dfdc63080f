import { parametersOf, type AgentTool } from "../agent-tool.js";

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
 * A copy of the input schema a registration serves for the tool: its
 * `parameters` without a provider; with one, the form the
 * generator wrote for it (`parameters` where it wrote none: the form equals
 * them). Never derived here. Throws an Error naming the tool and the fix
 * when the tool has no generated forms (a tool written by hand).
 */
export function servedSchema(
  tool: AgentTool,
  provider: McpProvider | undefined,
): { [key: string]: unknown } {
  if (provider !== undefined && tool.forms === undefined) {
    throw new Error(
      `provider ${JSON.stringify(provider)}: tool ${JSON.stringify(tool.name)} has no generated ${JSON.stringify(provider)} form; generate with providers=${provider} (or without providers=)`,
    );
  }
  return parametersOf(tool, provider);
}
