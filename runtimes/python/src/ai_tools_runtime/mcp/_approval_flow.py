"""Approvals over MCP (docs/production.md, "Approvals"): the application's
hook, else an elicitation form (2026-07-28: an ``input_required`` result
whose ``requestState`` the SDK seals; 2025-11-25: ``elicitation/create`` on
the session), else a refusal. Asked once the arguments passed their checks,
before anything is sent."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Final

import mcp_types
from mcp.server import ServerRequestContext
from mcp.server.context import CallNext, HandlerResult, ServerMiddleware
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from .._approval import ApprovalRequest, Approve, ask_approval, denied_text, no_approval_text
from ._call_result import error_result
from ._identity import identity_of

__all__ = [
    "APPROVAL_KEY",
    "Approved",
    "UsedStates",
    "approval_answer",
    "approval_message",
    "request_state_boundary",
    "state_refusal",
]

APPROVAL_KEY: Final = "approval"
"""The key of the approval form among a result's ``inputRequests``."""

_STATE: Final = "ai-tools/approval"
"""How the plaintext of the ``requestState`` of an approval round starts:
``ai-tools/approval:<conversation digest>:<nonce>``, sealed by the SDK's
boundary with the tool, the arguments' digest, the subject and an expiry of
ten minutes."""

_STATE_SECONDS: Final = 600.0


class UsedStates:
    """The nonces of the approval states already used, each remembered
    until its state expires: a state runs its call once (in this process;
    with several replicas, each remembers its own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        # Every nonce lives the same time, so the order of taking is the
        # order of expiry: the expired ones leave from the front, O(1)
        # amortized per take (no scan), memory bounded by ten minutes'.
        self._order: deque[tuple[float, str]] = deque()
        self._used: set[str] = set()

    def __len__(self) -> int:
        return len(self._used)

    def take(self, nonce: str) -> bool:
        """Whether ``nonce`` was not used yet (it is now)."""
        now = self._clock()
        while self._order and self._order[0][0] <= now:
            self._used.discard(self._order.popleft()[1])
        if nonce in self._used:
            return False
        self._used.add(nonce)
        self._order.append((now + _STATE_SECONDS + 60.0, nonce))
        return True


def _conversation_digest(conversation: str) -> str:
    digest = hashlib.sha256(conversation.encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")[:22]


def _new_state(conversation: str) -> str:
    return f"{_STATE}:{_conversation_digest(conversation)}:{secrets.token_urlsafe(16)}"


def _state_fits(state: str | None, conversation: str, used: UsedStates) -> bool:
    """Whether ``state`` (let through by the boundary: ours, unaltered, for
    this tool, these arguments and this subject, unexpired) was made in
    ``conversation`` and is used for the first time."""
    prefix, _, rest = (state or "").partition(":")
    digest, _, nonce = rest.partition(":")
    if prefix != _STATE or digest != _conversation_digest(conversation) or not nonce:
        return False
    return used.take(nonce)


_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"approve": {"type": "boolean", "title": "Approve"}},
    "required": ["approve"],
}

_NOT_ASKED: Final = "no approval hook, and the client does not support elicitation"

Approved = bool | mcp_types.InputRequiredResult
"""The answer of :func:`approval_answer`: run (True), refused (False, the
denied text), or ask the client first (the result to return)."""


def approval_message(tool: str, arguments: Mapping[str, Any]) -> str:
    """The question of the approval form."""
    args = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    return f"Allow the call of {json.dumps(tool)}? Arguments: {args}"


def _asks_forms(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether the client takes form elicitations on this request (an empty
    ``elicitation`` capability means form)."""
    caps = ctx.session.client_capabilities
    elicitation = caps.elicitation if caps is not None else None
    if elicitation is None:
        return False
    return elicitation.form is not None or elicitation.url is None


def _accepted(result: Any) -> bool:
    return (
        isinstance(result, mcp_types.ElicitResult)
        and result.action == "accept"
        and (result.content or {}).get("approve") is True
    )


async def approval_answer(
    ctx: ServerRequestContext[Any, Any],
    params: mcp_types.CallToolRequestParams,
    approve: Approve | None,
    request: ApprovalRequest,
    conversation: str,
    used: UsedStates,
) -> Approved | str:
    """Whether the call of ``request`` runs: the hook's answer; else the
    client's through elicitation; else the text of a refusal for want of
    anyone to ask. ``conversation`` (the handle passed back, ``""`` when
    none) is bound into a 2026-07-28 state, whose nonce ``used`` takes."""
    if approve is not None:
        return await ask_approval(approve, request)
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        if params.request_state is not None or params.input_responses is not None:
            answer = (params.input_responses or {}).get(APPROVAL_KEY)
            return _accepted(answer) and _state_fits(params.request_state, conversation, used)
        if not _asks_forms(ctx):
            return no_approval_text(request.tool, _NOT_ASKED)
        form = mcp_types.ElicitRequest(
            params=mcp_types.ElicitRequestFormParams(
                message=approval_message(request.tool, request.arguments),
                requested_schema=_SCHEMA,
            )
        )
        asked: mcp_types.InputRequests = {APPROVAL_KEY: form}
        state = _new_state(conversation)
        return mcp_types.InputRequiredResult(input_requests=asked, request_state=state)
    if not _asks_forms(ctx) or not ctx.session.can_send_request:
        return no_approval_text(request.tool, _NOT_ASKED)
    try:
        result = await ctx.session.elicit_form(
            approval_message(request.tool, request.arguments), _SCHEMA, ctx.request_id
        )
    except MCPError:  # the client answered with an error: no approval
        return False
    return _accepted(result)


def request_state_boundary(secret: str | bytes | None, audience: str) -> RequestStateBoundary:
    """The SDK's middleware sealing ``requestState`` under ``secret`` (32
    bytes or more; None: a key of this process only), bound to the subject."""
    key = os.urandom(32) if secret is None else secret
    if isinstance(key, str):
        key = key.encode("utf-8")
    if len(key) < 32:
        raise ValueError(f"approval_secret must be at least 32 bytes (got {len(key)})")
    security = RequestStateSecurity(keys=[key], ttl=600.0, bind_principal=_subject)
    return RequestStateBoundary(security, default_audience=audience)


def _subject(ctx: ServerRequestContext[Any, Any]) -> str | None:
    identity = identity_of(ctx)
    return None if identity is None else identity.subject


def state_refusal(
    refused: Callable[[ServerRequestContext[Any, Any], str], object],
) -> ServerMiddleware[Any]:
    """Server middleware (outside the boundary): a ``tools/call`` whose
    ``requestState`` the boundary refused (forged, altered, expired, another
    subject's) is the denied result of its tool, not a JSON-RPC error;
    ``refused`` is told (context, tool name)."""

    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        try:
            return await call_next(ctx)
        except MCPError as err:
            data = err.error.data
            reason = data.get("reason") if isinstance(data, dict) else None
            if ctx.method != "tools/call" or reason != "invalid_request_state":
                raise
            name = str((ctx.params or {}).get("name", ""))
            refused(ctx, name)
            return error_result(denied_text(name))

    return middleware
