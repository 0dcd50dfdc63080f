"""The data the generated module declares, and the one exception type."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import grpc
from google.protobuf.any_pb2 import Any as AnyProto
from google.protobuf.message import Message

__all__ = [
    "AgentTool",
    "AliasConfig",
    "ResponseAliasField",
    "ResponseAliasTool",
    "ResponseAliases",
    "ToolError",
    "ToolErrorReason",
    "ToolMethod",
]


def _freeze(value: Any) -> Any:
    """A read-only deep copy of decoded JSON: objects as mapping proxies,
    arrays as tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    """A plain, mutable deep copy of a frozen JSON value (dicts and lists)."""
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class AgentTool:
    """A tool definition, provider-neutral. Immutable: ``parameters`` is
    stored as a read-only deep copy (mappings and tuples); :meth:`schema`
    returns a fresh, mutable copy."""

    name: str
    description: str
    strict: bool
    parameters: Mapping[str, Any]
    """The JSON Schema of the arguments (the same schema as the Go target's)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", _freeze(self.parameters))

    def schema(self) -> dict[str, Any]:
        """The JSON Schema as a new plain dict (lists for arrays), yours to change."""
        thawed: dict[str, Any] = _thaw(self.parameters)
        return thawed

    def __reduce__(self) -> tuple[type[AgentTool], tuple[str, str, bool, dict[str, Any]]]:
        # Mapping proxies cannot be pickled or deep-copied: rebuild from a copy.
        return (AgentTool, (self.name, self.description, self.strict, self.schema()))


@dataclass(frozen=True)
class ResponseAliasField:
    """One field of a message type in the response registration table
    (docs/runtime.md, "Response registration")."""

    field: str
    """The field's JSON name."""
    prefix: str = ""
    """The alias prefix of the strings the field holds, or ""."""
    message: str = ""
    """The full name of the message the field holds, when it is in the table, or ""."""
    is_map: bool = False
    """A map field: its values are visited (in byte order of their keys)."""


@dataclass(frozen=True)
class ResponseAliasTool:
    """How one auto-executed tool's response registers its ids."""

    message: str
    """The response message (of each item, for a server-streaming tool)."""
    id_prefix: str = ""
    """The prefix of the top-level entity's unannotated ``id``, or ""."""
    id_field: str = ""
    """The JSON name of the entity field, or "" for the response itself."""


@dataclass(frozen=True)
class ResponseAliases:
    """The response registration tables of one generated module."""

    types: Mapping[str, tuple[ResponseAliasField, ...]] = field(default_factory=dict)
    """Message full name -> its fields to look at, in declaration order."""
    tools: Mapping[str, ResponseAliasTool] = field(default_factory=dict)
    """Tool name -> its response message and top-level entity id rule."""


@dataclass(frozen=True)
class AliasConfig:
    """The alias facts of one generated module (docs/runtime.md)."""

    known_alias_prefixes: frozenset[str] = frozenset()
    """Every prefix the protos declare."""
    response_aliases: ResponseAliases = field(default_factory=ResponseAliases)
    """How each auto-executed tool's response registers its ids."""


@dataclass(frozen=True)
class ToolMethod:
    """One auto-executed tool: the RPC it calls and how."""

    tool: AgentTool
    method: str
    """The full method path: "/aitest.v1.AccountService/CreateAccount"."""
    request_type: type[Message]
    response_type: type[Message]
    server_streaming: bool = False


ToolErrorReason = Literal[
    "unknown-tool",
    "unknown-alias",
    "invalid-arguments",
    "server-error",
    "unavailable",
    "invalid-response",
]
"""Why a tool call failed (docs/runtime.md, "Errors"):

- ``unknown-tool``: no auto-executor has that name (NOT_FOUND);
- ``unknown-alias``: an argument is an alias of a known prefix that was never
  registered (INVALID_ARGUMENT);
- ``invalid-arguments``: not JSON, not an object, a fix-up or kind error, or
  the decoder refused them (INVALID_ARGUMENT);
- ``server-error``: the server answered with an error status (its code);
- ``unavailable``: the server could not be reached, or answered UNAVAILABLE;
- ``invalid-response``: a stream over 1,000 messages (RESOURCE_EXHAUSTED), or
  a response that cannot be written as JSON (INTERNAL)."""

Metadata = tuple[tuple[str, str | bytes], ...]


class ToolError(Exception):
    """The one exception a tool call fails with. ``str(err)`` is written for
    the model (hand it back as the tool result): no registered UUID appears
    in it, aliases are shown instead. ``__cause__`` is the underlying error,
    when there is one."""

    reason: ToolErrorReason
    """Why the call failed."""
    code: grpc.StatusCode
    """The gRPC code: the server's for ``server-error``; see :data:`ToolErrorReason`."""
    raw_message: str
    """For ``server-error`` and ``unavailable``: the server's own message
    (aliasified, without the ``rpc error: code = … desc = `` prefix); else
    the same as ``str(err)``."""
    details: tuple[AnyProto, ...]
    """The status details as the server sent them (raw ids kept, for the
    application; never shown to the model); empty for the other reasons."""
    trailing_metadata: Metadata
    """The server's trailing metadata, as it sent it (raw ids kept)."""

    def __init__(
        self,
        message: str,
        *,
        reason: ToolErrorReason,
        code: grpc.StatusCode,
        raw_message: str | None = None,
        details: tuple[AnyProto, ...] = (),
        trailing_metadata: Metadata = (),
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.code = code
        self.raw_message = message if raw_message is None else raw_message
        self.details = details
        self.trailing_metadata = trailing_metadata

    @property
    def message(self) -> str:
        """The text for the model (same as ``str(err)``)."""
        return str(self.args[0])
