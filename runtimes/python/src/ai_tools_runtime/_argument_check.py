"""The structure check of a tool call's arguments (docs/runtime.md,
"Argument check"): unknown keys and missing required fields, all of them,
found by the generated argument table of the tool before anything else
looks at the arguments; and the paths of its FieldMask fields, rewritten
to the wire form."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from ._did_you_mean import valid_fields, valid_fields_note
from ._field_mask import MaskNode, check_field_mask, parse_mask_nodes
from ._json import decode_json, json_kind
from ._violations import Violation, child_path

__all__ = [
    "INVALID_JSON",
    "ArgumentTable",
    "check_argument_text",
    "check_arguments",
    "parse_argument_table",
]

_REQUIRED: Final = "missing required field"
INVALID_JSON: Final = "invalid JSON; send the arguments as one JSON object"


@dataclass(frozen=True)
class _Field:
    node: int | None
    """The node of the message the field holds, or None (a leaf)."""
    kind: str
    """"" (singular), "list" or "map"."""
    mask: int | None = None
    """The mask node of a FieldMask field's paths, or None."""


@dataclass(frozen=True)
class _Node:
    names: tuple[str, ...]
    fields: Mapping[str, _Field]
    required: tuple[tuple[str, str], ...]
    """(proto name, JSON name) of each required field, in schema order (the
    table gives a JSON name that differs only for lenient tools)."""
    nested: tuple[tuple[str, str, _Field], ...]
    """(proto name, JSON name, field) of the fields the walk looks at, in
    declaration order: those holding messages, the maps (a map of
    non-messages is looked into as entries only) and the FieldMasks."""
    valid: str
    """The list of the unknown-field message: ``valid fields: id, title``."""


@dataclass(frozen=True)
class ArgumentTable:
    """A tool's argument table, read from the JSON text the generator writes
    (``ToolMethod.arguments``); ``nodes[0]`` is the request."""

    nodes: tuple[_Node, ...]
    masks: tuple[MaskNode, ...] = ()
    """The messages FieldMask paths name fields of (the table's ``masks``)."""


_ENTRY: Final = _Node(
    names=("key", "value"),
    fields={"key": _Field(None, ""), "value": _Field(None, "")},
    required=(("key", "key"), ("value", "value")),
    nested=(),
    valid="valid fields: key, value",
)


@lru_cache(maxsize=4096)  # a table per tool: the MCP server makes an executor per call
def parse_argument_table(text: str) -> ArgumentTable:
    """The table of ``text`` (parsed once per text); a ``ValueError`` naming
    what is wrong for text that is not a table."""
    try:
        raw = json.loads(text)
        masks = parse_mask_nodes(raw.get("masks"))
        nodes = tuple(_node(n, len(raw["nodes"]), len(masks)) for n in raw["nodes"])
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        raise ValueError(f"invalid argument table {text[:80]!r}: {err}") from None
    if not nodes:
        raise ValueError(f"invalid argument table {text[:80]!r}: no nodes")
    return ArgumentTable(nodes, masks)


def _node(raw: Mapping[str, Any], count: int, masks: int) -> _Node:
    fields: dict[str, _Field] = {}
    json_names: dict[str, str] = {}
    for name, f in raw["fields"].items():
        json_names[name] = f.get("json", name)
        node = f.get("node")
        if node is not None and not (isinstance(node, int) and 0 <= node < count):
            raise ValueError(f"field {name!r} names node {node!r}")
        mask = f.get("mask")
        if mask is not None and not (isinstance(mask, int) and 0 <= mask < masks):
            raise ValueError(f"field {name!r} names mask {mask!r}")
        kind = "list" if f.get("list") else "map" if f.get("map") else ""
        fields[name] = _Field(node, kind, mask)
    names = tuple(fields)
    required = tuple((n, json_names.get(n, n)) for n in raw.get("required", ()))
    for n, _ in required:
        if n not in fields:
            raise ValueError(f"required field {n!r} is not a field")
    nested = tuple(
        (n, json_names[n], f)
        for n, f in fields.items()
        if f.node is not None or f.kind == "map" or f.mask is not None
    )
    return _Node(names, fields, required, nested, valid_fields(names))


def check_arguments(
    args: dict[str, Any],
    table: ArgumentTable,
    *,
    extra_root: Collection[str] = (),
    lenient: bool = False,
) -> list[Violation]:
    """Every unknown key (unless ``lenient``) and every missing required
    field of ``args`` (a JSON object, decoded), in the order of
    docs/runtime.md; then every bad path of its FieldMasks, in the order of
    the same walk. Names in ``extra_root`` are never unknown at the root.
    Each FieldMask without a bad path is replaced in ``args`` by its wire
    form. Values of the wrong JSON kind are left for the fix-up to report."""
    out: list[Violation] = []
    check = _Check(table.nodes, table.masks, lenient, out, [])
    check.object(args, table.nodes[0], "", extra_root)
    for obj, key, f, path in check.masks_found:
        check.masks_at(obj, key, f, path)
    return out


def _unknown(node: _Node, key: str) -> str:
    return f"unknown field; {valid_fields_note(key, node.names, node.valid)}"


@dataclass
class _Check:
    nodes: tuple[_Node, ...]
    masks: tuple[MaskNode, ...]
    lenient: bool
    out: list[Violation]
    masks_found: list[tuple[dict[str, Any], str, _Field, str]]
    """(object, key, field, path) of each FieldMask present, in walk order:
    checked once the walk is over."""

    def _key(self, obj: Mapping[str, Any], name: str, json_name: str) -> str:
        """The key of the field's value: its proto name, or (lenient) its
        JSON name when the proto name is absent or null."""
        if obj.get(name) is None and self.lenient and json_name != name:
            return json_name
        return name

    def _get(self, obj: Mapping[str, Any], name: str, json_name: str) -> Any:
        """The field's value: under its proto name, or (lenient) its JSON name."""
        return obj.get(self._key(obj, name, json_name))

    def object(
        self, obj: dict[str, Any], node: _Node, path: str, extra: Collection[str] = ()
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
            key = self._key(obj, name, json_name)
            if f.mask is not None:
                self.masks_found.append((obj, key, f, child_path(path, name)))
                continue
            value = obj.get(key)
            if value is not None:
                inner = None if f.node is None else self.nodes[f.node]
                self._field(value, f.kind, inner, child_path(path, name))

    def masks_at(self, obj: dict[str, Any], key: str, f: _Field, path: str) -> None:
        """Check the FieldMask(s) under ``key``, replacing each good one by
        its wire form; strings only (other kinds are the fix-up's)."""
        value = obj.get(key)
        if f.kind == "" and isinstance(value, str):
            obj[key] = self._mask(value, f, path)
        elif f.kind == "list" and isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, str):
                    value[i] = self._mask(item, f, f"{path}[{i}]")

    def _mask(self, text: str, f: _Field, path: str) -> str:
        assert f.mask is not None
        wire, problems = check_field_mask(text, self.masks, f.mask)
        self.out.extend(Violation(path, "invalid-value", p) for p in problems)
        return text if problems else wire

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

    def _entry(self, entry: dict[str, Any], node: _Node | None, path: str) -> None:
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
