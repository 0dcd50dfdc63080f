"""Stage 6 of a call (docs/runtime.md, "buf.validate"): the decoded request
checked with protovalidate, given as an object, so that this package never
imports the library (the generated module makes the validator when a tool
needs one)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from google.protobuf.message import Message

from ._violations import Violation

__all__ = ["RequestValidator", "validation_violations"]


class RequestValidator(Protocol):
    """What an executor needs of a validator: ``protovalidate.Validator()``
    (``pip install protovalidate``), or anything with its
    ``collect_violations``."""

    def collect_violations(self, message: Message) -> Sequence[Any]:
        """The rules ``message`` breaks, as protovalidate's violations (each
        with ``proto``, a ``buf.validate.Violation``)."""
        ...


def validation_violations(validator: RequestValidator, request: Message) -> list[Violation]:
    """Every buf.validate rule ``request`` breaks, as violations with the
    field path in proto names (``steps[2].link_id``, ``labels.env``; "" for
    a message-level rule) and the rule's message."""
    return [
        Violation(_path(v.proto), "validation", v.proto.message or v.proto.rule_id)
        for v in validator.collect_violations(request)
    ]


def _path(violation: Any) -> str:
    if not violation.HasField("field"):
        return ""
    out = ""
    for element in violation.field.elements:
        out = f"{out}.{element.field_name}" if out else element.field_name
        subscript = element.WhichOneof("subscript")
        if subscript == "index":
            out += f"[{element.index}]"
        elif subscript == "bool_key":
            out += ".true" if element.bool_key else ".false"
        elif subscript is not None:
            key = getattr(element, subscript)
            out += f".{key}"
    return out
