"""The conversation of each tool call served over MCP (docs/mcp.md,
"Conversations"): the connection's (stdio, in memory), the 2025-11-25
session's, or the one whose handle a 2026-07-28 request passes back, bound
to the caller's subject (docs/production.md)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Final

import anyio
from mcp.server import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from .._conversation_executor import StoredConversation
from .._conversation_store import ConversationStore
from .._tables import AliasConfig
from .._tool_error import ToolError
from ._conversation_handle import is_minted_handle, unknown_conversation_message
from ._conversation_key import subject_suffix

__all__ = ["MAX_SESSIONS", "CallConversations", "ConversationScope", "session_lost"]

MAX_SESSIONS: Final = 10_000
_SESSION_HEADER: Final = "mcp-session-id"
_LOST: Final = "this conversation expired or was lost: start a new conversation"


def session_lost(err: ToolError) -> ToolError:
    """The ``conversation-expired`` error ``err`` of a connection's or
    session's conversation as the model gets it: it never saw the
    conversation's handle, which the text does not name."""
    lost = ToolError(_LOST, reason=err.reason, code=err.code)
    lost.__cause__ = err.__cause__
    return lost


@dataclass
class ConversationScope:
    """The conversation of a connection or an HTTP session (no handle shown)."""

    handle: str | None = None
    lock: anyio.Lock = field(default_factory=anyio.Lock)


Found = tuple[StoredConversation, str | None] | str
"""A call's conversation and the handle to show (or None); or the message
of an unknown handle."""


class CallConversations:
    """Finds the conversation of each call; remembers the sessions'."""

    def __init__(self) -> None:
        self._sessions: OrderedDict[str, ConversationScope] = OrderedDict()
        self._dropped: OrderedDict[str, str] = OrderedDict()
        """The conversation handles of sessions dropped from ``_sessions``
        (oldest first, as many at most; a session idle that long is past the
        SDK's idle timeout, which ends it, unless over 20,000 sessions are
        live at once)."""

    async def find(
        self,
        ctx: ServerRequestContext[Any, Any],
        connection: ConversationScope,
        given: str | None,
        subject: str,
        store: ConversationStore,
        config: AliasConfig | None,
    ) -> Found:
        """The call's conversation, loaded. ``given`` is the handle the
        request passes back, which only stateless HTTP (2026-07-28) looks
        at: it is stored under :func:`conversation_key` of the caller's
        ``subject``, so another subject's handle is unknown."""
        headers = getattr(ctx.request, "headers", None)
        if headers is None:
            # stdio or in memory: the connection is the conversation.
            return await _scoped(connection, store, config), None
        session = headers.get(_SESSION_HEADER)
        if session is not None and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return await _scoped(self._session_scope(session), store, config), None
        suffix = subject_suffix(subject)
        if given is not None and not is_minted_handle(given):
            # Not a handle a store minted (it could name another subject's key).
            return unknown_conversation_message(given)
        if given is None:
            conversation = await StoredConversation.create(store, config, suffix)
            return conversation, conversation.handle[: len(conversation.handle) - len(suffix)]
        try:
            conversation = await StoredConversation.load(store, given + suffix, config)
        except ToolError as err:
            if err.reason == "conversation-expired":
                return unknown_conversation_message(given)
            raise
        return conversation, given

    def forget(
        self, ctx: ServerRequestContext[Any, Any], connection: ConversationScope, handle: str
    ) -> None:
        """Forget the conversation ``handle`` of the call's connection or
        2025-11-25 session, which the store lost while the call ran: its
        next call starts a new conversation, as after an expired load."""
        headers = getattr(ctx.request, "headers", None)
        scope: ConversationScope | None = connection
        if headers is not None:
            session = headers.get(_SESSION_HEADER)
            scope = self._sessions.get(session) if session is not None else None
        if scope is not None and scope.handle == handle:
            scope.handle = None

    def _session_scope(self, session: str) -> ConversationScope:
        scope = self._sessions.pop(session, None)
        if scope is None:
            # A session dropped from the bounded list that comes back gets
            # its conversation again (or conversation-expired if the store
            # lost it), not a silent new numbering.
            scope = ConversationScope(self._dropped.pop(session, None))
        self._sessions[session] = scope
        while len(self._sessions) > MAX_SESSIONS:
            dropped, old = self._sessions.popitem(last=False)
            if old.handle is not None:
                self._dropped[dropped] = old.handle
        while len(self._dropped) > MAX_SESSIONS:
            self._dropped.popitem(last=False)
        return scope


async def _scoped(
    scope: ConversationScope, store: ConversationStore, config: AliasConfig | None
) -> StoredConversation:
    """The conversation of a connection or session, made on its first
    call. One that expired (idle, or lost by the store) fails the call once
    with ``conversation-expired``: the model still holds its aliases, which
    a new conversation would number anew (docs/store.md); the next call
    starts a new conversation."""
    async with scope.lock:
        if scope.handle is not None:
            try:
                return await StoredConversation.load(store, scope.handle, config)
            except ToolError as err:
                if err.reason == "conversation-expired":
                    scope.handle = None
                    raise session_lost(err) from err.__cause__
                raise
        conversation = await StoredConversation.create(store, config)
        scope.handle = conversation.handle
        return conversation
