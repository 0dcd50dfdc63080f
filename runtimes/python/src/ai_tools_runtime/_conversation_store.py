"""Conversation stores (docs/store.md): the interface every store
implements, and the default one, in memory."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Protocol, runtime_checkable

from ._json import quote
from ._store_layout import (
    check_tool_names,
    load_tool_fields,
    loaded_from_fields,
    register_fields,
    state_from_fields,
)

__all__ = [
    "DEFAULT_IDLE_TTL_SECONDS",
    "DEFAULT_MAX_ALIASES",
    "ConversationCorruptError",
    "ConversationExpiredError",
    "ConversationStore",
    "MemoryConversationStore",
    "checked_max_aliases",
    "expired_message",
    "mint_conversation_handle",
    "mint_epoch",
]

DEFAULT_IDLE_TTL_SECONDS: Final = 30 * 60.0
"""How long a conversation lives unused unless set: 30 minutes."""

DEFAULT_MAX_ALIASES: Final = 1000
"""How many aliases a conversation holds before its calls are refused
(``conversation-full``) unless set, and the limit of a store without a
``max_aliases`` attribute (docs/store.md, "Alias cap")."""


def checked_max_aliases(value: int) -> int:
    """``value`` if it is a positive integer, else :class:`ValueError`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_aliases must be a positive integer, got {value!r}")
    return value


def mint_conversation_handle() -> str:
    """A new conversation handle: 128 random bits, base64url without padding
    (22 characters)."""
    return secrets.token_urlsafe(16)


def mint_epoch() -> str:
    """A new epoch, the marker of one life of a conversation: 32 lower-case
    hex digits."""
    return secrets.token_hex(16)


def expired_message(handle: str) -> str:
    """The message of an expired or unknown conversation (docs/store.md)."""
    return f"conversation {quote(handle)} expired or unknown: start a new conversation"


class ConversationExpiredError(LookupError):
    """What a store raises from ``load`` or ``register`` when it holds no
    conversation under the handle, or one with another epoch (expired,
    deleted, lost by a restart). The executor makes it a ``ToolError`` with
    reason ``conversation-expired``."""

    handle: str
    """The handle asked for."""

    def __init__(self, handle: str) -> None:
        super().__init__(expired_message(handle))
        self.handle = handle


class ConversationCorruptError(ValueError):
    """What a store may raise from ``load`` or ``register`` when what it
    holds under the handle is not a conversation it can read (a Redis key of
    another type). The executor makes it a ``ToolError`` with reason
    ``conversation-corrupt``, as it does a state ``restore_state``
    refuses."""

    handle: str
    """The handle asked for."""

    def __init__(self, handle: str, detail: str) -> None:
        super().__init__(detail)
        self.handle = handle


@runtime_checkable
class ConversationStore(Protocol):
    """Where conversations live, by handle (docs/store.md, "The
    interface"). The store never interprets a state: the runtime reads it
    with ``AliasManager.restore_state``. ``load`` and ``register`` raise
    :class:`ConversationExpiredError` for a conversation that is gone, and
    may raise :class:`ConversationCorruptError` for one they cannot read;
    any other exception means the store failed (``store-unavailable``).
    A store may have a ``max_aliases`` attribute: the calls of a
    conversation holding that many aliases are refused
    (``conversation-full``); :data:`DEFAULT_MAX_ALIASES` without it."""

    async def create(self, suffix: str = "") -> str:
        """Start an empty conversation under a new handle (see
        :func:`mint_conversation_handle`) followed by ``suffix`` (the MCP
        servers bind a handle to its caller this way; docs/production.md)
        and a new epoch; its handle, suffix included."""
        ...

    async def load(self, handle: str) -> tuple[str, str]:
        """The conversation's epoch and state (the form of
        ``AliasManager.export_state``); renews its idle TTL."""
        ...

    async def register(self, handle: str, epoch: str, pairs: Sequence[tuple[str, str]]) -> str:
        """Atomically give each ``(prefix, uuid)`` pair its alias, in order (a
        UUID already known keeps its alias), in the conversation of that
        epoch; the new state. Renews the idle TTL."""
        ...

    async def delete(self, handle: str) -> None:
        """End the conversation; an unknown handle is not an error."""
        ...


class MemoryConversationStore:
    """The default :class:`ConversationStore`: conversations in this
    process, as the fields of the Redis layout (docs/store.md), each dropped
    once unused for ``idle_ttl_seconds`` (``load`` and ``register`` renew
    it). No timer runs: idle ones are dropped, oldest first, whenever the
    store is used. ``clock`` is in seconds (``time.monotonic`` unless a
    test passes its own). A call in a conversation holding ``max_aliases``
    aliases is refused (``conversation-full``) before it is sent."""

    def __init__(
        self,
        *,
        idle_ttl_seconds: float = DEFAULT_IDLE_TTL_SECONDS,
        max_aliases: int = DEFAULT_MAX_ALIASES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not idle_ttl_seconds > 0:
            raise ValueError(f"idle_ttl_seconds must be positive, got {idle_ttl_seconds!r}")
        self._max_aliases = checked_max_aliases(max_aliases)
        self._ttl = float(idle_ttl_seconds)
        self._clock = clock
        # Least recently used first: every use re-inserts.
        self._entries: dict[str, tuple[dict[str, str], float]] = {}

    @property
    def max_aliases(self) -> int:
        """How many aliases a conversation holds before its calls are refused."""
        return self._max_aliases

    async def create(self, suffix: str = "") -> str:
        now = self._sweep()
        handle = mint_conversation_handle() + suffix
        while handle in self._entries:
            handle = mint_conversation_handle() + suffix
        self._entries[handle] = ({"v": "1", "epoch": mint_epoch()}, now)
        return handle

    async def load(self, handle: str) -> tuple[str, str]:
        fields = self._use(handle)
        return fields["epoch"], state_from_fields(fields)

    async def register(self, handle: str, epoch: str, pairs: Sequence[tuple[str, str]]) -> str:
        fields = self._use(handle)
        if fields.get("epoch") != epoch:
            raise ConversationExpiredError(handle)
        register_fields(fields, pairs)
        return state_from_fields(fields)

    async def delete(self, handle: str) -> None:
        self._entries.pop(handle, None)

    async def load_tools(self, handle: str, epoch: str, names: Sequence[str]) -> list[str]:
        """Append each name not yet loaded to the conversation's loaded
        tools, in order, and return the whole list in load order; renews the
        idle TTL. :class:`ConversationExpiredError` when the conversation is
        missing or of another epoch; :class:`ValueError` for an empty name
        (nothing loaded). docs/store.md, "Loaded tools"."""
        check_tool_names(names)
        fields = self._use(handle)
        if fields.get("epoch") != epoch:
            raise ConversationExpiredError(handle)
        load_tool_fields(fields, names)
        return _loaded(handle, fields)

    async def loaded_tools(self, handle: str) -> list[str]:
        """The conversation's loaded tools in load order; renews the idle
        TTL. :class:`ConversationExpiredError` when it is missing."""
        return _loaded(handle, self._use(handle))

    def __len__(self) -> int:
        """How many conversations are held (idle ones are dropped first)."""
        self._sweep()
        return len(self._entries)

    def _use(self, handle: str) -> dict[str, str]:
        now = self._sweep()
        entry = self._entries.pop(handle, None)
        if entry is None:
            raise ConversationExpiredError(handle)
        self._entries[handle] = (entry[0], now)
        return entry[0]

    def _sweep(self) -> float:
        now = self._clock()
        expired: list[str] = []
        for handle, (_, used) in self._entries.items():
            if now - used < self._ttl:
                break
            expired.append(handle)
        for handle in expired:
            del self._entries[handle]
        return now


def _loaded(handle: str, fields: Mapping[str, str]) -> list[str]:
    """The loaded tools of a conversation's fields; what cannot be read is
    :class:`ConversationCorruptError`."""
    try:
        return loaded_from_fields(fields)
    except ValueError as err:
        raise ConversationCorruptError(handle, str(err)) from err
