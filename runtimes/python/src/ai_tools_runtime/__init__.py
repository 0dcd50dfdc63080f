"""Runtime of the Python target of protoc-gen-ai-tools (docs/py-runtime-api.md).

The generated ``ai_tools_gen.py`` holds data (tools, methods, alias facts);
this package holds the behaviour of docs/runtime.md, and the conversation
stores of docs/store.md (in memory here; Redis in
:mod:`ai_tools_runtime.redis`, which needs the ``redis`` extra), and the
telemetry hook (OpenTelemetry in :mod:`ai_tools_runtime.otel`, the ``otel``
extra). The MCP servers
(docs/mcp.md) are in :mod:`ai_tools_runtime.mcp`, which needs the ``mcp``
extra; this module never imports it."""

from ._agent_tool import AgentTool
from ._aliases import AliasManager, is_alias_name, is_uuid
from ._approval import ApprovalRequest, Approve
from ._conversation_executor import ConversationExecutor
from ._conversation_store import (
    DEFAULT_IDLE_TTL_SECONDS,
    DEFAULT_MAX_ALIASES,
    ConversationCorruptError,
    ConversationExpiredError,
    ConversationStore,
    MemoryConversationStore,
    mint_conversation_handle,
)
from ._deferred_tools import (
    DeferredTools,
    ToolSearchOutcome,
)
from ._executor import (
    DEFAULT_MAX_RESULT_BYTES,
    DEFAULT_TIMEOUT,
    MAX_STREAM_MESSAGES,
    AsyncExecutor,
    Executor,
    ResponseJson,
    ToolMethod,
)
from ._search_arguments import (
    DEFAULT_SEARCH_LIMIT,
    MAX_SEARCH_LIMIT,
    SEARCH_TOOLS_NAME,
    SearchArguments,
    parse_search_arguments,
    search_parameters,
)
from ._session_registry import SessionRegistry
from ._tables import AliasConfig, ResponseAliases, ResponseAliasField, ResponseAliasTool
from ._telemetry import Telemetry, ToolCallOutcome, ToolCallSpan
from ._tool_error import ToolError, ToolErrorReason
from ._tool_search import (
    ToolHit,
    ToolSearch,
    ToolSearchFunction,
    ToolSearchIndex,
    ToolSearchNamespace,
    define_tool_search,
    rank_tools,
)
from ._validation import RequestValidator
from ._violations import Violation, ViolationReason
from .providers import (
    anthropic_tool,
    anthropic_tools,
    gemini_function_declaration,
    gemini_tool,
    openai_chat_tool,
    openai_chat_tools,
    openai_responses_tool,
    openai_responses_tools,
)

__all__ = [
    "DEFAULT_IDLE_TTL_SECONDS",
    "DEFAULT_MAX_ALIASES",
    "DEFAULT_MAX_RESULT_BYTES",
    "DEFAULT_SEARCH_LIMIT",
    "DEFAULT_TIMEOUT",
    "MAX_SEARCH_LIMIT",
    "MAX_STREAM_MESSAGES",
    "SEARCH_TOOLS_NAME",
    "AgentTool",
    "AliasConfig",
    "AliasManager",
    "ApprovalRequest",
    "Approve",
    "AsyncExecutor",
    "ConversationCorruptError",
    "ConversationExecutor",
    "ConversationExpiredError",
    "ConversationStore",
    "DeferredTools",
    "Executor",
    "MemoryConversationStore",
    "RequestValidator",
    "ResponseAliasField",
    "ResponseAliasTool",
    "ResponseAliases",
    "ResponseJson",
    "SearchArguments",
    "SessionRegistry",
    "Telemetry",
    "ToolCallOutcome",
    "ToolCallSpan",
    "ToolError",
    "ToolErrorReason",
    "ToolHit",
    "ToolMethod",
    "ToolSearch",
    "ToolSearchFunction",
    "ToolSearchIndex",
    "ToolSearchNamespace",
    "ToolSearchOutcome",
    "Violation",
    "ViolationReason",
    "anthropic_tool",
    "anthropic_tools",
    "define_tool_search",
    "gemini_function_declaration",
    "gemini_tool",
    "is_alias_name",
    "is_uuid",
    "mint_conversation_handle",
    "openai_chat_tool",
    "openai_chat_tools",
    "openai_responses_tool",
    "openai_responses_tools",
    "parse_search_arguments",
    "rank_tools",
    "search_parameters",
]
