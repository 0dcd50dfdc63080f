"""The policy of every tool call served over MCP (docs/production.md): the
rate limit, the required scopes, the concurrency limit, the approval, the
identity forwarded to the backend and the audit record. The tool server
runs the call; this decides whether and with what it may be sent."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import mcp_types
from mcp.server import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from .._aliases import AliasManager
from .._approval import ApprovalRequest, Approve, denied_text
from .._tool_error import ToolError
from ._approval_flow import UsedStates, approval_answer
from ._audit import Audit, AuditOutcome, AuditRecord, audit_time
from ._call_limits import ConcurrencyLimit, RateLimit, concurrency_text, rate_text
from ._call_result import error_result
from ._conversation_key import conversation_key
from ._forward_identity import ForwardIdentity, forwarded_metadata
from ._identity import Identity, identity_of
from ._scope_token import check_scope_tokens

__all__ = ["CallPolicy", "Caller", "Ending", "PolicyAnswer", "approved", "error_outcome"]

logger = logging.getLogger("ai_tools_runtime.mcp")

_SESSION_HEADER: Final = "mcp-session-id"
_BEFORE_SENDING: Final = frozenset({"invalid-arguments", "unknown-alias", "failed-validation"})

Metadata = list[tuple[str, str | bytes]]


@dataclass(frozen=True)
class Caller:
    """Who makes a ``tools/call``, and the request."""

    ctx: ServerRequestContext[Any, Any]
    params: mcp_types.CallToolRequestParams
    identity: Identity | None
    """None: no authorization."""
    handle: str | None = None
    """The conversation handle the request passes back (2026-07-28)."""

    @property
    def subject(self) -> str:
        return self.identity.subject if self.identity is not None else ""


@dataclass
class Ending:
    """How a call ended, for its audit record."""

    outcome: AuditOutcome = "ok"
    code: str | None = None
    aliases: AliasManager | None = None
    """The aliases of the call's conversation once loaded (for the text of
    an error)."""


class PolicyAnswer(Exception):
    """The answer of a call decided before it was sent: refused for want of
    an approval (``denied``), or asking the client for one."""

    def __init__(
        self,
        result: mcp_types.CallToolResult | mcp_types.InputRequiredResult,
        outcome: AuditOutcome,
        code: str | None = None,
    ) -> None:
        super().__init__(outcome)
        self.result = result
        self.outcome = outcome
        self.code = code


def error_outcome(err: Exception) -> tuple[AuditOutcome, str | None]:
    """The audit outcome and code of a call that raised ``err``."""
    if isinstance(err, ToolError):
        if err.reason in _BEFORE_SENDING:
            return "invalid_arguments", None
        if err.reason == "not-approved":
            return "denied", None
        return "tool_error", err.code.name
    return "tool_error", "INTERNAL"


def _scope_option(given: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """The ``required_scopes`` option, checked: scope tokens of RFC 6749."""
    out: dict[str, tuple[str, ...]] = {}
    for tool, scopes in given.items():
        if isinstance(scopes, str) or not all(isinstance(x, str) for x in scopes):
            raise ValueError(
                f"required_scopes[{json.dumps(tool)}] must be a list of scope names, got {scopes!r}"
            )
        check_scope_tokens("required_scopes", scopes, tool)
        out[tool] = tuple(scopes)
    return out


class CallPolicy:
    """The options of :class:`McpToolServer` that decide about a call."""

    def __init__(
        self,
        *,
        approve: Approve | None,
        required_scopes: Mapping[str, Sequence[str]] | None,
        forward_identity: ForwardIdentity | None,
        rate_limit: int | None,
        max_concurrent_calls: int,
        audit: Audit | None,
    ) -> None:
        self._approve = approve
        self._required = _scope_option(required_scopes or {})
        self._forward = forward_identity
        self._rate = RateLimit(rate_limit) if rate_limit is not None else None
        self.concurrency = ConcurrencyLimit(max_concurrent_calls)
        self._audit = audit
        self._used_states = UsedStates()

    def required_scopes(self, tool: str, annotated: Sequence[str]) -> tuple[str, ...]:
        """The scopes of ``tool``: ``annotated`` and the option's, sorted."""
        return tuple(sorted({*annotated, *self._required.get(tool, ())}))

    def admit(self, caller: Caller, scopes: Sequence[str]) -> None:
        """Refuse (:class:`PolicyAnswer`) a call over the rate limit (checked
        first: every ``tools/call`` counts) or lacking one of ``scopes``."""
        if self._rate is not None:
            wait = self._rate.take(caller.subject)
            if wait is not None:
                raise PolicyAnswer(
                    error_result(rate_text(self._rate.calls_per_minute, wait)), "limited"
                )
        if caller.identity is None:
            return
        have = set(caller.identity.scopes)
        missing = " ".join(s for s in scopes if s not in have)
        if missing:
            # The HTTP gate refuses these with 403 before the SDK sees them;
            # this is for an app that mounts the tools behind its own.
            text = f"the call of {json.dumps(caller.params.name)} needs scope {json.dumps(missing)}"
            raise PolicyAnswer(error_result(text), "unauthorized")

    def limit_key(self, caller: Caller, connection: object) -> tuple[str, Hashable]:
        """What a call counts against for ``max_concurrent_calls``: the
        connection (stdio, in memory), the session (2025-11-25), the handle
        passed back, else the caller's subject (a call without a
        conversation). A session counts per session for a tool set without
        aliases too."""
        ctx = caller.ctx
        headers = getattr(ctx.request, "headers", None)
        if headers is None:
            return ("connection", id(connection))
        session = headers.get(_SESSION_HEADER)
        if session is not None and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return ("session", session)
        if caller.handle is not None:
            return ("handle", conversation_key(caller.handle, caller.subject))
        return ("subject", caller.subject)

    @contextmanager
    def limited(self, caller: Caller) -> Iterator[None]:
        """Count the call against ``max_concurrent_calls`` while the block
        runs (:meth:`limit_key`); refuse it (:class:`PolicyAnswer`) when
        that many are running already."""
        connection = caller.ctx.lifespan_context.connection
        key = self.limit_key(caller, connection)
        with self.concurrency.enter(key) as ok:
            if not ok:
                text = concurrency_text(self.concurrency.limit, key[0] != "subject")
                raise PolicyAnswer(error_result(text), "limited")
            yield

    def record(
        self, caller: Caller, method: str, ending: Ending, began: datetime, clock: float
    ) -> None:
        """Hand the call's audit record to the hook (its failure is logged)."""
        if self._audit is None:
            return
        record = AuditRecord(
            time=audit_time(began),
            subject=caller.subject,
            tool=caller.params.name,
            method=method,
            outcome=ending.outcome,
            duration_ms=round((time.monotonic() - clock) * 1000.0, 3),
            code=ending.code,
        )
        try:
            self._audit(record)
        except Exception:
            logger.exception("the audit hook failed")

    def state_refused(self, ctx: ServerRequestContext[Any, Any], name: str, method: str) -> None:
        """A call whose approval state the SDK's boundary refused: it
        counts against the rate limit and is audited ``denied``."""
        caller = Caller(ctx, mcp_types.CallToolRequestParams(name=name), identity_of(ctx))
        if self._rate is not None:
            self._rate.take(caller.subject)
        self.record(caller, method, Ending("denied"), datetime.now(UTC), time.monotonic())

    async def approve(self, caller: Caller, method: str, args: dict[str, Any]) -> None:
        """Ask for the approval of a call of a tool that needs one: raises
        :class:`PolicyAnswer` when it is not given, or to ask the client."""
        name = caller.params.name
        request = ApprovalRequest(caller.subject, name, method, args)
        conversation = caller.handle or ""
        answer = await approval_answer(
            caller.ctx, caller.params, self._approve, request, conversation, self._used_states
        )
        if isinstance(answer, mcp_types.InputRequiredResult):
            raise PolicyAnswer(answer, "ok")
        if isinstance(answer, str):
            raise PolicyAnswer(error_result(answer), "denied")
        if not answer:
            raise PolicyAnswer(error_result(denied_text(name)), "denied")

    @property
    def forwards(self) -> bool:
        return self._forward is not None

    async def forwarded(self, caller: Caller) -> Metadata:
        """The metadata of the caller's identity (``forward_identity``)."""
        if self._forward is None:
            return []
        try:
            return list(await forwarded_metadata(self._forward, caller.identity))
        except Exception as err:
            logger.exception("the backend credentials of %s failed", caller.params.name)
            text = (
                f"the backend credentials of the call of {json.dumps(caller.params.name)} "
                "could not be obtained; nothing was sent"
            )
            raise PolicyAnswer(error_result(text), "tool_error", "UNAVAILABLE") from err


def approved(_request: ApprovalRequest) -> bool:
    """The executors' hook under MCP: the policy asked already."""
    return True
