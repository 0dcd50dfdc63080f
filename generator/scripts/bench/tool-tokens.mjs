// Token counts of a tool list as providers receive it. The tokenizer is
// gpt-tokenizer's o200k_base (the encoding of GPT-4o, GPT-4.1, GPT-5 and the
// o-series); its ranks ship inside the npm package, nothing is fetched.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

/** o200k_base tokens of `text` (special tokens are ordinary text). */
export function countO200k(text) {
  return countTokens(text, {
    allowedSpecial: new Set(),
    disallowedSpecial: new Set(),
  });
}

/**
 * The tool list in OpenAI's Chat Completions function-tool form, as JSON
 * without whitespace: `[{"type":"function","function":{"name",
 * "description","parameters","strict"}}, …]`. A tool with provider forms
 * (`formsJson`) is sent in its `openai` form when it has one, as the
 * adapters send it.
 */
export function openAiToolList(tools) {
  return JSON.stringify(
    tools.map((t) => ({
      type: "function",
      function: {
        name: t.name,
        description: t.description,
        parameters: openAiParameters(t),
        strict: t.strict,
      },
    })),
  );
}

function openAiParameters(tool) {
  const forms = tool.formsJson === undefined ? {} : JSON.parse(tool.formsJson);
  return forms.openai ?? JSON.parse(tool.schemaJson);
}

/**
 * The tool list in Anthropic's Messages API form, as JSON without
 * whitespace: `[{"name","description","input_schema"}, …]`.
 */
export function anthropicToolList(tools) {
  return JSON.stringify(
    tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: JSON.parse(t.schemaJson),
    })),
  );
}

/**
 * o200k_base tokens of a tool list (tools as the generator's model has
 * them: name, description, strict, schemaJson) in both forms.
 */
export function toolListTokens(tools) {
  return {
    openai: countO200k(openAiToolList(tools)),
    anthropic: countO200k(anthropicToolList(tools)),
  };
}
