"""Argument fix-up (docs/runtime.md, "Argument fix-up"): undoes the schema
fixes of docs/compat.md on the model's arguments before the protobuf JSON
decoder reads them, walking them alongside the request descriptor."""

from __future__ import annotations

from typing import Any, Final

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from ._json import JsonNumber, decode_json, encode_json, go_quote

__all__ = ["FixupError", "fix_args", "fix_value_tree"]

_VALUE: Final = "google.protobuf.Value"
_LIST_VALUE: Final = "google.protobuf.ListValue"
_STRUCT: Final = "google.protobuf.Struct"


class FixupError(Exception):
    """Arguments the fix-up refuses (message without the ``failed to parse
    arguments: `` prefix)."""


def fix_args(args_json: str, descriptor: Any, strict: bool) -> str:
    """The fixed arguments as JSON text; invalid JSON or a value that is not an
    object is returned unchanged, for the decoder to report."""
    value, ok = decode_json(args_json)
    if not ok or not isinstance(value, dict):
        return args_json
    fix_value_tree(value, descriptor, strict)
    return encode_json(value)


def fix_value_tree(obj: dict[str, Any], descriptor: Any, strict: bool) -> None:
    """Fix a decoded arguments object in place; raises :class:`FixupError`."""
    _fix_message(obj, descriptor, strict)


def _is(md: Descriptor | None, full_name: str) -> bool:
    return md is not None and md.full_name == full_name


def _field_by_key(descriptor: Descriptor, key: str) -> FieldDescriptor | None:
    for fd in descriptor.fields:
        if fd.json_name == key:
            return fd
    return descriptor.fields_by_name.get(key)


def _is_map(fd: FieldDescriptor) -> bool:
    mt = fd.message_type
    return fd.is_repeated and mt is not None and mt.GetOptions().map_entry


def _fix_message(obj: dict[str, Any], descriptor: Descriptor, strict: bool) -> None:
    present: set[int] = set()
    for key in sorted(obj):
        fd = _field_by_key(descriptor, key)
        if fd is None:
            continue
        if obj[key] is None:
            if fd.is_repeated or not _is(fd.message_type, _VALUE):
                del obj[key]
            continue
        obj[key] = _fix_field(obj[key], fd, strict)
        present.add(fd.number)
    for oneof in descriptor.oneofs:
        members = [fd.json_name for fd in oneof.fields if fd.number in present]
        if len(members) > 1:
            raise FixupError(
                f"fields {go_quote(members[0])} and {go_quote(members[1])} are members of "
                f"oneof {go_quote(oneof.name)}: set only one"
            )


def _fix_field(v: Any, fd: FieldDescriptor, strict: bool) -> Any:
    if _is_map(fd):
        return _fix_map(v, fd, strict)
    if fd.is_repeated and isinstance(v, list):
        for i, item in enumerate(v):
            v[i] = _fix_value(item, fd.message_type, strict)
        return v
    return _fix_value(v, fd.message_type, strict)


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


def _fix_map(v: Any, fd: FieldDescriptor, strict: bool) -> Any:
    if isinstance(v, list):
        obj: dict[str, Any] = {}
        for i, entry in enumerate(v):
            key = _map_key(entry.get("key")) if isinstance(entry, dict) else None
            if key is None:
                raise FixupError(
                    f'field {go_quote(fd.json_name)}: entry {i} is not a {{"key": …, "value": …}} '
                    "object"
                )
            obj[key] = entry.get("value")
    elif isinstance(v, dict):
        obj = v
    else:
        return v
    entry_type = fd.message_type
    assert entry_type is not None  # a map field's type is its entry message
    value_type = entry_type.fields_by_name["value"].message_type
    for key in sorted(obj):
        if obj[key] is None:
            if not _is(value_type, _VALUE):
                del obj[key]
            continue
        obj[key] = _fix_value(obj[key], value_type, strict)
    return obj


def _fix_value(v: Any, md: Descriptor | None, strict: bool) -> Any:
    if md is None or v is None:
        return v
    name = md.full_name
    if name == _VALUE:
        if isinstance(v, str) and strict:
            return _parse_value(v)
    elif name == _LIST_VALUE:
        if isinstance(v, list) and strict:
            for i, item in enumerate(v):
                if isinstance(item, str):
                    v[i] = _parse_value(item)
    elif name == _STRUCT:
        if isinstance(v, list):
            obj: dict[str, Any] = {}
            for i, entry in enumerate(v):
                key = entry.get("key") if isinstance(entry, dict) else None
                if not isinstance(key, str):
                    raise FixupError(
                        f'entry {i} of a struct is not a {{"key": "…", "value": …}} object'
                    )
                item = entry.get("value")
                obj[key] = _parse_value(item) if isinstance(item, str) else item
            return obj
    elif name.startswith("google.protobuf."):
        pass
    elif isinstance(v, dict):
        _fix_message(v, md, strict)
    return v


def _parse_value(text: str) -> Any:
    """A string given for a google.protobuf.Value read as JSON text; text
    that is not valid JSON stays a plain string."""
    value, ok = decode_json(text)
    return value if ok else text
