"""Approvals (docs/production.md, "Approvals"): a tool whose annotation does
not set ``auto_execute`` runs only once someone said yes. The hook and the
model-facing texts, shared by the executors and the MCP servers."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import grpc

from ._tool_error import ToolError

__all__ = [
    "ApprovalRequest",
    "Approve",
    "approval_refused",
    "ask_approval",
    "denied_text",
    "no_approval_text",
]


@dataclass(frozen=True)
class ApprovalRequest:
    """What an approval hook is asked about: who calls (``""`` without
    authorization), which tool, its gRPC method (``"/pkg.Svc/Method"``) and
    the model's arguments (aliases as the model wrote them, never UUIDs)."""

    subject: str
    tool: str
    method: str
    arguments: Mapping[str, Any]


Approve = Callable[[ApprovalRequest], bool | Awaitable[bool]]
"""An approval hook: ``True`` lets the call run; anything else refuses it,
and nothing is sent. It may be a coroutine function (the MCP servers and
:class:`~ai_tools_runtime.AsyncExecutor` await it)."""


def denied_text(tool: str) -> str:
    """The model-facing text of a call that was not approved."""
    return f"the call of {json.dumps(tool)} was not approved; nothing was sent"


def no_approval_text(tool: str, why: str) -> str:
    """The model-facing text of a call needing an approval none could give
    (``why``: what was missing, e.g. ``"no approval hook"``)."""
    return (
        f"the call of {json.dumps(tool)} needs an approval and none could be asked "
        f"({why}); nothing was sent"
    )


def approval_refused(text: str) -> ToolError:
    """The :class:`ToolError` of a call refused for want of an approval
    (``not-approved``, PERMISSION_DENIED)."""
    return ToolError(text, reason="not-approved", code=grpc.StatusCode.PERMISSION_DENIED)


async def ask_approval(approve: Approve, request: ApprovalRequest) -> bool:
    """The hook's answer, awaited when it is a coroutine; only ``True``
    approves."""
    answer: Any = approve(request)
    if inspect.isawaitable(answer):
        answer = await answer
    return answer is True
