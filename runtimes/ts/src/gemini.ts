import { parametersOf, type AgentTool } from "./agent-tool.js";
import { toGeminiParameters } from "./gemini-parameters.js";
import { geminiLimits } from "./provider-limits.js";
import { findRefCycle } from "./schema-cycles.js";

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
   * generated schema as it is) or `parameters` (the OpenAPI subset, derived
   * by {@link toGeminiParameters}; a tool left without parameters has
   * none).
   */
  readonly form?: "parametersJsonSchema" | "parameters" | undefined;
}

/** A Gemini tool holding function declarations (`Tool` of `@google/genai`). */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/**
 * The tool as a Gemini function declaration (a copy). By default the
 * schema goes in `parametersJsonSchema` (plain JSON Schema), not
 * `parameters` (an OpenAPI subset that refuses `additionalProperties`);
 * `form: "parameters"` derives that subset instead. A schema with a `$ref`
 * cycle through required properties (a compact strict tool generated with
 * `providers=openai`), which Gemini refuses, is an error in the default
 * form; the `parameters` form leaves the recursion out.
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
    const parameters = toGeminiParameters(parametersOf(tool));
    if (parameters !== undefined) {
      declaration.parameters = parameters;
    }
  } else {
    const schema = parametersOf(tool);
    const cycle = findRefCycle(schema, true);
    if (cycle !== undefined) {
      throw new Error(
        `tool ${JSON.stringify(tool.name)}: the schema has a $ref cycle through required properties (${JSON.stringify(cycle)}), which Gemini refuses (a cycle only through properties that are not required; nullable is not enough); use form "parameters", which leaves the recursion out, or generate the tool with providers=gemini`,
      );
    }
    declaration.parametersJsonSchema = schema;
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
