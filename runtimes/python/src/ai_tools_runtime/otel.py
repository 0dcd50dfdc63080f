"""Tool calls on OpenTelemetry (docs/production.md, "Telemetry"), through
the OpenTelemetry API (``pip install "protoc-gen-ai-tools-runtime[otel]"``);
the application brings the SDK and its exporters.

Each call is one INTERNAL span ``execute_tool <tool>``, current while the
call runs (its conversation's load and store included), whose context the
global propagator writes into the RPC's metadata; the histogram
``ai_tools.tool_call.duration`` and the counter
``ai_tools.aliases.registered``. Attributes hold names, kinds and counts:
never an argument value, an id, a handle or an error message."""

from __future__ import annotations

import time
from typing import Any, Final

from opentelemetry import context as otel_context
from opentelemetry import metrics, trace
from opentelemetry.propagate import inject
from opentelemetry.trace import SpanKind, Status, StatusCode

from ._telemetry import Telemetry, ToolCallOutcome

__all__ = ["INSTRUMENTATION_NAME", "create_open_telemetry"]

INSTRUMENTATION_NAME: Final = "protoc-gen-ai-tools"
"""The name of the tracer and of the meter."""

_ERROR: Final = Status(StatusCode.ERROR)


def create_open_telemetry(
    *,
    tracer_provider: trace.TracerProvider | None = None,
    meter_provider: metrics.MeterProvider | None = None,
    meta_baggage: bool = False,
) -> Telemetry:
    """The ``telemetry=`` of the executors, the conversation executor and
    the MCP servers, on ``tracer_provider`` and ``meter_provider`` (the
    global ones by default, also when they are set later).

    ``meta_baggage``: an MCP server adds the ``baggage`` a client sends in
    a ``tools/call``'s ``_meta`` to the call's context (and the global
    propagator sends it on to the backend). By default only the
    ``traceparent`` and ``tracestate`` of ``_meta`` are taken: a client's
    baggage is not trusted."""
    return _OpenTelemetry(tracer_provider, meter_provider, meta_baggage)


class _OpenTelemetry:
    def __init__(
        self,
        tracer_provider: trace.TracerProvider | None,
        meter_provider: metrics.MeterProvider | None,
        meta_baggage: bool,
    ) -> None:
        self.meta_baggage = meta_baggage
        """Read by the MCP servers (``getattr``, False when missing)."""
        self.tracer = trace.get_tracer(INSTRUMENTATION_NAME, tracer_provider=tracer_provider)
        meter = metrics.get_meter(INSTRUMENTATION_NAME, meter_provider=meter_provider)
        self.duration = meter.create_histogram(
            "ai_tools.tool_call.duration",
            unit="s",
            description="Duration of tool calls, conversation load and store included.",
        )
        self.registered = meter.create_counter(
            "ai_tools.aliases.registered",
            unit="{alias}",
            description="Aliases made from the ids of tool results.",
        )

    def start_tool_call(self, tool: str, method: str) -> _ToolCallSpan:
        attributes: dict[str, str] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool,
            "gen_ai.tool.type": "function",
            "rpc.system.name": "grpc",
        }
        if method:
            attributes["rpc.method"] = method
        span = self.tracer.start_span(
            f"execute_tool {tool}", kind=SpanKind.INTERNAL, attributes=attributes
        )
        return _ToolCallSpan(self, span, tool, method)


class _ToolCallSpan:
    __slots__ = ("_context", "_method", "_owner", "_span", "_start", "_token", "_tool")

    def __init__(self, owner: _OpenTelemetry, span: trace.Span, tool: str, method: str) -> None:
        self._owner = owner
        self._span = span
        self._tool = tool
        self._method = method
        self._context = trace.set_span_in_context(span)
        self._token = otel_context.attach(self._context)
        self._start = time.perf_counter()

    def trace_metadata(self) -> list[tuple[str, str]]:
        carrier: dict[str, str] = {}
        inject(carrier, context=self._context)
        return list(carrier.items())

    def end(self, outcome: ToolCallOutcome) -> None:
        elapsed = time.perf_counter() - self._start
        span = self._span
        try:
            if span.is_recording():
                span.set_attributes(_span_attributes(outcome))
                if outcome.error_type is not None:
                    span.set_status(_ERROR)
        finally:
            otel_context.detach(self._token)
            span.end()
        measured: dict[str, Any] = {"gen_ai.tool.name": self._tool}
        if self._method:
            measured["rpc.method"] = self._method
        if outcome.error_type is not None:
            measured["error.type"] = outcome.error_type
        self._owner.duration.record(elapsed, measured)
        if outcome.aliases_registered:
            tool = {"gen_ai.tool.name": self._tool}
            self._owner.registered.add(outcome.aliases_registered, tool)


def _span_attributes(outcome: ToolCallOutcome) -> dict[str, str | int]:
    out: dict[str, str | int] = {
        "ai_tools.aliases.resolved": outcome.aliases_resolved,
        "ai_tools.aliases.registered": outcome.aliases_registered,
    }
    if outcome.status_code is not None:
        out["rpc.response.status_code"] = outcome.status_code
    if outcome.error_type is not None:
        out["error.type"] = outcome.error_type
    if outcome.conversation_aliases is not None:
        out["ai_tools.conversation.aliases"] = outcome.conversation_aliases
    return out
