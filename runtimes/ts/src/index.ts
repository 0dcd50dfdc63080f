export type { AgentTool, ToolMethod } from "./agent-tool.js";
export {
  createAliasManager,
  isUuid,
  type AliasConfig,
  type AliasManager,
} from "./alias-manager.js";
export {
  createExecutor,
  maxStreamMessages,
  type ExecuteOptions,
  type Executor,
  type ExecutorConfig,
} from "./executor.js";
export { fixArguments } from "./fixup.js";
export {
  createSessionRegistry,
  type SessionRegistry,
  type SessionRegistryOptions,
} from "./session-registry.js";
export {
  ToolError,
  type ToolErrorOptions,
  type ToolErrorReason,
} from "./tool-error.js";
export {
  toOpenAiChatTool,
  toOpenAiResponsesTool,
  type OpenAiChatTool,
  type OpenAiResponsesTool,
} from "./openai.js";
export {
  toAnthropicTool,
  type AnthropicTool,
  type AnthropicToolOptions,
} from "./anthropic.js";
export {
  toGeminiFunctionDeclaration,
  type GeminiFunctionDeclaration,
} from "./gemini.js";
