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
    aliases: the next :meth:`get` for it makes a fresh one. Expired entries
    are swept on every call. Thread-safe, and safe under asyncio (no call
    awaits). ``clock`` is for tests (default ``time.monotonic``)."""

    def __init__(
        self,
        factory: Callable[[], E],
        idle_ttl_seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not idle_ttl_seconds > 0:
            raise ValueError("idle_ttl_seconds must be positive")
        self._factory = factory
        self._ttl = float(idle_ttl_seconds)
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[E, float]] = {}

    def get(self, conversation_id: str) -> E:
        """The executor of ``conversation_id``, made on first use; ``""`` gets
        a throwaway executor that is not kept."""
        if conversation_id == "":
            return self._factory()
        with self._lock:
            now = self._clock()
            self._sweep(now)
            entry = self._entries.get(conversation_id)
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

    def __len__(self) -> int:
        with self._lock:
            self._sweep(self._clock())
            return len(self._entries)

    def __contains__(self, conversation_id: object) -> bool:
        with self._lock:
            self._sweep(self._clock())
            return conversation_id in self._entries

    def _sweep(self, now: float) -> int:
        expired = [k for k, (_, used) in self._entries.items() if now - used >= self._ttl]
        for key in expired:
            del self._entries[key]
        return len(expired)
