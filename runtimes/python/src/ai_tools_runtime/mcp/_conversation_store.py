"""Conversations: one alias table each, kept in a store (docs/mcp.md,
"Conversations")."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final, Protocol, runtime_checkable

from .._aliases import AliasManager
from .._tables import AliasConfig
from ._conversation_handle import mint_conversation_handle

__all__ = [
    "DEFAULT_IDLE_TTL_SECONDS",
    "ConversationStore",
    "MemoryConversationStore",
]

DEFAULT_IDLE_TTL_SECONDS: Final = 30 * 60.0
"""How long an in-memory conversation lives unused: 30 minutes."""


@runtime_checkable
class ConversationStore(Protocol):
    """Where conversations live, by handle. Asynchronous and fallible, so
    that a shared store (Redis) fits it as well as memory does: a method may
    raise, and the call that needed it becomes an ``isError`` result."""

    async def create(self) -> str:
        """Start a conversation with no aliases; its new handle (see
        :func:`mint_conversation_handle`)."""
        ...

    async def load(self, handle: str) -> AliasManager | None:
        """The conversation's aliases, or ``None`` when the handle is unknown
        or expired."""
        ...

    async def save(self, handle: str, aliases: AliasManager) -> None:
        """Keep the conversation's aliases after a call changed them."""
        ...

    async def delete(self, handle: str) -> None:
        """Forget a conversation (unknown handles are ignored)."""
        ...


class MemoryConversationStore:
    """The default :class:`ConversationStore`: conversations in this
    process, each dropped once unused for ``idle_ttl_seconds`` (every load
    and save renews it). No timer runs: idle ones are dropped, oldest first,
    whenever the store is used. ``config`` is what each new alias manager
    is made with (``MCP_ALIAS_CONFIG`` of ``ai_tools_mcp_gen.py``, which
    registers the responses of every tool); ``clock`` is in
    seconds (``time.monotonic`` unless a test passes its own)."""

    def __init__(
        self,
        config: AliasConfig | None = None,
        *,
        idle_ttl_seconds: float = DEFAULT_IDLE_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not idle_ttl_seconds > 0:
            raise ValueError(f"idle_ttl_seconds must be positive, got {idle_ttl_seconds!r}")
        self._config = config
        self._ttl = float(idle_ttl_seconds)
        self._clock = clock
        # Least recently used first: every use re-inserts.
        self._entries: dict[str, tuple[AliasManager, float]] = {}

    async def create(self) -> str:
        now = self._clock()
        self._sweep(now)
        handle = mint_conversation_handle()
        self._entries[handle] = (AliasManager(self._config), now)
        return handle

    async def load(self, handle: str) -> AliasManager | None:
        now = self._clock()
        self._sweep(now)
        entry = self._entries.pop(handle, None)
        if entry is None:
            return None
        self._entries[handle] = (entry[0], now)
        return entry[0]

    async def save(self, handle: str, aliases: AliasManager) -> None:
        now = self._clock()
        self._sweep(now)
        self._entries.pop(handle, None)
        self._entries[handle] = (aliases, now)

    async def delete(self, handle: str) -> None:
        self._entries.pop(handle, None)

    def __len__(self) -> int:
        """How many conversations are held (idle ones are dropped first)."""
        self._sweep(self._clock())
        return len(self._entries)

    def _sweep(self, now: float) -> None:
        expired: list[str] = []
        for handle, (_, used) in self._entries.items():
            if now - used < self._ttl:
                break
            expired.append(handle)
        for handle in expired:
            del self._entries[handle]
