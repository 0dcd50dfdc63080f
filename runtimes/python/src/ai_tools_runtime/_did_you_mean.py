"""The suggestion of an unknown-field message (docs/runtime.md, "Unknown
fields"): the valid name a mistyped key most likely meant."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ._json import quote

__all__ = ["did_you_mean", "osa_distance", "valid_fields", "valid_fields_note"]

_LISTED: Final = 20


def _ascii_lower(s: str) -> str:
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def _norm(s: str) -> str:
    return _ascii_lower(s).replace("_", "").replace("-", "")


def did_you_mean(key: str, candidates: Sequence[str]) -> str | None:
    """The candidate ``key`` most likely meant, or None: the first whose
    name equals the key ignoring ASCII case, ``_`` and ``-``; else the
    nearest by optimal string alignment distance (code points, ASCII case
    ignored; an adjacent swap is one edit) when that
    distance is at most max(1, len(key) // 3), the first on a tie."""
    norm = _norm(key)
    for c in candidates:
        if _norm(c) == norm:
            return c
    lowered = _ascii_lower(key)
    limit = max(1, len(key) // 3)
    best: str | None = None
    best_distance = limit + 1
    for c in candidates:
        d = osa_distance(lowered, _ascii_lower(c), best_distance)
        if d < best_distance:
            best, best_distance = c, d
    return best


def valid_fields(names: Sequence[str]) -> str:
    """``valid fields: id, title`` (the first 20, then ``, and <N> more``),
    or ``no fields are valid here``."""
    if not names:
        return "no fields are valid here"
    listed = ", ".join(names[:_LISTED])
    more = len(names) - _LISTED
    return f"valid fields: {listed}" + (f", and {more} more" if more > 0 else "")


def valid_fields_note(key: str, names: Sequence[str], valid: str) -> str:
    """The end of a message about the unknown name ``key`` among ``names``:
    ``did you mean "title"? <valid>``, or ``valid`` alone when nothing is
    close (``valid`` is :func:`valid_fields` of ``names``)."""
    if not names:
        return valid
    guess = did_you_mean(key, names)
    return valid if guess is None else f"did you mean {quote(guess)}? {valid}"


def osa_distance(a: str, b: str, cap: int | None = None) -> int:
    """The optimal string alignment distance of ``a`` and ``b`` over code
    points: insertions, deletions, substitutions and swaps of two adjacent
    characters cost 1 each (``titel`` → ``title`` is 1). With ``cap``, any
    distance of at least ``cap`` may be returned as ``cap``."""
    if cap is not None and abs(len(a) - len(b)) >= cap:
        return cap
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                d = min(d, before[j - 2] + 1)
            current.append(d)
        if cap is not None and min(current) >= cap and min(previous) >= cap:
            return cap
        before, previous = previous, current
    return previous[-1]
