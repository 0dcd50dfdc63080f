"""One error shape (docs/runtime.md, "Errors"): what a model got wrong, as a
list of violations, each a field path, a reason and a message; and the one
text a model reads for them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from ._json import quote

__all__ = [
    "INVALID_ARGUMENTS_HEADER",
    "Violation",
    "ViolationReason",
    "child_path",
    "invalid_arguments_text",
    "violation_lines",
]

ViolationReason = Literal[
    "invalid-json",
    "not-an-object",
    "unknown-field",
    "required",
    "invalid-value",
    "unknown-alias",
    "validation",
    "server",
]
"""Why one value is refused:

- ``invalid-json``: the arguments are not one JSON value;
- ``not-an-object``: they are JSON, but not an object;
- ``unknown-field``: a key the tool's schema does not list;
- ``required``: a required field absent or ``null``;
- ``invalid-value``: a value of the wrong kind, an unknown enum name, bad
  base64, two members of a oneof, or the decoder refused it;
- ``unknown-alias``: an alias of a known prefix that was never registered;
- ``validation``: a ``buf.validate`` rule broken (protovalidate);
- ``server``: a field violation of the server's ``google.rpc.BadRequest``."""

INVALID_ARGUMENTS_HEADER: Final = "invalid arguments, nothing was sent:"
"""The first line of the message of arguments refused before sending."""


@dataclass(frozen=True)
class Violation:
    """One thing wrong with a tool call's arguments (or, reason ``server``,
    one field violation the server reported)."""

    field: str
    """The path of the value, in the schema's names as the model wrote them
    (``steps[2].link_id``, ``labels.env``); "" for the arguments as a whole
    or a message-level rule."""
    reason: ViolationReason
    """Why it is refused."""
    message: str
    """What is wrong, for the model (aliasified)."""


def violation_lines(violations: Iterable[Violation]) -> str:
    """One line a violation, ``- "field": message`` (``- message`` when the
    field is ""), joined by newlines."""
    return "\n".join(
        f"- {quote(v.field)}: {v.message}" if v.field != "" else f"- {v.message}"
        for v in violations
    )


def invalid_arguments_text(violations: Iterable[Violation]) -> str:
    """The model-facing text of arguments refused before sending."""
    return f"{INVALID_ARGUMENTS_HEADER}\n{violation_lines(violations)}"


def child_path(path: str, key: str) -> str:
    """The path of key below path, as every message writes field paths: keys
    joined by ".", the root's keys alone."""
    return f"{path}.{key}" if path else key
