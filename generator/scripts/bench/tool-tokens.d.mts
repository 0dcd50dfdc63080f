// Types for tool-tokens.mjs (used by test/tool-tokens.test.ts).

/** What a tool list is made of: the fields of the generator's ToolModel it reads. */
export interface CountedTool {
  readonly name: string;
  readonly description: string;
  readonly strict: boolean;
  readonly schemaJson: string;
  /** The provider forms (ToolModel.formsJson): `openai` replaces the schema. */
  readonly formsJson?: string;
}

export function countO200k(text: string): number;
export function openAiToolList(tools: readonly CountedTool[]): string;
export function anthropicToolList(tools: readonly CountedTool[]): string;
export function toolListTokens(tools: readonly CountedTool[]): {
  openai: number;
  anthropic: number;
};
