"""A message's protobuf JSON written byte for byte as Go's protojson writes
it (docs/mcp.md: the three languages write the same JSON for a response):
``json_format`` decides the values; fields follow their declaration order,
map and ``Struct`` keys are sorted, ``Any`` puts ``@type`` first, and numbers
are printed as ECMAScript prints them (``1``, not ``1.0``; ``1e-7``, not
``1e-07``; ``100000000000000000000``, not ``1e+20``). An ``Any`` of a type
the program does not know is written as its type URL and its bytes, base64
(docs/runtime.md, "Responses"), where ``json_format`` raises."""

from __future__ import annotations

import json
import math
import struct
from decimal import Decimal
from typing import Any, Final, cast

from google.protobuf import descriptor_pool, json_format, message_factory, struct_pb2, wrappers_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import DecodeError, Message

__all__ = ["dict_json", "message_dict", "message_json"]

_STRUCT: Final = "google.protobuf.Struct"
_VALUE: Final = "google.protobuf.Value"
_LIST_VALUE: Final = "google.protobuf.ListValue"
_ANY: Final = "google.protobuf.Any"
# Well-known types whose JSON is not an object of their fields: inside an
# Any they sit under "value".
_SCALAR_JSON: Final = frozenset(
    {
        "google.protobuf.Duration",
        "google.protobuf.FieldMask",
        "google.protobuf.Timestamp",
        _STRUCT,
        _VALUE,
        _LIST_VALUE,
        *(
            f"google.protobuf.{w}Value"
            for w in ("Bool", "Bytes", "Double", "Float", "Int32", "Int64", "String")
        ),
        "google.protobuf.UInt32Value",
        "google.protobuf.UInt64Value",
    }
)
_BOOL_KEYS: Final = {"false": 0, "true": 1}
_VALUE_DESC: Final = struct_pb2.Value.DESCRIPTOR
_FLOAT_VALUE: Final = "google.protobuf.FloatValue"


def message_json(message: Message, *, proto_names: bool = True, defaults: bool = True) -> str:
    """The JSON of ``message``: proto field names (``proto_names``) and every
    field without presence written (``defaults``), as Go's ``UseProtoNames``
    and ``EmitDefaultValues`` do; no white space."""
    value = message_dict(message, proto_names=proto_names, defaults=defaults)
    return dict_json(message, value, proto_names=proto_names)


def dict_json(message: Message, value: Any, *, proto_names: bool) -> str:
    """``value``, the :func:`message_dict` of ``message`` (with
    ``proto_names``), written as Go's protojson writes ``message``."""
    parts: list[str] = []
    _write(_ordered(cast(Descriptor, message.DESCRIPTOR), value, proto_names), parts)
    return "".join(parts)


def message_dict(message: Message, *, proto_names: bool = False, defaults: bool = False) -> Any:
    """``json_format.MessageToDict`` of ``message`` (``proto_names``:
    ``preserving_proto_field_name``, ``defaults``:
    ``always_print_fields_with_no_presence``), except that an ``Any`` of a
    type the default descriptor pool lacks is ``{"@type": url, "value":
    base64}`` instead of an error."""

    def to_dict(m: Message) -> Any:
        return json_format.MessageToDict(
            m,
            preserving_proto_field_name=proto_names,
            always_print_fields_with_no_presence=defaults,
        )

    try:
        return to_dict(message)
    except TypeError:
        copy = type(message)()
        copy.CopyFrom(message)
        urls: list[str] = []
        _opaque_anys(copy, urls, 0)
        if not urls:
            raise
        return _restore_urls(to_dict(copy), urls)


# How deep _opaque_anys looks into Anys inside Anys.
_MAX_ANY_DEPTH: Final = 32
# The start of the type URL _opaque_anys gives an Any it rewrote: then the
# index of its own URL and the name of the type it now holds (no real type
# URL holds a NUL).
_OPAQUE_MARKER: Final = "\0ai-tools-opaque/"
_BYTES_VALUE: Final = wrappers_pb2.BytesValue.DESCRIPTOR.full_name


def _opaque_anys(message: Message, urls: list[str], depth: int) -> bool:
    """Rewrite every ``Any`` in ``message`` whose type the default pool lacks:
    its bytes become a ``BytesValue`` (which ``json_format`` writes in an
    ``Any`` as ``"value": base64``) under a marked type URL, its own URL goes
    to ``urls``. Looks into the ``Any`` values it can resolve too. True when
    it rewrote one."""
    desc = cast(Descriptor, message.DESCRIPTOR)
    if desc.full_name == _ANY:
        return _opaque_any(message, urls, depth)
    changed = False
    for field, value in message.ListFields():
        entry = field.message_type
        if entry is None:
            continue
        if entry.GetOptions().map_entry:
            if entry.fields_by_name["value"].message_type is not None:
                for item in value.values():
                    changed = _opaque_anys(item, urls, depth) or changed
        elif field.is_repeated:
            for item in value:
                changed = _opaque_anys(item, urls, depth) or changed
        else:
            changed = _opaque_anys(value, urls, depth) or changed
    return changed


def _opaque_any(any_message: Any, urls: list[str], depth: int) -> bool:
    type_url: str = any_message.type_url
    if type_url == "" or depth >= _MAX_ANY_DEPTH:
        return False
    try:
        packed = descriptor_pool.Default().FindMessageTypeByName(type_url.rsplit("/", 1)[-1])
    except KeyError:
        any_message.value = wrappers_pb2.BytesValue(value=any_message.value).SerializeToString()
        any_message.type_url = f"{_OPAQUE_MARKER}{len(urls)}/{_BYTES_VALUE}"
        urls.append(type_url)
        return True
    inner = message_factory.GetMessageClass(packed)()
    try:
        inner.ParseFromString(any_message.value)
    except DecodeError:
        return False  # json_format reports it
    if not _opaque_anys(inner, urls, depth + 1):
        return False
    any_message.value = inner.SerializeToString(deterministic=True)
    return True


def _restore_urls(value: Any, urls: list[str]) -> Any:
    """``value`` with the marked type URLs of :func:`_opaque_anys` written back."""
    if isinstance(value, list):
        return [_restore_urls(v, urls) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _restore_urls(v, urls) for k, v in value.items()}
    type_url = out.get("@type")
    if isinstance(type_url, str) and type_url.startswith(_OPAQUE_MARKER):
        out["@type"] = urls[int(type_url[len(_OPAQUE_MARKER) :].split("/", 1)[0])]
    return out


def _ordered(desc: Descriptor, value: Any, proto_names: bool) -> Any:
    """``value`` (the JSON of a ``desc`` message) with its object keys in
    protojson's order."""
    name = desc.full_name
    if name == _STRUCT or (name == _VALUE and isinstance(value, dict)):
        return _sorted_object(value, proto_names)
    if name == _LIST_VALUE or (name == _VALUE and isinstance(value, list)):
        return [_ordered(_VALUE_DESC, v, proto_names) for v in value]
    if name == _ANY:
        return _ordered_any(value, proto_names)
    if name == _FLOAT_VALUE and isinstance(value, float):
        return shortest_float32(value)
    if name in _SCALAR_JSON or not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for field in desc.fields:
        key = field.name if proto_names else field.json_name
        if key in value:
            out[key] = _ordered_field(field, value[key], proto_names)
    for key, v in value.items():  # extensions ("[pkg.ext]"), in json_format's order
        out.setdefault(key, v)
    return out


def _ordered_field(field: FieldDescriptor, value: Any, proto_names: bool) -> Any:
    message = field.message_type
    if message is not None and message.GetOptions().map_entry:
        key_type = message.fields_by_name["key"].type
        value_field = message.fields_by_name["value"]
        keys = sorted(value, key=lambda k: _map_key_order(key_type, k))
        return {k: _ordered_field(value_field, value[k], proto_names) for k in keys}
    if field.is_repeated and isinstance(value, list):
        return [_ordered_item(field, v, proto_names) for v in value]
    return _ordered_item(field, value, proto_names)


def _ordered_item(field: FieldDescriptor, value: Any, proto_names: bool) -> Any:
    if field.type == FieldDescriptor.TYPE_FLOAT and isinstance(value, float):
        return shortest_float32(value)
    if field.message_type is None or value is None:
        return value
    return _ordered(field.message_type, value, proto_names)


def shortest_float32(x: float) -> float:
    """The double of the shortest decimal that reads back as the same
    ``float`` (32-bit) as ``x``, as Go's protojson prints a float field
    (``3e-45``, where json_format writes six digits: ``2.8026e-45``)."""
    if not math.isfinite(x) or x == 0:
        return x
    (target,) = struct.unpack("<f", struct.pack("<f", x))
    for precision in range(1, 10):
        shorter = float(f"{x:.{precision}g}")
        try:
            if struct.unpack("<f", struct.pack("<f", shorter))[0] == target:
                return shorter
        except OverflowError:  # rounded up past the largest float
            continue
    return x


def _ordered_any(value: Any, proto_names: bool) -> Any:
    if not isinstance(value, dict) or "@type" not in value:
        return value
    type_url = value["@type"]
    try:
        packed = descriptor_pool.Default().FindMessageTypeByName(type_url.rsplit("/", 1)[-1])
    except KeyError:
        return {"@type": type_url, **value}
    if packed.full_name in _SCALAR_JSON:
        return {"@type": type_url, "value": _ordered(packed, value.get("value"), proto_names)}
    fields = {k: v for k, v in value.items() if k != "@type"}
    return {"@type": type_url, **_ordered(packed, fields, proto_names)}


def _map_key_order(key_type: int, key: str) -> Any:
    """Go's order of map keys: false before true, integers by value, strings
    by their UTF-8 bytes."""
    if key_type == FieldDescriptor.TYPE_BOOL:
        return _BOOL_KEYS.get(key, 2)
    if key_type == FieldDescriptor.TYPE_STRING:
        return key.encode()
    return int(key)


def _sorted_object(value: Any, proto_names: bool) -> Any:
    """A Struct's JSON: keys sorted, each a ``google.protobuf.Value``."""
    if not isinstance(value, dict):
        return value
    return {k: _ordered(_VALUE_DESC, value[k], proto_names) for k in sorted(value, key=str.encode)}


def _write(value: Any, parts: list[str]) -> None:
    if isinstance(value, str):
        parts.append(json.dumps(value, ensure_ascii=False))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int):
        parts.append(str(value))
    elif isinstance(value, float):
        parts.append(es_number(value))
    elif isinstance(value, dict):
        parts.append("{")
        for i, (key, item) in enumerate(value.items()):
            if i:
                parts.append(",")
            parts.append(json.dumps(key, ensure_ascii=False))
            parts.append(":")
            _write(item, parts)
        parts.append("}")
    elif isinstance(value, list):
        parts.append("[")
        for i, item in enumerate(value):
            if i:
                parts.append(",")
            _write(item, parts)
        parts.append("]")
    else:
        raise TypeError(f"cannot write {type(value).__name__} as JSON")


def es_number(x: float) -> str:
    """A finite float as ECMAScript's Number::toString and Go's protojson
    print it: the shortest digits that round-trip, in fixed notation from
    1e-6 up to 1e21, else as ``1e+21``, ``1.5e-7``; ``-0`` for negative zero."""
    if not math.isfinite(x):
        raise ValueError(f"{x!r} is not a JSON number")
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    _, digit_tuple, exponent = Decimal(repr(abs(x))).normalize().as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    n = k + exponent  # x = 0.<digits> * 10**n
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * -n + digits
    else:
        e = n - 1
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        out = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return ("-" if x < 0 else "") + out
