"""One executor per conversation, dropped after an idle time."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["SessionRegistry"]

E = TypeVar("E")


class SessionRegistry(Generic[E]):
    """Holds one executor (or anything ``factory`` makes) per conversation id.

    A conversation not used for ``idle_ttl_seconds`` is dropped, with its
    aliases: the next :meth:`get` for it makes a fresh one. No timer runs:
    idle conversations are dropped whenever the registry is used, oldest
    first, in time proportional to the number dropped. The same operations
    as the TypeScript ``SessionRegistry``: ``get``, ``remove``, ``sweep``,
    ``in`` (``has``) and ``len`` (``size``). Thread-safe, and safe under
    asyncio (no call awaits). ``clock`` is the clock, in seconds
    (``time.monotonic`` by default; tests pass their own)."""

    def __init__(
        self,
        factory: Callable[[], E],
        idle_ttl_seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not idle_ttl_seconds > 0:
            raise ValueError(f"idle_ttl_seconds must be positive, got {idle_ttl_seconds!r}")
        self._factory = factory
        self._ttl = float(idle_ttl_seconds)
        self._clock = clock
        self._lock = threading.Lock()
        # Insertion order is least recently used first: get() re-inserts.
        self._entries: dict[str, tuple[E, float]] = {}

    def get(self, conversation_id: str) -> E:
        """The executor of ``conversation_id``, made on first use and kept
        while it is used at least once per ``idle_ttl_seconds``. ``""`` gets a
        throwaway executor, never kept."""
        if conversation_id == "":
            return self._factory()
        with self._lock:
            now = self._clock()
            self._sweep(now)
            entry = self._entries.pop(conversation_id, None)
            value = entry[0] if entry is not None else self._factory()
            self._entries[conversation_id] = (value, now)
            return value

    def remove(self, conversation_id: str) -> bool:
        """Forget a conversation now; whether it was there."""
        with self._lock:
            return self._entries.pop(conversation_id, None) is not None

    def sweep(self) -> int:
        """Drop the idle conversations now; how many were dropped."""
        with self._lock:
            return self._sweep(self._clock())

    def __contains__(self, conversation_id: object) -> bool:
        """Whether the conversation is held (idle ones are dropped first)."""
        with self._lock:
            self._sweep(self._clock())
            return conversation_id in self._entries

    def __len__(self) -> int:
        """The number of conversations held (idle ones are dropped first)."""
        with self._lock:
            self._sweep(self._clock())
            return len(self._entries)

    def _sweep(self, now: float) -> int:
        expired: list[str] = []
        for key, (_, used) in self._entries.items():
            if now - used < self._ttl:
                break
            expired.append(key)
        for key in expired:
            del self._entries[key]
        return len(expired)
