import { parametersOf, type AgentTool } from "./agent-tool.js";

/** A Gemini function declaration (`FunctionDeclaration` of `@google/genai`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: { [key: string]: unknown };
}

/**
 * The tool as a Gemini function declaration (a copy). The schema goes in
 * `parametersJsonSchema` (plain JSON Schema), not `parameters` (an OpenAPI
 * subset that refuses `additionalProperties`).
 */
export function toGeminiFunctionDeclaration(
  tool: AgentTool,
): GeminiFunctionDeclaration {
  return {
    name: tool.name,
    description: tool.description,
    parametersJsonSchema: parametersOf(tool),
  };
}
