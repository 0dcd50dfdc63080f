// The Vercel AI SDK adapter, a separate entry point
// (`@protoc-gen-ai-tools/runtime/vercel-ai`): it imports `ai`, an optional peer
// dependency the main entry point does not need.
import { jsonSchema, tool as aiTool, type Tool } from "ai";
import { parametersOf, type AgentTool } from "./agent-tool.js";
import type { Executor } from "./executor.js";

/**
 * A Vercel AI SDK tool made by {@link toVercelAiTool}: input is the model's
 * arguments, output (with an executor) the call's JSON text. Typed `Tool`
 * (any input, any output) so that it fits the SDK's `ToolSet`.
 */
export type VercelAiTool = Tool;

/**
 * The tool as a Vercel AI SDK tool (`tool()` with `jsonSchema()`), strict as
 * declared. With an executor, `execute` runs the call and returns its JSON
 * (failures are thrown as ToolError, which the SDK reports to the model).
 */
export function toVercelAiTool(
  tool: AgentTool,
  executor?: Executor,
): VercelAiTool {
  const inputSchema = jsonSchema<unknown>(parametersOf(tool));
  if (executor === undefined) {
    // Tool<unknown, never> is the same object; the SDK's types only fail to
    // relate the two under exactOptionalPropertyTypes.
    return aiTool<unknown>({
      description: tool.description,
      inputSchema,
      strict: tool.strict,
    }) as unknown as Tool;
  }
  return aiTool<unknown, string>({
    description: tool.description,
    inputSchema,
    strict: tool.strict,
    execute: (input, options) =>
      executor.execute(tool.name, JSON.stringify(input), {
        signal: options.abortSignal,
      }),
  });
}

/** The tools as a Vercel AI SDK tool set, keyed by name. */
export function toVercelAiTools(
  tools: readonly AgentTool[],
  executor?: Executor,
): Record<string, VercelAiTool> {
  const set: Record<string, VercelAiTool> = {};
  for (const tool of tools) {
    Object.defineProperty(set, tool.name, {
      value: toVercelAiTool(tool, executor),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return set;
}
