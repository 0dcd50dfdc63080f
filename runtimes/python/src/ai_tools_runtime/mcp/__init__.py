"""MCP servers of generated tools (docs/mcp.md), on the official ``mcp`` SDK
(``pip install "protoc-gen-ai-tools-runtime[mcp]"``).

A generated ``ai_tools_mcp_gen.py`` adds its services' tools to a
:class:`McpToolServer`, which lists them (input schema plus extra and handle
properties, output schema, annotations) and calls them through the
executors, one alias table per conversation; :func:`serve_stdio` and
:func:`serve_http` serve it."""

from .._approval import ApprovalRequest, Approve
from .._conversation_store import (
    DEFAULT_IDLE_TTL_SECONDS,
    ConversationStore,
    MemoryConversationStore,
)
from ._audit import Audit, AuditOutcome, AuditRecord, json_lines_audit_writer
from ._call_result import error_text
from ._conversation_handle import (
    CONVERSATION_ARGUMENT,
    CONVERSATION_ARGUMENT_DESCRIPTION,
    CONVERSATION_META_KEY,
    mint_conversation_handle,
)
from ._conversation_key import conversation_key
from ._extra_properties import CallMetadata, ExtraProperty, McpCall, current_call
from ._forward_identity import BackendCredentials, ForwardIdentity
from ._http_auth import HttpAuth, Introspect, IntrospectionAuth, JwtAuth
from ._identity import Identity, identity_of
from ._in_process_transport import AddServicer, create_in_process_channel
from ._mcp_tool import McpToolMethod
from ._provider_form import McpProvider
from ._search_first import SearchFirst
from ._serve_http import DEFAULT_MAX_BODY_BYTES, create_mcp_http_app, serve_http
from ._serve_stdio import serve_stdio
from ._tool_server import McpToolServer

__all__ = [
    "CONVERSATION_ARGUMENT",
    "CONVERSATION_ARGUMENT_DESCRIPTION",
    "CONVERSATION_META_KEY",
    "DEFAULT_IDLE_TTL_SECONDS",
    "DEFAULT_MAX_BODY_BYTES",
    "AddServicer",
    "ApprovalRequest",
    "Approve",
    "Audit",
    "AuditOutcome",
    "AuditRecord",
    "BackendCredentials",
    "CallMetadata",
    "ConversationStore",
    "ExtraProperty",
    "ForwardIdentity",
    "HttpAuth",
    "Identity",
    "Introspect",
    "IntrospectionAuth",
    "JwtAuth",
    "McpCall",
    "McpProvider",
    "McpToolMethod",
    "McpToolServer",
    "MemoryConversationStore",
    "SearchFirst",
    "conversation_key",
    "create_in_process_channel",
    "create_mcp_http_app",
    "current_call",
    "error_text",
    "identity_of",
    "json_lines_audit_writer",
    "mint_conversation_handle",
    "serve_http",
    "serve_stdio",
]
