"""One executor per conversation, dropped after an idle time."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["SessionRegistry"]

E = TypeVar("E")


class SessionRegistry(Generic[E]):
    """Holds one executor (or anything ``create`` makes) per conversation id.

    A conversation not used for ``idle_ttl_seconds`` is dropped, with its
    aliases: the next :meth:`get` for it makes a fresh one. No timer runs:
    expired conversations are dropped whenever the registry is used, oldest
    first, in time proportional to the number dropped. Thread-safe, and safe
    under asyncio (no call awaits). ``now`` is the clock, in seconds
    (``time.monotonic`` by default; tests pass their own)."""

    def __init__(
        self,
        create: Callable[[], E],
        idle_ttl_seconds: float,
        *,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        if not idle_ttl_seconds > 0:
            raise ValueError(f"idle_ttl_seconds must be positive, got {idle_ttl_seconds!r}")
        self._create = create
        self._ttl = float(idle_ttl_seconds)
        self._now = now
        self._lock = threading.Lock()
        # Insertion order is least recently used first: get() re-inserts.
        self._sessions: dict[str, tuple[E, float]] = {}

    def get(self, conversation_id: str) -> E:
        """The executor of ``conversation_id``, created on first use and kept
        while it is used at least once per ``idle_ttl_seconds``. ``""`` gets a
        throwaway executor, never stored."""
        if conversation_id == "":
            return self._create()
        with self._lock:
            t = self._now()
            self._evict(t)
            entry = self._sessions.pop(conversation_id, None)
            value = entry[0] if entry is not None else self._create()
            self._sessions[conversation_id] = (value, t)
            return value

    def delete(self, conversation_id: str) -> bool:
        """Forget a conversation now; whether it was there."""
        with self._lock:
            return self._sessions.pop(conversation_id, None) is not None

    def clear(self) -> None:
        """Forget every conversation."""
        with self._lock:
            self._sessions.clear()

    def __len__(self) -> int:
        """The number of conversations held (expired ones are dropped first)."""
        with self._lock:
            self._evict(self._now())
            return len(self._sessions)

    def _evict(self, t: float) -> None:
        expired: list[str] = []
        for key, (_, used) in self._sessions.items():
            if t - used < self._ttl:
                break
            expired.append(key)
        for key in expired:
            del self._sessions[key]
