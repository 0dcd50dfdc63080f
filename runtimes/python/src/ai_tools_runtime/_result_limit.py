"""Bounded results (docs/runtime.md, "Result size"): a result whose text,
as the model would read it, is over the limit is refused, and a stream
stops being read as soon as its text so far is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["DEFAULT_MAX_RESULT_BYTES", "StreamBudget", "result_too_large", "text_bytes"]

DEFAULT_MAX_RESULT_BYTES: Final = 100_000
"""The default limit of a result's text: about the 25,000 tokens common MCP
clients accept."""

_ASK: Final = "ask for less (a smaller page size or a filter)"


def text_bytes(text: str, limit: int) -> int:
    """The UTF-8 length of ``text`` (exact when it may be over ``limit``)."""
    if len(text) * 4 <= limit:  # at most 4 bytes a code point
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def result_too_large(size: int | None, limit: int) -> str:
    """The message of a result over ``limit`` bytes (``size`` None: a
    stream stopped early)."""
    if size is None:
        return f"result too large: more than {limit} bytes; {_ASK}"
    return f"result too large: {size} bytes, over the limit of {limit}; {_ASK}"


class StreamBudget:
    """The text of a stream's messages so far, as the model would read it,
    against the limit. Raw bytes are counted as messages arrive; only once
    they pass the limit are the messages measured aliasified (ids that are
    aliases by then), which a UUID-heavy stream needs."""

    def __init__(self, limit: int, aliasify: Callable[[str], str]) -> None:
        self._limit = limit
        self._aliasify = aliasify
        self._raw = 1  # "[" … "]" less one comma
        self._shown = 1
        self._measured = 0

    def over(self, items: list[str]) -> bool:
        """Whether ``items`` (the stream's messages so far, the last just
        added) are over the limit."""
        if self._limit == 0:
            return False
        self._raw += text_bytes(items[-1], self._limit) + 1
        if self._raw <= self._limit:
            return False
        for item in items[self._measured :]:
            self._shown += text_bytes(self._aliasify(item), self._limit) + 1
        self._measured = len(items)
        return self._shown > self._limit
