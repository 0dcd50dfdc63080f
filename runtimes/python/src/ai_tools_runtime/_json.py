"""JSON helpers that behave like the Go target's: numbers kept as written,
output with sorted keys and no white space, strings escaped as Go's
encoding/json escapes them; and the quoting of names in messages."""

from __future__ import annotations

import json
import re
from typing import Any, Final

__all__ = ["JsonNumber", "decode_json", "encode_json", "json_kind", "quote"]


class JsonNumber:
    """A JSON number kept exactly as written (``1.50``, ``1e3``, ``12345678901234567890``)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JsonNumber) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"JsonNumber({self.text!r})"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"invalid JSON constant {name}")


_DECODER: Final = json.JSONDecoder(
    parse_float=JsonNumber,
    parse_int=JsonNumber,
    parse_constant=_refuse_constant,
)
_SURROUNDING_SPACE: Final = " \t\r\n"


def decode_json(text: str) -> tuple[Any, bool]:
    """Decode exactly one JSON value (white space around it allowed), numbers
    as :class:`JsonNumber`. Returns ``(value, True)``, or ``(None, False)`` for
    invalid JSON or trailing text."""
    stripped = text.strip(_SURROUNDING_SPACE)
    try:
        value, end = _DECODER.raw_decode(stripped)
    except (ValueError, RecursionError):
        return None, False
    if end != len(stripped):
        return None, False
    return value, True


_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_HTML: Final = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}
_HTML_RE: Final = re.compile("[<>&]")


def _encode_string(s: str, escape_html: bool) -> str:
    if _LONE_SURROGATE.search(s):
        s = _LONE_SURROGATE.sub("\ufffd", s)
    out = json.dumps(s, ensure_ascii=False)
    if "\u2028" in out or "\u2029" in out:
        out = out.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    if escape_html:
        out = _HTML_RE.sub(lambda m: _HTML[m.group(0)], out)
    return out


def encode_json(value: Any, *, escape_html: bool = False) -> str:
    """Encode a decoded value: object keys sorted, no white space, numbers as
    decoded, ``<``, ``>`` and ``&`` escaped only with ``escape_html``."""
    parts: list[str] = []
    _encode(value, parts, escape_html)
    return "".join(parts)


def _encode(value: Any, parts: list[str], escape_html: bool) -> None:
    if isinstance(value, str):
        parts.append(_encode_string(value, escape_html))
    elif isinstance(value, JsonNumber):
        parts.append(value.text)
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, dict):
        parts.append("{")
        for i, key in enumerate(sorted(value)):
            if i:
                parts.append(",")
            parts.append(_encode_string(key, escape_html))
            parts.append(":")
            _encode(value[key], parts, escape_html)
        parts.append("}")
    elif isinstance(value, list):
        parts.append("[")
        for i, item in enumerate(value):
            if i:
                parts.append(",")
            _encode(item, parts, escape_html)
        parts.append("]")
    elif isinstance(value, int):
        parts.append(str(value))
    elif isinstance(value, float):
        parts.append(json.dumps(value))
    else:
        raise TypeError(f"cannot encode {type(value).__name__} as JSON")


def json_kind(v: Any) -> str:
    """The kind of a decoded JSON value, as messages name it: "an object",
    "an array", "a string", "a number", "a boolean" or "null"."""
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, bool):
        return "a boolean"
    if v is None:
        return "null"
    return "a number"


def quote(s: str) -> str:
    """Quote a name or value for a model-facing message (docs/runtime.md,
    "Quoting in messages"): a JSON string, ``"`` and ``\\`` escaped, ``\\b \\f
    \\n \\r \\t`` for those controls, other controls as ``\\u00XX``; everything
    else (non-ASCII, U+007F, U+2028) as it is. A lone surrogate becomes U+FFFD."""
    if _LONE_SURROGATE.search(s):
        s = _LONE_SURROGATE.sub("\ufffd", s)
    return json.dumps(s, ensure_ascii=False)
