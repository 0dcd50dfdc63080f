"""Runtime of the Python target of protoc-gen-ai-tools (docs/py-runtime-api.md).

The generated ``ai_tools_gen.py`` holds data (tools, methods, alias facts);
this package holds the behaviour of docs/runtime.md."""

from ._aliases import AliasManager
from ._executor import MAX_STREAM_MESSAGES, AsyncExecutor, Executor
from ._sessions import SessionRegistry
from ._types import (
    AgentTool,
    AliasConfig,
    ResponseAliases,
    ResponseAliasField,
    ResponseAliasTool,
    ToolError,
    ToolErrorReason,
    ToolMethod,
)
from .providers import (
    anthropic_tool,
    gemini_function_declaration,
    gemini_tool,
    openai_chat_tool,
    openai_responses_tool,
)

__all__ = [
    "MAX_STREAM_MESSAGES",
    "AgentTool",
    "AliasConfig",
    "AliasManager",
    "AsyncExecutor",
    "Executor",
    "ResponseAliasField",
    "ResponseAliasTool",
    "ResponseAliases",
    "SessionRegistry",
    "ToolError",
    "ToolErrorReason",
    "ToolMethod",
    "anthropic_tool",
    "gemini_function_declaration",
    "gemini_tool",
    "openai_chat_tool",
    "openai_responses_tool",
]
