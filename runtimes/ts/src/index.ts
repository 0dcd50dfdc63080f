export {
  defineTool,
  type AgentTool,
  type ProviderForms,
  type ToolMethod,
} from "./agent-tool.js";
export {
  createAliasManager,
  isUuid,
  type AliasConfig,
  type AliasManager,
  type AliasRegistration,
  type ResponseAliasField,
  type ResponseAliasTool,
  type ResponseAliases,
} from "./alias-manager.js";
export { isAliasName } from "./alias-names.js";
export {
  conversationCorrupt,
  conversationExpired,
  conversationFull,
  storeUnavailable,
} from "./conversation-errors.js";
export {
  createConversationExecutor,
  type ConversationExecutor,
} from "./conversation-executor.js";
export {
  createMemoryConversationStore,
  defaultIdleTtlMs,
  defaultMaxAliases,
  mintConversationEpoch,
  mintConversationHandle,
  toolLoadingOf,
  type ConversationStore,
  type MemoryConversationStoreOptions,
  type StoredConversation,
  type ToolLoadingStore,
} from "./conversation-store.js";
export {
  createExecutor,
  defaultTimeoutMs,
  maxStreamMessages,
  type CreateExecutorOptions,
  type ExecuteOptions,
  type Executor,
  type ExecutorConfig,
  type ResultJsonOptions,
} from "./executor.js";
export { fixArguments, isBase64 } from "./fixup.js";
export {
  type RequestValidationResult,
  type RequestValidator,
  type RequestValidatorSource,
  type RuleViolation,
} from "./request-validation.js";
export { defaultMaxResultBytes } from "./result-limit.js";
export {
  createSessionRegistry,
  type SessionRegistry,
  type SessionRegistryOptions,
} from "./session-registry.js";
export type { ApprovalRequest, ApproveHook } from "./approval.js";
export type {
  Telemetry,
  ToolCallOutcome,
  ToolCallStart,
  ToolCallTelemetry,
} from "./telemetry.js";
export {
  ToolError,
  type ToolErrorOptions,
  type ToolErrorReason,
} from "./tool-error.js";
export { type Violation, type ViolationReason } from "./violations.js";
export {
  toOpenAiChatTool,
  toOpenAiChatTools,
  toOpenAiNamespaceFunction,
  toOpenAiResponsesTool,
  toOpenAiResponsesTools,
  type OpenAiChatTool,
  type OpenAiNamespaceFunction,
  type OpenAiNamespaceTool,
  type OpenAiResponsesRequestTool,
  type OpenAiResponsesTool,
  type OpenAiToolSearchOutput,
  type OpenAiToolSearchTool,
} from "./openai.js";
export {
  toAnthropicTool,
  toAnthropicTools,
  type AnthropicRequestTool,
  type AnthropicTool,
  type AnthropicToolOptions,
  type AnthropicToolResultBlock,
  type AnthropicToolSearchTool,
} from "./anthropic.js";
export {
  toGeminiFunctionDeclaration,
  toGeminiTool,
  type GeminiFunctionDeclaration,
  type GeminiOptions,
  type GeminiTool,
} from "./gemini.js";
export {
  anthropicStrictLimits,
  anthropicToolSearchLimits,
  checkAnthropicStrictRequest,
  geminiLimits,
  openAiLimits,
  type AnthropicStrictCounts,
} from "./provider-limits.js";
export {
  defineToolSearch,
  rankTools,
  type ToolHit,
  type ToolSearch,
  type ToolSearchFunction,
  type ToolSearchIndex,
  type ToolSearchNamespace,
} from "./tool-search.js";
export {
  createDeferredTools,
  type DeferredTools,
  type DeferredToolsOptions,
  type ToolSearchOutcome,
} from "./deferred-tools.js";
export type {
  AnthropicDeferredOptions,
  OpenAiDeferredOptions,
} from "./deferred-providers.js";
export {
  defaultSearchLimit,
  maxSearchLimit,
  parseSearchArguments,
  searchParameters,
  searchToolsName,
  type SearchArguments,
  type SearchParameters,
} from "./search-arguments.js";
