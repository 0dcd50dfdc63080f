"""The structure check of a tool call's arguments (docs/runtime.md,
"Argument check"): unknown keys and missing required fields, all of them,
found by the generated argument table of the tool before anything else
looks at the arguments."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from ._did_you_mean import did_you_mean
from ._json import decode_json, json_kind, quote
from ._violations import Violation, child_path

__all__ = [
    "INVALID_JSON",
    "ArgumentTable",
    "check_argument_text",
    "check_arguments",
    "parse_argument_table",
]

_LISTED: Final = 20
_REQUIRED: Final = "missing required field"
INVALID_JSON: Final = "invalid JSON; send the arguments as one JSON object"


@dataclass(frozen=True)
class _Field:
    node: int | None
    """The node of the message the field holds, or None (a leaf)."""
    kind: str
    """"" (singular), "list" or "map"."""


@dataclass(frozen=True)
class _Node:
    names: tuple[str, ...]
    fields: Mapping[str, _Field]
    required: tuple[tuple[str, str], ...]
    """(proto name, JSON name) of each required field, in schema order (the
    table gives a JSON name that differs only for lenient tools)."""
    nested: tuple[tuple[str, str, _Field], ...]
    """(proto name, JSON name, field) of the fields holding messages, and of
    the maps (a map of non-messages is looked into as entries only)."""
    valid: str
    """The list of the unknown-field message: ``valid fields: id, title``."""


@dataclass(frozen=True)
class ArgumentTable:
    """A tool's argument table, read from the JSON text the generator writes
    (``ToolMethod.arguments``); ``nodes[0]`` is the request."""

    nodes: tuple[_Node, ...]


_ENTRY: Final = _Node(
    names=("key", "value"),
    fields={"key": _Field(None, ""), "value": _Field(None, "")},
    required=(("key", "key"), ("value", "value")),
    nested=(),
    valid="valid fields: key, value",
)


def _valid(names: tuple[str, ...]) -> str:
    if not names:
        return "no fields are valid here"
    listed = ", ".join(names[:_LISTED])
    more = len(names) - _LISTED
    return f"valid fields: {listed}" + (f", and {more} more" if more > 0 else "")


@lru_cache(maxsize=4096)  # a table per tool: the MCP server makes an executor per call
def parse_argument_table(text: str) -> ArgumentTable:
    """The table of ``text`` (parsed once per text); a ``ValueError`` naming
    what is wrong for text that is not a table."""
    try:
        raw = json.loads(text)
        nodes = tuple(_node(n, len(raw["nodes"])) for n in raw["nodes"])
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        raise ValueError(f"invalid argument table {text[:80]!r}: {err}") from None
    if not nodes:
        raise ValueError(f"invalid argument table {text[:80]!r}: no nodes")
    return ArgumentTable(nodes)


def _node(raw: Mapping[str, Any], count: int) -> _Node:
    fields: dict[str, _Field] = {}
    json_names: dict[str, str] = {}
    for name, f in raw["fields"].items():
        json_names[name] = f.get("json", name)
        node = f.get("node")
        if node is not None and not (isinstance(node, int) and 0 <= node < count):
            raise ValueError(f"field {name!r} names node {node!r}")
        kind = "list" if f.get("list") else "map" if f.get("map") else ""
        fields[name] = _Field(node, kind)
    names = tuple(fields)
    required = tuple((n, json_names.get(n, n)) for n in raw.get("required", ()))
    for n, _ in required:
        if n not in fields:
            raise ValueError(f"required field {n!r} is not a field")
    nested = tuple(
        (n, json_names[n], f) for n, f in fields.items() if f.node is not None or f.kind == "map"
    )
    return _Node(names, fields, required, nested, _valid(names))


def check_arguments(
    args: Mapping[str, Any],
    table: ArgumentTable,
    *,
    extra_root: Collection[str] = (),
    lenient: bool = False,
) -> list[Violation]:
    """Every unknown key (unless ``lenient``) and every missing required
    field of ``args`` (a JSON object, decoded), in the order of
    docs/runtime.md; names in ``extra_root`` are never unknown at the root.
    Values of the wrong JSON kind are left for the fix-up to report."""
    out: list[Violation] = []
    _Check(table.nodes, lenient, out).object(args, table.nodes[0], "", extra_root)
    return out


def _unknown(node: _Node, key: str) -> str:
    if not node.names:
        return "unknown field; no fields are valid here"
    guess = did_you_mean(key, node.names)
    if guess is None:
        return f"unknown field; {node.valid}"
    return f"unknown field; did you mean {quote(guess)}? {node.valid}"


@dataclass
class _Check:
    nodes: tuple[_Node, ...]
    lenient: bool
    out: list[Violation]

    def _get(self, obj: Mapping[str, Any], name: str, json_name: str) -> Any:
        """The field's value: under its proto name, or (lenient) its JSON name."""
        value = obj.get(name)
        if value is None and self.lenient and json_name != name:
            value = obj.get(json_name)
        return value

    def object(
        self, obj: Mapping[str, Any], node: _Node, path: str, extra: Collection[str] = ()
    ) -> None:
        if not self.lenient:
            for key in sorted(obj):
                if key not in node.fields and key not in extra:
                    self.out.append(
                        Violation(child_path(path, key), "unknown-field", _unknown(node, key))
                    )
        for name, json_name in node.required:
            if self._get(obj, name, json_name) is None:
                self.out.append(Violation(child_path(path, name), "required", _REQUIRED))
        for name, json_name, f in node.nested:
            value = self._get(obj, name, json_name)
            if value is not None:
                inner = None if f.node is None else self.nodes[f.node]
                self._field(value, f.kind, inner, child_path(path, name))

    def _field(self, value: Any, kind: str, node: _Node | None, path: str) -> None:
        if kind == "":
            if isinstance(value, dict) and node is not None:
                self.object(value, node, path)
        elif kind == "list":
            if isinstance(value, list) and node is not None:
                for i, item in enumerate(value):
                    if isinstance(item, dict):
                        self.object(item, node, f"{path}[{i}]")
        elif isinstance(value, dict):
            # A map of non-messages given as an object is not looked into.
            if node is not None:
                for key in sorted(value):
                    if isinstance(value[key], dict):
                        self.object(value[key], node, child_path(path, key))
        elif isinstance(value, list):
            for i, entry in enumerate(value):
                if isinstance(entry, dict):
                    self._entry(entry, node, f"{path}[{i}]")

    def _entry(self, entry: Mapping[str, Any], node: _Node | None, path: str) -> None:
        """One ``{"key", "value"}`` entry of a map written as an array; its
        value is checked against ``node`` when the map's values are messages."""
        self.object(entry, _ENTRY, path)
        value = entry.get("value")
        if isinstance(value, dict) and node is not None:
            self.object(value, node, f"{path}.value")


def check_argument_text(
    text: str,
    table: ArgumentTable | None,
    *,
    extra_root: Collection[str] = (),
    lenient: bool = False,
) -> tuple[dict[str, Any] | None, list[Violation]]:
    """Stages 1 and 2 of a call (docs/runtime.md, "Argument checks"): the
    arguments decoded (numbers as written) when they are one JSON object,
    and the violations found (the structure check needs ``table``)."""
    value, ok = decode_json(text)
    if not ok:
        return None, [Violation("", "invalid-json", INVALID_JSON)]
    if not isinstance(value, dict):
        return None, [
            Violation("", "not-an-object", f"expected a JSON object, got {json_kind(value)}")
        ]
    if table is None:
        return value, []
    return value, check_arguments(value, table, extra_root=extra_root, lenient=lenient)
