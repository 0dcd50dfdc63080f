"""The telemetry hook of a tool call (docs/production.md, "Telemetry"): the
executors, the conversation executor and the MCP servers take a
:class:`Telemetry` (``telemetry=``), start one :class:`ToolCallSpan` per
call and end it with the call's :class:`ToolCallOutcome`. Without one they
do nothing more. :func:`ai_tools_runtime.otel.create_open_telemetry` makes
one on the OpenTelemetry API; this module never imports it."""

from __future__ import annotations

import asyncio
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
_OTHER: Final = "_OTHER"
"""The ``error.type`` of a failure that is not a :class:`ToolError`
(OpenTelemetry's fallback value)."""


@dataclass(slots=True)
class ToolCallOutcome:
    """How one tool call ended, as its span learns it: no argument value,
    id, handle or message, only kinds and counts."""

    error_type: str | None = None
    """Why it failed: the :class:`ToolError` reason (``invalid-arguments``,
    ``server-error``, ``store-unavailable``, …; over MCP also
    ``too-many-calls`` and ``unauthorized``), or ``_OTHER`` for any other
    exception (a call cancelled before sending included; one cancelled
    after sending is ``server-error``); None when it succeeded."""
    status_code: str | None = None
    """The gRPC code name the RPC ended with (``OK``, ``NOT_FOUND``, …;
    ``CANCELLED`` when the executor cut its stream or the call was cancelled
    after sending); None when it was not sent."""
    aliases_resolved: int = 0
    """Aliases in the arguments turned into ids."""
    aliases_registered: int = 0
    """New aliases made from the response's ids."""
    conversation_aliases: int | None = None
    """The conversation's alias count after the call (as loaded when it
    failed before storing, ``conversation-full`` included); None for a
    plain executor, when the conversation could not be loaded, and for an
    MCP call refused before its conversation."""


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
        (``pkg.Service/Method``). Never called for a tool the executor does
        not run (its name is the model's, unbounded)."""
        ...


def rpc_method(path: str) -> str:
    """``pkg.Service/Method`` of a full method path (``/pkg.Service/Method``)."""
    return path[1:] if path.startswith("/") else path


class Observed:
    """The runtime's side of one observed call: the span, and the outcome
    filled in as the call goes. A context manager: its exit ends the span,
    with the exception that ended the call, if any. The hook never changes
    the call's outcome: a ``start_tool_call``, ``trace_metadata`` or
    ``end`` that raises is logged (a warning) and the call goes on without
    it."""

    __slots__ = ("_cut", "outcome", "sent", "span")

    def __init__(self, telemetry: Telemetry, tool: str, method: str) -> None:
        self.span: ToolCallSpan | None = None
        try:
            self.span = telemetry.start_tool_call(tool, method)
        except Exception:  # the call runs without telemetry
            _hook_failed()
        self.outcome = ToolCallOutcome()
        self.sent = False
        self._cut = False

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
        if self.span is None:
            return metadata
        try:
            trace = self.span.trace_metadata()
        except Exception:  # sent without the trace context
            _hook_failed()
            return metadata
        if not trace:
            return metadata
        return [*(metadata or ()), *trace]

    def resolving(self, aliases: AliasManager, value: Any) -> None:
        """The arguments ``value`` are about to be resolved with ``aliases``."""
        if self.span is not None:
            self.outcome.aliases_resolved += _alias_count(aliases._aliases, value)

    def cut(self) -> None:
        """The executor cancels the call's stream (over a limit): it ends
        ``CANCELLED``."""
        self._cut = True

    def failed(self, err: BaseException) -> None:
        """The call failed with ``err`` (where it is turned into a result).
        A cancel after sending is the server's ``CANCELLED`` status, as the
        executors' :class:`ToolError` reports it (``server-error``)."""
        outcome = self.outcome
        outcome.error_type = err.reason if isinstance(err, ToolError) else _OTHER
        if not self.sent:
            return
        if isinstance(err, asyncio.CancelledError):
            outcome.error_type = "server-error"
            outcome.status_code = "CANCELLED"
        elif self._cut:
            outcome.status_code = "CANCELLED"
        elif isinstance(err, ToolError):
            # The server's status, else it answered and what failed came after.
            outcome.status_code = err.code.name if err.reason in _FROM_THE_SERVER else "OK"

    def finish(self, err: BaseException | None) -> None:
        """End the span: the call ended with ``err``, or as noted."""
        outcome = self.outcome
        if err is not None and outcome.error_type is None:
            self.failed(err)
        if self.sent and outcome.error_type is None:
            outcome.status_code = "OK"
        if self.span is None:
            return
        try:
            self.span.end(outcome)
        except Exception:  # the call's own result or error stands
            _hook_failed()


def _hook_failed() -> None:
    """Log the exception a telemetry hook raised (it is not raised on)."""
    logger.warning("the telemetry hook failed", exc_info=True)


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
