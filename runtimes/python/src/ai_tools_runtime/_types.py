"""The data the generated module declares, and the one exception type."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf.message import Message

__all__ = ["AgentTool", "AliasConfig", "ToolError", "ToolMethod"]


@dataclass(frozen=True)
class AgentTool:
    """A tool definition, provider-neutral."""

    name: str
    description: str
    strict: bool
    parameters: Mapping[str, Any]
    """The JSON Schema of the arguments (the same schema as the Go target's)."""


@dataclass(frozen=True)
class AliasConfig:
    """The alias facts of one generated module (docs/runtime.md)."""

    response_field_prefixes: Mapping[str, str] = field(default_factory=dict)
    """Response field JSON name -> alias prefix; "" means the tool's primary prefix."""
    known_alias_prefixes: frozenset[str] = frozenset()
    """Every prefix the protos declare."""


@dataclass(frozen=True)
class ToolMethod:
    """One auto-executed tool: the RPC it calls and how."""

    tool: AgentTool
    method: str
    """The full method path: "/aitest.v1.AccountService/CreateAccount"."""
    request_type: type[Message]
    response_type: type[Message]
    output_prefix: str = ""
    """The tool's primary alias prefix ("" when none)."""
    server_streaming: bool = False


# Go's names of the gRPC codes, as its status errors print them.
_GO_CODE_NAMES: dict[str, str] = {
    "OK": "OK",
    "CANCELLED": "Canceled",
    "UNKNOWN": "Unknown",
    "INVALID_ARGUMENT": "InvalidArgument",
    "DEADLINE_EXCEEDED": "DeadlineExceeded",
    "NOT_FOUND": "NotFound",
    "ALREADY_EXISTS": "AlreadyExists",
    "PERMISSION_DENIED": "PermissionDenied",
    "RESOURCE_EXHAUSTED": "ResourceExhausted",
    "FAILED_PRECONDITION": "FailedPrecondition",
    "ABORTED": "Aborted",
    "OUT_OF_RANGE": "OutOfRange",
    "UNIMPLEMENTED": "Unimplemented",
    "INTERNAL": "Internal",
    "UNAVAILABLE": "Unavailable",
    "DATA_LOSS": "DataLoss",
    "UNAUTHENTICATED": "Unauthenticated",
}


class ToolError(Exception):
    """The one exception a tool call fails with: its message is written for
    the model (hand ``str(err)`` back as the tool result).

    - bad arguments: ``failed to parse arguments: …`` (code INVALID_ARGUMENT);
    - an invented or stale alias: ``unknown alias "link-7" in field …``
      (code INVALID_ARGUMENT);
    - an unknown tool: ``no auto-executor for tool: …`` (code NOT_FOUND);
    - a failed call: ``rpc error: code = NotFound desc = link "link-2" not found``,
      with :attr:`code` set, :attr:`details` the server's message (UUIDs shown
      as aliases) and :attr:`trailing_metadata` as the server sent it (raw ids).
    """

    code: grpc.StatusCode | None
    details: str
    trailing_metadata: tuple[tuple[str, str | bytes], ...]

    def __init__(
        self,
        message: str,
        *,
        code: grpc.StatusCode | None = None,
        details: str | None = None,
        trailing_metadata: tuple[tuple[str, str | bytes], ...] = (),
    ) -> None:
        super().__init__(message)
        self.code = code
        self.details = message if details is None else details
        self.trailing_metadata = trailing_metadata

    @property
    def message(self) -> str:
        """The text for the model (same as ``str(err)``)."""
        return str(self.args[0])

    @classmethod
    def from_status(
        cls,
        code: grpc.StatusCode,
        details: str,
        trailing_metadata: tuple[tuple[str, str | bytes], ...] = (),
    ) -> ToolError:
        """The error of a call the server failed, printed as Go prints a status error."""
        name = _GO_CODE_NAMES.get(code.name, f"Code({code.value[0]})")
        return cls(
            f"rpc error: code = {name} desc = {details}",
            code=code,
            details=details,
            trailing_metadata=trailing_metadata,
        )
