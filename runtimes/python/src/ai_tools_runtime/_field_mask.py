"""FieldMask paths in tool arguments (docs/runtime.md, "Field masks"): each
path of a mask checked against the message it names fields of (the
argument table's ``masks``), then the mask rewritten to the wire form the
protobuf JSON decoder reads (lowerCamel segments, joined by ``,``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ._did_you_mean import valid_fields, valid_fields_note
from ._json import quote

__all__ = ["MaskNode", "check_field_mask", "parse_mask_nodes"]

_SPACE: Final = " \t\n\r"
_ALL: Final = "*"
_MAP_KEY: Final = re.compile(r"[a-z][a-z0-9]*")
"""A map key the JSON form of a mask carries: json_format, protojson and
protobuf-es refuse ``_`` in a path and read a capital as ``_`` and its
lower-case letter."""


@dataclass(frozen=True)
class _MaskField:
    wire: str
    """The segment as the wire form writes it: the table's ``json``, else
    the proto name."""
    node: int | None
    """The mask node the next segment is looked up in, or None."""
    is_map: bool
    """A map: exactly one more segment (its key) may follow."""


@dataclass(frozen=True)
class MaskNode:
    """One message whose fields a mask path may name (an entry of the
    argument table's ``masks``)."""

    names: tuple[str, ...]
    """The proto names, in declaration order."""
    fields: Mapping[str, _MaskField]
    by_json: Mapping[str, str]
    """JSON (lowerCamel) name -> proto name, where they differ."""
    valid: str
    """``valid fields: a, b`` (or ``no fields are valid here``)."""


def parse_mask_nodes(raw: Any) -> tuple[MaskNode, ...]:
    """The ``masks`` of an argument table (a list of ``{"fields": {…}}``);
    ``ValueError`` (or ``TypeError``/``KeyError``) for anything else."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ValueError("masks is not a list")
    return tuple(_mask_node(n, len(raw)) for n in raw)


def _mask_node(raw: Mapping[str, Any], count: int) -> MaskNode:
    fields: dict[str, _MaskField] = {}
    by_json: dict[str, str] = {}
    for name, f in raw["fields"].items():
        node = f.get("node")
        if node is not None and not (isinstance(node, int) and 0 <= node < count):
            raise ValueError(f"mask field {name!r} names mask node {node!r}")
        wire = f.get("json", name)
        if not isinstance(wire, str):
            raise ValueError(f"mask field {name!r} has a json name that is not a string")
        if wire != name:
            by_json[wire] = name
        fields[name] = _MaskField(wire, node, bool(f.get("map")))
    names = tuple(fields)
    return MaskNode(names, fields, by_json, valid_fields(names))


def check_field_mask(text: str, masks: tuple[MaskNode, ...], root: int) -> tuple[str, list[str]]:
    """The wire form of the mask ``text`` whose paths name fields of
    ``masks[root]``, and the message of each bad path, in the order of the
    paths (the wire form is meant only when there is none)."""
    wire: list[str] = []
    problems: list[str] = []
    for raw in text.split(","):
        path = raw.strip(_SPACE)
        if path == "":
            continue
        if path == _ALL:
            wire.append(path)
            continue
        written, problem = _path(path, masks, root)
        if problem is not None:
            problems.append(problem)
        else:
            wire.append(written)
    return ",".join(wire), problems


def _path(path: str, masks: tuple[MaskNode, ...], root: int) -> tuple[str, str | None]:
    """One path's wire form, or the message saying what is wrong with it."""
    out: list[str] = []
    node: MaskNode | None = masks[root]
    leaf = ""  # the proto name of the last field (a map's, after its key)
    map_key = False  # the segment is a map's key
    for seg in path.split("."):
        if seg == "":
            return "", f"empty field name in path {quote(path)}"
        if map_key:
            if _MAP_KEY.fullmatch(seg) is None:
                return "", (
                    f"map key {quote(seg)} in path {quote(path)} cannot be sent in a field mask:"
                    " keys there take lower-case letters and digits only, starting with a letter"
                )
            out.append(seg)  # the key, as written; nothing may follow it
            map_key = False
            continue
        if node is None:
            return "", f"field {quote(leaf)} has no fields, in path {quote(path)}"
        name = seg if seg in node.fields else node.by_json.get(seg)
        if name is None:
            choices = valid_fields_note(seg, node.names, node.valid)
            return "", f"unknown field {quote(seg)} in path {quote(path)}; {choices}"
        field = node.fields[name]
        out.append(field.wire)
        map_key, leaf = field.is_map, name
        node = None if field.node is None else masks[field.node]
    return ".".join(out), None
