"""Argument fix-up (docs/runtime.md, "Argument fix-up"): checks what the
model wrote and undoes the schema fixes of docs/compat.md before the protobuf
JSON decoder reads the arguments, walking them alongside the request
descriptor. Paths in messages use the keys as the model wrote them."""

from __future__ import annotations

import math
import re
from typing import Any, Final

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor

from ._json import JsonNumber, decode_json, encode_json, json_kind, quote
from ._violations import ViolationReason, child_path

__all__ = ["FixupError", "fix_args", "fix_value_tree", "parse_args"]

_VALUE: Final = "google.protobuf.Value"
_LIST_VALUE: Final = "google.protobuf.ListValue"
_STRUCT: Final = "google.protobuf.Struct"
_WKT: Final = "google.protobuf."

_JSON_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_DURATION: Final = re.compile(r"-?[0-9]+(?:\.[0-9]{1,9})?s")
_TIMESTAMP: Final = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?"
    r"(?:Z|[+-][0-9]{2}:[0-9]{2})"
)
_STD_ALPHABET: Final = "A-Za-z0-9+/"
_URL_ALPHABET: Final = "A-Za-z0-9\\-_"
_PADDED: Final = {
    a: re.compile(f"(?:[{a}]{{4}})*(?:[{a}]{{2}}==|[{a}]{{3}}=)?")
    for a in (_STD_ALPHABET, _URL_ALPHABET)
}
_UNPADDED: Final = {a: re.compile(f"[{a}]*") for a in (_STD_ALPHABET, _URL_ALPHABET)}

# The kind a scalar field (or a well-known wrapper of it) accepts.
_BOOLEAN: Final = "a boolean"
_INTEGER: Final = "an integer"
_NUMBER: Final = "a number"
_STRING: Final = "a string"
_BYTES: Final = "a base64 string"
_ENUM: Final = "an enum value"
_OBJECT: Final = "an object"
_ARRAY: Final = "an array"
_DURATION_KIND: Final = 'a duration such as "1.5s"'
_TIMESTAMP_KIND: Final = "an RFC 3339 timestamp"

_SCALAR_KINDS: Final = {
    FieldDescriptor.TYPE_BOOL: _BOOLEAN,
    FieldDescriptor.TYPE_DOUBLE: _NUMBER,
    FieldDescriptor.TYPE_FLOAT: _NUMBER,
    FieldDescriptor.TYPE_STRING: _STRING,
    FieldDescriptor.TYPE_BYTES: _BYTES,
    FieldDescriptor.TYPE_ENUM: _ENUM,
    **{
        t: _INTEGER
        for t in (
            FieldDescriptor.TYPE_INT32,
            FieldDescriptor.TYPE_INT64,
            FieldDescriptor.TYPE_UINT32,
            FieldDescriptor.TYPE_UINT64,
            FieldDescriptor.TYPE_SINT32,
            FieldDescriptor.TYPE_SINT64,
            FieldDescriptor.TYPE_FIXED32,
            FieldDescriptor.TYPE_FIXED64,
            FieldDescriptor.TYPE_SFIXED32,
            FieldDescriptor.TYPE_SFIXED64,
        )
    },
}

_WKT_KINDS: Final = {
    "google.protobuf.BoolValue": _BOOLEAN,
    "google.protobuf.Int32Value": _INTEGER,
    "google.protobuf.Int64Value": _INTEGER,
    "google.protobuf.UInt32Value": _INTEGER,
    "google.protobuf.UInt64Value": _INTEGER,
    "google.protobuf.FloatValue": _NUMBER,
    "google.protobuf.DoubleValue": _NUMBER,
    "google.protobuf.StringValue": _STRING,
    "google.protobuf.FieldMask": _STRING,
    "google.protobuf.BytesValue": _BYTES,
    "google.protobuf.Duration": _DURATION_KIND,
    "google.protobuf.Timestamp": _TIMESTAMP_KIND,
    _LIST_VALUE: _ARRAY,
}


class FixupError(Exception):
    """Arguments the fix-up refuses. ``str(err)`` is the whole message
    (``field "tags[0]": expected an integer, got "x"``, without the ``failed
    to parse arguments: `` prefix); ``field`` and ``detail`` are its parts as
    a violation shows them (``tags[0]``, ``expected an integer, got "x"``)."""

    def __init__(
        self,
        message: str,
        *,
        field: str = "",
        detail: str | None = None,
        reason: ViolationReason = "invalid-value",
    ) -> None:
        super().__init__(message)
        self.field = field
        self.detail = message if detail is None else detail
        self.reason: ViolationReason = reason
        """invalid-json, not-an-object or invalid-value."""

    @classmethod
    def at(cls, path: str, detail: str) -> FixupError:
        """The error of the value at ``path``."""
        return cls(f"field {quote(path)}: {detail}", field=path, detail=detail)


def parse_args(args_json: str) -> Any:
    """The model's arguments decoded (numbers as written); refuses text that
    is not one JSON value."""
    value, ok = decode_json(args_json)
    if not ok:
        raise FixupError(
            "invalid JSON; send the arguments as one JSON object", reason="invalid-json"
        )
    return value


def fix_args(args_json: str, descriptor: Any, strict: bool) -> str:
    """The fixed arguments as JSON text (keys sorted, numbers as written);
    raises :class:`FixupError`."""
    value = parse_args(args_json)
    fix_value_tree(value, descriptor, strict)
    return encode_json(value)


def fix_value_tree(value: Any, descriptor: Any, strict: bool) -> None:
    """Fix decoded arguments in place (they must be an object); raises
    :class:`FixupError`."""
    if not isinstance(value, dict):
        raise FixupError(f"expected a JSON object, got {json_kind(value)}", reason="not-an-object")
    _fix_message(value, descriptor, strict, "")


def _shown(v: Any) -> str:
    """A value as the kind errors show it: the JSON text of a string,
    number or boolean; "an object", "an array" or "null" otherwise."""
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, JsonNumber):
        return v.text
    if v is True:
        return "true"
    if v is False:
        return "false"
    return json_kind(v)


# How many names of an enum an error lists before "and N more".
_ENUM_NAMES_LISTED: Final = 10


def _enum_name_error(path: str, enum: EnumDescriptor, name: str) -> FixupError:
    """A name that is not one of the enum's: the decoder, which skips what it
    does not know, would leave the field unset instead (docs/runtime.md)."""
    names = [v.name for v in enum.values[:_ENUM_NAMES_LISTED]]
    more = len(enum.values) - _ENUM_NAMES_LISTED
    listed = ", ".join(names) + (f", and {more} more" if more > 0 else "")
    return FixupError.at(
        path, f"expected a name of enum {enum.full_name} ({listed}), got {quote(name)}"
    )


def _kind_error(path: str, kind: str, v: Any) -> FixupError:
    return FixupError.at(path, f"expected {kind}, got {_shown(v)}")


def _is_base64(s: str) -> bool:
    """Whether ``s`` is base64 as docs/runtime.md defines it: the standard
    alphabet, or the URL-safe one when ``-`` or ``_`` occurs (never mixed);
    padding complete when the length is a multiple of 4, else absent; no
    white space."""
    alphabet = _URL_ALPHABET if "-" in s or "_" in s else _STD_ALPHABET
    if len(s) % 4 == 0:
        return _PADDED[alphabet].fullmatch(s) is not None
    return len(s) % 4 != 1 and _UNPADDED[alphabet].fullmatch(s) is not None


def _field_by_key(descriptor: Descriptor, key: str) -> FieldDescriptor | None:
    if not _is_utf8(key):
        # A lone surrogate (JSON "\ud800") names no field; upb's maps fail on
        # text that has no UTF-8 form.
        return None
    fd = descriptor.fields_by_name.get(key)
    if fd is not None:
        return fd
    for fd in descriptor.fields:
        if fd.json_name == key:
            return fd
    return None


def _is_utf8(s: str) -> bool:
    """Whether s has a UTF-8 form (no lone surrogate)."""
    if s.isascii():
        return True
    try:
        s.encode()
    except UnicodeEncodeError:
        return False
    return True


def _is_map(fd: FieldDescriptor) -> bool:
    mt = fd.message_type
    return fd.is_repeated and mt is not None and mt.GetOptions().map_entry


def _holds_value(fd: FieldDescriptor) -> bool:
    mt = fd.message_type
    return mt is not None and mt.full_name == _VALUE


def _fix_message(obj: dict[str, Any], descriptor: Descriptor, strict: bool, path: str) -> None:
    present: dict[int, str] = {}
    for key in sorted(obj):
        fd = _field_by_key(descriptor, key)
        if fd is None:
            continue
        if obj[key] is None:
            if fd.is_repeated or not _holds_value(fd):
                del obj[key]
            continue
        obj[key] = _fix_field(obj[key], fd, strict, child_path(path, key))
        present[fd.number] = key
    for oneof in descriptor.oneofs:
        members = [fd for fd in oneof.fields if fd.number in present]
        if len(members) > 1:
            detail = (
                f"{quote(members[0].name)} and {quote(members[1].name)} are members of "
                f"oneof {quote(oneof.name)}: set only one"
            )
            field = child_path(path, present[members[1].number])
            raise FixupError(f"fields {detail}", field=field, detail=detail)


def _fix_field(v: Any, fd: FieldDescriptor, strict: bool, path: str) -> Any:
    if _is_map(fd):
        return _fix_map(v, fd, strict, path)
    if fd.is_repeated:
        if not isinstance(v, list):
            raise _kind_error(path, _ARRAY, v)
        for i, item in enumerate(v):
            if item is not None:  # left for the decoder, as in Go and TypeScript
                v[i] = _fix_single(item, fd, strict, f"{path}[{i}]")
        return v
    return _fix_single(v, fd, strict, path)


def _map_key(key: Any) -> str | None:
    if isinstance(key, str):
        return key
    if isinstance(key, JsonNumber):
        return key.text
    if key is True:
        return "true"
    if key is False:
        return "false"
    return None


def _entries(v: list[Any], path: str, key_of: Any) -> dict[str, Any]:
    """A ``[{key, value}, …]`` array as an object, later entries winning."""
    obj: dict[str, Any] = {}
    for i, entry in enumerate(v):
        key = key_of(entry.get("key")) if isinstance(entry, dict) else None
        if key is None:
            raise FixupError.at(path, f'entry {i} is not a {{"key": …, "value": …}} object')
        obj[key] = entry.get("value")
    return obj


def _fix_map(v: Any, fd: FieldDescriptor, strict: bool, path: str) -> Any:
    obj = _entries(v, path, _map_key) if isinstance(v, list) else v
    if not isinstance(obj, dict):
        raise _kind_error(path, _OBJECT, v)
    entry_type = fd.message_type
    assert entry_type is not None  # a map field's type is its entry message
    value_fd = entry_type.fields_by_name["value"]
    for key in sorted(obj):
        if obj[key] is None:
            if not _holds_value(value_fd):
                del obj[key]
            continue
        obj[key] = _fix_single(obj[key], value_fd, strict, child_path(path, key))
    return obj


def _string_key(key: Any) -> str | None:
    return key if isinstance(key, str) else None


def _fix_single(v: Any, fd: FieldDescriptor, strict: bool, path: str) -> Any:
    """One value of a field (the field itself, a repeated item or a map
    value): schema fixes undone, then its kind checked."""
    md = fd.message_type
    if md is None:
        _check_scalar(v, _SCALAR_KINDS[fd.type], path)
        if fd.enum_type is not None and isinstance(v, str) and v not in fd.enum_type.values_by_name:
            raise _enum_name_error(path, fd.enum_type, v)
        return v
    name = md.full_name
    if name == _VALUE:
        return _finite(_parse_value(v) if strict and isinstance(v, str) else v, path)
    if name == _STRUCT:
        if isinstance(v, list):
            v = _entries(v, path, _string_key)
            for key, item in v.items():
                if isinstance(item, str):
                    v[key] = _parse_value(item)
        if not isinstance(v, dict):
            raise _kind_error(path, _OBJECT, v)
        return _finite(v, path)
    if name == _LIST_VALUE and strict and isinstance(v, list):
        for i, item in enumerate(v):
            if isinstance(item, str):
                v[i] = _parse_value(item)
    if name == _LIST_VALUE:
        _finite(v, path)
    kind = _WKT_KINDS.get(name)
    if kind is not None:
        _check_scalar(v, kind, path)
        return v
    if not isinstance(v, dict):
        raise _kind_error(path, _OBJECT, v)
    if not name.startswith(_WKT):
        _fix_message(v, md, strict, path)
    return v


def _check_scalar(v: Any, kind: str, path: str) -> None:
    if kind == _STRING:
        ok = isinstance(v, str)
    elif kind == _INTEGER:
        ok = isinstance(v, JsonNumber) or (
            isinstance(v, str) and _JSON_NUMBER.fullmatch(v) is not None
        )
    elif kind == _NUMBER:
        ok = isinstance(v, JsonNumber) or (
            isinstance(v, str)
            and (v in ("NaN", "Infinity", "-Infinity") or _JSON_NUMBER.fullmatch(v) is not None)
        )
    elif kind == _BOOLEAN:
        ok = isinstance(v, bool)
    elif kind == _ENUM:
        ok = isinstance(v, str | JsonNumber)
    elif kind == _BYTES:
        if isinstance(v, str):
            if not _is_base64(v):
                raise FixupError.at(path, f"invalid base64 {quote(v)}")
            return
        ok = False
    elif kind == _DURATION_KIND:
        ok = isinstance(v, str) and _DURATION.fullmatch(v) is not None
    elif kind == _TIMESTAMP_KIND:
        ok = isinstance(v, str) and _TIMESTAMP.fullmatch(v) is not None
    else:  # an array (ListValue)
        ok = isinstance(v, list)
    if not ok:
        raise _kind_error(path, kind, v)


def _finite(v: Any, path: str) -> Any:
    """v (a Value, Struct or ListValue tree), refused when a number in it is
    past the double range (``1e400``): Go's protojson refuses it, where
    json_format would read inf and send it."""
    if isinstance(v, JsonNumber):
        if math.isinf(float(v.text)):
            raise FixupError.at(path, f"number {v.text} is out of range")
    elif isinstance(v, dict):
        for key, item in v.items():
            _finite(item, child_path(path, key))
    elif isinstance(v, list):
        for i, item in enumerate(v):
            _finite(item, f"{path}[{i}]")
    return v


def _parse_value(text: str) -> Any:
    """A string given for a google.protobuf.Value read as JSON text; text
    that is not valid JSON stays a plain string."""
    value, ok = decode_json(text)
    return value if ok else text
