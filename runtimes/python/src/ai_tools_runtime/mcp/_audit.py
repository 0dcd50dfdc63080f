"""The audit record of every tool call (docs/production.md, "Audit"): who
called which tool and how it ended; no argument values, no ids, no tokens."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Literal

__all__ = ["Audit", "AuditOutcome", "AuditRecord", "audit_time", "json_lines_audit_writer"]

AuditOutcome = Literal["ok", "tool_error", "invalid_arguments", "denied", "limited", "unauthorized"]
"""How a call ended:

- ``ok``: the server answered;
- ``tool_error``: the call failed after it was sent (``code``: the gRPC code
  name, e.g. ``NOT_FOUND``), or its conversation could not be used;
- ``invalid_arguments``: a model mistake caught before sending;
- ``denied``: not approved, or no approval could be asked;
- ``limited``: over the rate or concurrency limit;
- ``unauthorized``: a conversation handle the caller does not own (or one
  that expired) presented by an authenticated caller."""


@dataclass(frozen=True)
class AuditRecord:
    """One tool call, as the audit hook receives it."""

    time: str
    """When the call began: RFC 3339, UTC, milliseconds."""
    subject: str
    """The token's subject; ``""`` without authorization."""
    tool: str
    method: str
    """The full gRPC method: ``"/pkg.Svc/Method"``."""
    outcome: AuditOutcome
    duration_ms: float
    code: str | None = None
    """The gRPC code name of a ``tool_error``."""

    def to_json(self) -> str:
        """The record as one line of JSON, keys as in every target
        (``durationMs``; ``code`` only when set)."""
        value: dict[str, object] = {
            "time": self.time,
            "subject": self.subject,
            "tool": self.tool,
            "method": self.method,
            "outcome": self.outcome,
        }
        if self.code is not None:
            value["code"] = self.code
        value["durationMs"] = self.duration_ms
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


Audit = Callable[[AuditRecord], object]
"""An audit hook: called once per ``tools/call`` when it ends (not for the
round that asks for an approval); it must not block."""


def audit_time(moment: datetime) -> str:
    """``moment`` as an audit record's time: ``2026-12-04T21:54:32.123Z``."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def json_lines_audit_writer(stream: IO[str]) -> Audit:
    """An audit hook writing each record to ``stream`` as one line of JSON
    (flushed; safe from several threads)."""
    lock = threading.Lock()

    def write(record: AuditRecord) -> None:
        line = record.to_json() + "\n"
        with lock:
            stream.write(line)
            stream.flush()

    return write
