"""Extra properties (docs/mcp.md, "Tools as listed" and "Calls"): declared
when the server is set up, added to every input schema, taken out of the
arguments and handed to the call's context."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CallMetadata",
    "ExtraProperty",
    "McpCall",
    "current_call",
    "nullable_string",
]


@dataclass(frozen=True)
class ExtraProperty:
    """A property added to every tool's input schema (a nullable string),
    whose value is taken out of the arguments before decoding and handed to
    the call (:attr:`McpCall.extras`)."""

    name: str
    """The property name; it may not be a property of any tool's schema."""
    description: str
    """The property's description, shown to the model."""
    required: bool = False
    """Whether the property is listed in ``required``."""


@dataclass(frozen=True)
class McpCall:
    """The context of one ``tools/call``: while the executor runs it,
    :func:`current_call` returns it."""

    tool_name: str
    extras: Mapping[str, str]
    """The extra properties the call carried, name → value (absent or null
    ones left out)."""
    conversation: str | None
    """The conversation handle, when the call's conversation has one that
    the client passes back (HTTP, protocol 2026-07-28); else ``None``."""


CallMetadata = Callable[[McpCall], Sequence[tuple[str, str | bytes]]]
"""The gRPC metadata of a call's request, from the call: how an extra
property reaches the service (an in-process implementation reads it with
``context.invocation_metadata()``)."""

_CURRENT: ContextVar[McpCall | None] = ContextVar("ai_tools_mcp_call", default=None)


def current_call() -> McpCall | None:
    """The tool call being run, for code that runs inside it in the same
    task (a ``grpc.aio`` client interceptor, a :data:`CallMetadata`
    function); ``None`` elsewhere."""
    return _CURRENT.get()


def nullable_string(description: str) -> dict[str, Any]:
    """The schema of an added property: a nullable string (no description
    when it is empty)."""
    schema: dict[str, Any] = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    if description != "":
        schema["description"] = description
    return schema
