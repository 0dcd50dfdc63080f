"""Limits on tool calls (docs/production.md, "Limits"): a rate per subject
(a token bucket, in this process) and a number of calls at once per
conversation."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Final

__all__ = ["ConcurrencyLimit", "RateLimit", "concurrency_text", "rate_text"]

_MAX_BUCKETS: Final = 10_000


def rate_text(calls_per_minute: int, retry_seconds: int) -> str:
    """The model-facing text of a call over the rate limit."""
    return (
        f"too many calls: the limit is {calls_per_minute} per minute for this user; "
        f"retry in {retry_seconds} s"
    )


def concurrency_text(limit: int, in_conversation: bool = True) -> str:
    """The model-facing text of a call over the concurrency limit; a call of
    no conversation (counted with its subject's) is not told of one."""
    where = " in this conversation" if in_conversation else ""
    return f"too many calls at once{where} (limit {limit}); retry when one finishes"


def _positive(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number of 1 or more, got {value!r}")
    return value


class RateLimit:
    """``calls_per_minute`` calls per subject: a bucket of that many tokens,
    refilled evenly over a minute. ``clock`` is in seconds (monotonic)."""

    def __init__(self, calls_per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.calls_per_minute = _positive("rate_limit", calls_per_minute)
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, subject: str) -> int | None:
        """Take a token for ``subject``: None when there was one, else the
        whole seconds until there is."""
        now = self._clock()
        per_second = self.calls_per_minute / 60.0
        tokens, at = self._buckets.pop(subject, (float(self.calls_per_minute), now))
        tokens = min(float(self.calls_per_minute), tokens + (now - at) * per_second)
        if len(self._buckets) >= _MAX_BUCKETS:
            self._drop_full(now, per_second)
        if tokens >= 1.0:
            self._buckets[subject] = (tokens - 1.0, now)
            return None
        self._buckets[subject] = (tokens, now)
        return max(1, math.ceil((1.0 - tokens) / per_second))

    def _drop_full(self, now: float, per_second: float) -> None:
        """Forget the subjects whose bucket is full again (as good as new)."""
        full = float(self.calls_per_minute)
        for subject, (tokens, at) in list(self._buckets.items()):
            if tokens + (now - at) * per_second >= full:
                del self._buckets[subject]


class ConcurrencyLimit:
    """At most ``limit`` calls at once per conversation key."""

    def __init__(self, limit: int) -> None:
        self.limit = _positive("max_concurrent_calls", limit)
        self._running: dict[Hashable, int] = {}

    @contextmanager
    def enter(self, key: Hashable | None) -> Iterator[bool]:
        """Count a call of ``key`` while the block runs; yields False (and
        counts nothing) when ``limit`` calls of it are running already.
        ``None`` (a call that starts its conversation) is never limited."""
        if key is None:
            yield True
            return
        running = self._running.get(key, 0)
        if running >= self.limit:
            yield False
            return
        self._running[key] = running + 1
        try:
            yield True
        finally:
            left = self._running[key] - 1
            if left:
                self._running[key] = left
            else:
                del self._running[key]
