"""The ``error.type`` of a ``tools/call`` refused by the MCP server itself
(docs/production.md, "Telemetry"), which answers it without raising: the
audit outcome, named as a :class:`ToolError` reason would name it."""

from __future__ import annotations

from typing import Final

from ._audit import AuditOutcome

__all__ = ["refusal_type"]

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
