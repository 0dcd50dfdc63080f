"""Names: registered values that are not UUIDs (``responseAliasField``
``any_value``, ``google.longrunning.Operation.name``), shown as their aliases
where they stand as a whole token (docs/runtime.md, "Response registration").

The index is kept as Go's ``alias_names.go`` keeps it: registering a name is
a dict insertion, never a pattern rebuilt. A name stands at a place only when
no letter, digit, ``_``, ``.``, ``/`` or ``-`` (a token character) touches
it, so a name of token characters only is exactly one maximal run of them in
the text: the runs are cut in C (the UTF-8 text, every other byte turned
into a space, split) and looked up. A name holding any other character is
filed under its leading run (or, when it starts with another character,
that character) and searched for only when that key is in the text."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator, Mapping
from typing import Final

__all__ = ["NameIndex"]

_TOKEN_CHARS: Final = frozenset(string.ascii_letters + string.digits + "_./-")
_TOKEN_RUN: Final = re.compile(r"[A-Za-z0-9_./-]+")
# For bytes.translate: each byte that is not a token character becomes a space.
_SEPARATE: Final = bytes(c if chr(c) in _TOKEN_CHARS else 0x20 for c in range(256))


class NameIndex:
    """The names a manager registered, for its names pass (not thread-safe:
    the manager's lock guards it)."""

    def __init__(self) -> None:
        self._runs: dict[bytes, str] = {}
        """Names of token characters only, by their UTF-8 bytes."""
        self._by_run: dict[bytes, list[str]] = {}
        """Other names starting with a token character, by leading run."""
        self._by_char: dict[str, list[str]] = {}
        """Other names, by first character."""

    def __bool__(self) -> bool:
        return bool(self._runs or self._by_run or self._by_char)

    def add(self, name: str) -> None:
        """Index ``name`` (not empty, not a UUID, added once)."""
        lead = _TOKEN_RUN.match(name)
        if lead is None:
            self._by_char.setdefault(name[0], []).append(name)
        elif lead.end() < len(name):
            self._by_run.setdefault(lead.group().encode(), []).append(name)
        else:
            self._runs[name.encode()] = name

    def aliasify(self, text: str, aliases: Mapping[str, str]) -> str:
        """``text`` with each indexed name standing there as a whole token
        replaced by ``aliases[name]``, in one scan from left to right taking
        the longest name at each place."""
        runs = text.encode("utf-8", "surrogatepass").translate(_SEPARATE).split()
        found = [self._runs[r] for r in self._runs.keys() & runs]
        if self._by_run:
            found += (n for r in self._by_run.keys() & runs for n in self._by_run[r])
        found += (n for c, names in self._by_char.items() if c in text for n in names)
        if not found:
            return text
        places = sorted((at, -len(name), name) for name in found for at in _standing(text, name))
        out: list[str] = []
        done = 0
        for at, _, name in places:
            if at >= done:
                out += (text[done:at], aliases[name])
                done = at + len(name)
        if not out:
            return text
        out.append(text[done:])
        return "".join(out)


def _standing(text: str, name: str) -> Iterator[int]:
    """Where ``name`` stands in ``text`` as a whole token."""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or text[at - 1] not in _TOKEN_CHARS) and (
            end == len(text) or text[end] not in _TOKEN_CHARS
        ):
            yield at
        at = text.find(name, at + 1)
