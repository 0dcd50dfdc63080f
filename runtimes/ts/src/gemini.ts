import { formsOf, parametersOf, type AgentTool } from "./agent-tool.js";
import { geminiLimits } from "./provider-limits.js";

/** A Gemini function declaration (`FunctionDeclaration` of `@google/genai`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /** The generated schema, as plain JSON Schema (the default form). */
  parametersJsonSchema?: { [key: string]: unknown };
  /** The OpenAPI-subset form, with `form: "parameters"`. */
  parameters?: { [key: string]: unknown };
}

/** Options of {@link toGeminiFunctionDeclaration}. */
export interface GeminiOptions {
  /**
   * Which field carries the schema: `parametersJsonSchema` (default, the
   * generated schema) or `parameters` (the OpenAPI subset the generator
   * wrote, `forms.geminiParameters`; a tool left without parameters has
   * none, and a tool written by hand has no such form: an error naming it).
   */
  readonly form?: "parametersJsonSchema" | "parameters" | undefined;
}

/** A Gemini tool holding function declarations (`Tool` of `@google/genai`). */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/**
 * The tool as a Gemini function declaration (a copy). By default the
 * schema goes in `parametersJsonSchema` (plain JSON Schema: the generated
 * `forms.gemini`, else `parameters`), not `parameters` (an OpenAPI subset
 * that refuses `additionalProperties`); `form: "parameters"` sends the
 * subset the generator wrote (`forms.geminiParameters`) instead.
 */
export function toGeminiFunctionDeclaration(
  tool: AgentTool,
  options: GeminiOptions = {},
): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = {
    name: tool.name,
    description: tool.description,
  };
  if (options.form === "parameters") {
    const parameters = formsOf(tool).geminiParameters;
    if (parameters !== undefined && parameters !== null) {
      declaration.parameters = structuredClone(parameters);
    }
  } else {
    declaration.parametersJsonSchema = parametersOf(tool, "gemini");
  }
  return declaration;
}

/**
 * One Gemini tool declaring `tools`, as {@link toGeminiFunctionDeclaration}
 * makes each. More than 512 declarations
 * ({@link geminiLimits}) are refused here, as Gemini would refuse them.
 */
export function toGeminiTool(
  tools: readonly AgentTool[],
  options: GeminiOptions = {},
): GeminiTool {
  const limit = geminiLimits.maxFunctionDeclarations;
  if (tools.length > limit) {
    throw new Error(
      `${tools.length} function declarations in one request: Gemini takes at most ${limit}; send a subset of the tools`,
    );
  }
  return {
    functionDeclarations: tools.map((t) =>
      toGeminiFunctionDeclaration(t, options),
    ),
  };
}
