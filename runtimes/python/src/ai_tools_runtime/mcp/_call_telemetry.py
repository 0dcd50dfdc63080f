"""The telemetry of a ``tools/call`` (docs/production.md, "Telemetry"):
the ``error.type`` of one the MCP server refused itself, which it answers
without raising (the audit outcome, named as a :class:`ToolError` reason
would name it), and the baggage of ``_meta``, taken only when asked."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final

from opentelemetry import baggage
from opentelemetry import context as otel_context
from opentelemetry.propagate import extract

from .._telemetry import Telemetry
from ._audit import AuditOutcome

__all__ = ["keeps_meta_baggage", "meta_baggage", "refusal_type"]

_REFUSALS: Final[dict[AuditOutcome, str]] = {
    "invalid_arguments": "invalid-arguments",
    "denied": "not-approved",
    "limited": "too-many-calls",
    "unauthorized": "unauthorized",
    # The backend credentials could not be obtained: nothing was sent.
    "tool_error": "unavailable",
}


def refusal_type(outcome: AuditOutcome) -> str | None:
    """The ``error.type`` of a call refused with ``outcome`` (None: ``ok``)."""
    return _REFUSALS.get(outcome)


def keeps_meta_baggage(telemetry: Telemetry | None) -> bool:
    """Whether ``telemetry`` opted in to the baggage of ``_meta``
    (``create_open_telemetry(meta_baggage=True)``)."""
    return getattr(telemetry, "meta_baggage", False) is True


@contextmanager
def meta_baggage(meta: Mapping[str, Any] | None) -> Iterator[None]:
    """Run a ``tools/call`` with the baggage of its ``_meta`` (the global
    propagator's, string values only) added to its OpenTelemetry context;
    ``meta`` None: as it is. The mcp SDK takes only the trace of ``_meta``
    (its span, our parent), never its baggage: a client's baggage reaches
    the backend only when the telemetry asks (docs/production.md, "Trace
    context")."""
    entries = _baggage_of(meta) if meta else None
    if not entries:
        yield
        return
    context = otel_context.get_current()
    for name, value in entries.items():
        context = baggage.set_baggage(name, value, context)
    token = otel_context.attach(context)
    try:
        yield
    finally:
        otel_context.detach(token)


def _baggage_of(meta: Mapping[str, Any]) -> Mapping[str, object]:
    carrier = {k: v for k, v in meta.items() if isinstance(v, str)}
    return baggage.get_all(extract(carrier, context=otel_context.Context()))
