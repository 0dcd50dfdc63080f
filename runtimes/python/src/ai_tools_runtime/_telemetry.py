"""The telemetry hook of a tool call (docs/production.md, "Telemetry"): the
executors, the conversation executor and the MCP servers take a
:class:`Telemetry` (``telemetry=``), start one :class:`ToolCallSpan` per
call and end it with the call's :class:`ToolCallOutcome`. Without one they
do nothing more. :func:`ai_tools_runtime.otel.create_open_telemetry` makes
one on the OpenTelemetry API; this module never imports it."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Protocol

from ._tool_error import ToolError

if TYPE_CHECKING:
    from ._aliases import AliasManager

__all__ = ["Observed", "Telemetry", "ToolCallOutcome", "ToolCallSpan", "rpc_method"]

Metadata = Sequence[tuple[str, str | bytes]]

logger = logging.getLogger("ai_tools_runtime")

_FROM_THE_SERVER: Final = frozenset({"server-error", "unavailable"})


@dataclass(slots=True)
class ToolCallOutcome:
    """How one tool call ended, as its span learns it: no argument value,
    id, handle or message, only kinds and counts."""

    error_type: str | None = None
    """Why it failed: the :class:`ToolError` reason (``invalid-arguments``,
    ``server-error``, ``store-unavailable``, …; over MCP also
    ``too-many-calls`` and ``unauthorized``), or the type of an unexpected
    exception; None when it succeeded."""
    status_code: str | None = None
    """The gRPC code name the RPC ended with (``OK``, ``NOT_FOUND``, …);
    None when it was not sent."""
    aliases_resolved: int = 0
    """Aliases in the arguments turned into ids."""
    aliases_registered: int = 0
    """New aliases made from the response's ids."""
    conversation_aliases: int | None = None
    """The conversation's alias count after the call (as loaded when it
    failed before storing); None outside a conversation store."""


class ToolCallSpan(Protocol):
    """One tool call being observed, from its start (before the
    conversation is loaded) to its end (after the result is shown)."""

    def trace_metadata(self) -> Sequence[tuple[str, str]]:
        """The trace context to send with the RPC as gRPC metadata
        (``traceparent``, ``tracestate``, ``baggage``); may be empty."""
        ...

    def end(self, outcome: ToolCallOutcome) -> None:
        """The call ended; called once."""
        ...


class Telemetry(Protocol):
    """What observes the tool calls of an executor or an MCP server."""

    def start_tool_call(self, tool: str, method: str) -> ToolCallSpan:
        """A call of ``tool`` starts; ``method`` is its RPC
        (``pkg.Service/Method``, ``""`` for an unknown tool)."""
        ...


def rpc_method(path: str) -> str:
    """``pkg.Service/Method`` of a full method path (``/pkg.Service/Method``)."""
    return path[1:] if path.startswith("/") else path


class Observed:
    """The runtime's side of one observed call: the span, and the outcome
    filled in as the call goes. A context manager: its exit ends the span,
    with the exception that ended the call, if any."""

    __slots__ = ("outcome", "sent", "span")

    def __init__(self, telemetry: Telemetry, tool: str, method: str) -> None:
        self.span = telemetry.start_tool_call(tool, method)
        self.outcome = ToolCallOutcome()
        self.sent = False

    def __enter__(self) -> Observed:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        err: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.finish(err)

    def sending(self, metadata: Metadata | None) -> Metadata | None:
        """The RPC is sent now, with ``metadata`` and the trace context."""
        self.sent = True
        trace = self.span.trace_metadata()
        if not trace:
            return metadata
        return [*(metadata or ()), *trace]

    def resolving(self, aliases: AliasManager, value: Any) -> None:
        """The arguments ``value`` are about to be resolved with ``aliases``."""
        self.outcome.aliases_resolved += _alias_count(aliases._aliases, value)

    def failed(self, err: BaseException) -> None:
        """The call failed with ``err`` (where it is turned into a result)."""
        outcome = self.outcome
        outcome.error_type = err.reason if isinstance(err, ToolError) else type(err).__name__
        if not self.sent:
            return
        if isinstance(err, ToolError):
            # The server's status, else it answered and what failed came after.
            outcome.status_code = err.code.name if err.reason in _FROM_THE_SERVER else "OK"
        elif outcome.error_type == "CancelledError":
            outcome.status_code = "CANCELLED"

    def finish(self, err: BaseException | None) -> None:
        """End the span: the call ended with ``err``, or as noted."""
        outcome = self.outcome
        if err is not None and outcome.error_type is None:
            self.failed(err)
        if self.sent and outcome.error_type is None:
            outcome.status_code = "OK"
        try:
            self.span.end(outcome)
        except Exception:  # the call's own result or error stands
            logger.exception("the telemetry hook failed")


def _alias_count(table: dict[str, str], value: Any) -> int:
    """How many strings in the JSON ``value`` are keys of ``table``."""
    if not table:
        return 0
    count = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            count += v in table
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return count
