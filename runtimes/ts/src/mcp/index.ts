export {
  createJsonLinesAuditWriter,
  type AuditHook,
  type AuditOutcome,
  type AuditRecord,
  type AuditStream,
} from "./audit.js";
export type { ApprovalRequest, ApproveHook } from "../approval.js";
export type { RateLimit } from "./call-limits.js";
export { errorText, codeName, type ToolResult } from "./call-result.js";
export { conversationKey } from "./conversation-key.js";
export type { ForwardIdentity } from "./forward-identity.js";
export {
  conversationArgument,
  conversationArgumentDescription,
  conversationMetaKey,
  mintConversationHandle,
} from "./conversation-handle.js";
export {
  createMemoryConversationStore,
  defaultIdleTtlMs,
  type ConversationStore,
  type MemoryConversationStoreOptions,
} from "../conversation-store.js";
export { extraPropertiesKey, type ExtraProperty } from "./extra-properties.js";
export {
  createInProcessTransport,
  type InProcessTransportOptions,
} from "./in-process-transport.js";
export {
  authInfoOf,
  identityOf,
  type Identity,
  type IdentityContext,
} from "./identity.js";
export type { McpToolMethod } from "./mcp-tool.js";
export type {
  HttpAuthOptions,
  IntrospectAuthOptions,
  JwtAuthOptions,
  McpHttpOptions,
} from "./http-auth-options.js";
export {
  createMcpHttpHandler,
  serveHttp,
  type McpHttpHandler,
  type RunningHttpServer,
  type ServeHttpOptions,
} from "./serve-http.js";
export type { McpProvider } from "./provider-form.js";
export {
  callToolName,
  searchToolsName,
  type SearchFirst,
} from "./search-first.js";
export { serveStdio, type ServeStdioOptions } from "./serve-stdio.js";
export type {
  McpHandlerOptions,
  McpServiceOptions,
} from "./service-options.js";
export type { ListedTool, ToolHints } from "./tool-listing.js";
export {
  createMcpToolServer,
  type ConversationScope,
  type McpToolServer,
  type McpToolServerOptions,
  type McpToolSet,
} from "./tool-server.js";
