"""The fields of a stored conversation (docs/store.md, "Key layout"), and
the state the runtime reads from them. The in-memory store keeps the same
fields as the Redis one, so the two behave alike."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any, Final

__all__ = [
    "DEFAULT_KEY_PREFIX",
    "LAYOUT_VERSION",
    "check_tool_names",
    "conversation_key",
    "load_tool_fields",
    "loaded_from_fields",
    "register_fields",
    "state_from_fields",
]

DEFAULT_KEY_PREFIX: Final = "ai-tools:"
"""The prefix of a conversation's key unless set."""

LAYOUT_VERSION: Final = "1"
"""The value of the field ``v``."""

_INTEGER: Final = re.compile("-?(?:0|[1-9][0-9]*)")
_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_ESCAPED: Final = re.compile("[<>&\u2028\u2029]")
_ESCAPES: Final = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def conversation_key(key_prefix: str, handle: str) -> str:
    """The key of a conversation's hash: ``<prefix>conv:{<handle>}`` (the
    braces make the handle the Redis Cluster hash tag)."""
    return f"{key_prefix}conv:{{{handle}}}"


def state_from_fields(fields: Mapping[str, str]) -> str:
    """The state (``AliasManager.export_state``'s form, byte for byte) of a
    conversation's fields: ``aliases`` from ``a:*``, ``counters`` from
    ``n:*``, ``version`` from ``v``. Nothing is checked here: a value that
    is not an integer is written as a string, and ``restore_state`` refuses
    it."""
    aliases: dict[str, str] = {}
    counters: dict[str, int | str] = {}
    state: dict[str, Any] = {"aliases": aliases, "counters": counters}
    for name, value in fields.items():
        if name.startswith("a:"):
            aliases[name[2:]] = value
        elif name.startswith("n:"):
            counters[name[2:]] = _number(value)
        elif name == "v":
            state["version"] = _number(value)
    # json.dumps writes what encode_json(escape_html=True) writes for these
    # values (strings and integers), only faster: the state is read on
    # every call.
    text = json.dumps(state, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    text = _LONE_SURROGATE.sub("\ufffd", text)
    return _ESCAPED.sub(lambda m: _ESCAPES[m.group(0)], text)


def _number(text: str) -> int | str:
    return int(text) if _INTEGER.fullmatch(text) else text


def register_fields(fields: MutableMapping[str, str], pairs: Sequence[tuple[str, str]]) -> None:
    """What the register script does to a conversation of the right epoch:
    with ``v`` = 1, each UUID not yet known gets its prefix's next number, in
    order; another version is left unchanged (the runtime refuses it)."""
    if fields.get("v") != LAYOUT_VERSION:
        return
    for prefix, uuid in pairs:
        if f"u:{uuid}" in fields:
            continue
        n = int(fields.get(f"n:{prefix}", "0")) + 1
        fields[f"n:{prefix}"] = str(n)
        fields[f"a:{prefix}-{n}"] = uuid
        fields[f"u:{uuid}"] = f"{prefix}-{n}"


def check_tool_names(names: Sequence[str]) -> None:
    """Refuse a tool name no store keeps (the empty string) with
    :class:`ValueError`, before anything is loaded."""
    for name in names:
        if not isinstance(name, str) or not name:
            raise ValueError(
                f"cannot load the tool name {json.dumps(name)}: pass the names of tools"
            )


def load_tool_fields(fields: MutableMapping[str, str], names: Sequence[str]) -> None:
    """What the load-tools script does to a conversation of the right epoch:
    with ``v`` = 1, each name without a ``t:<name>`` field gets the next
    position (``tn``), in order; another version is left unchanged."""
    if fields.get("v") != LAYOUT_VERSION:
        return
    for name in names:
        if f"t:{name}" in fields:
            continue
        n = int(fields.get("tn", "0")) + 1
        fields["tn"] = str(n)
        fields[f"t:{name}"] = str(n)


def loaded_from_fields(fields: Mapping[str, str]) -> list[str]:
    """The loaded tools, in load order, of a conversation's fields (only
    ``v`` and ``t:*`` are read). :class:`ValueError` when ``v`` is not 1 or
    the positions are not 1 to n, each once: the store reports the
    conversation corrupt."""
    version = fields.get("v")
    if version != LAYOUT_VERSION:
        raise ValueError(f"the conversation's layout version is {json.dumps(version)}, not 1")
    by_position: dict[int, str] = {}
    for field, value in fields.items():
        if field.startswith("t:"):
            by_position[int(value) if _INTEGER.fullmatch(value) else 0] = field[2:]
    count = sum(1 for f in fields if f.startswith("t:"))
    if sorted(by_position) != list(range(1, count + 1)):
        raise ValueError(f"the loaded tools' positions are not 1 to {count}, each once")
    return [by_position[i] for i in range(1, count + 1)]
