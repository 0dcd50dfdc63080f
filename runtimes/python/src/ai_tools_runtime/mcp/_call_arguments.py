"""The arguments of a tool call (docs/mcp.md, "Calls" step 1): the extra
properties and the conversation handle taken out and checked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._violations import Violation, invalid_arguments_text
from ._conversation_handle import CONVERSATION_ARGUMENT, CONVERSATION_META_KEY
from ._extra_properties import ExtraProperty

__all__ = ["CallArgumentError", "CallArguments", "take_call_arguments"]


class CallArgumentError(ValueError):
    """An extra property or a handle that is not a string, or a required
    extra property missing: the call's ``isError`` text is the message, the
    one shape of docs/runtime.md ("invalid arguments, nothing was sent:")."""

    def __init__(self, violations: Sequence[Violation]) -> None:
        super().__init__(invalid_arguments_text(violations))
        self.violations = tuple(violations)


@dataclass(frozen=True)
class CallArguments:
    """What :func:`take_call_arguments` took out of a call."""

    extras: dict[str, str]
    """The extra properties given, name → value (absent or null ones left
    out)."""
    handle: str | None
    """The conversation handle the request passes back: ``_meta``'s, else
    the argument's; ``None`` when there is none."""


def take_call_arguments(
    args: dict[str, Any],
    extras: Sequence[ExtraProperty],
    *,
    handle_argument: bool,
    meta: Mapping[str, Any] | None,
) -> CallArguments:
    """Take the extra properties (and, with ``handle_argument``, the handle
    argument ``conversation``) out of ``args``, in place, and find the
    request's handle. Each must be a string or null (absent); a required
    extra property must be given; a handle in ``_meta`` wins over the
    argument. A :class:`CallArgumentError` otherwise."""
    names = [e.name for e in extras]
    if handle_argument:
        names.append(CONVERSATION_ARGUMENT)
    values: dict[str, str] = {}
    found: list[Violation] = []
    for name in names:
        value = args.pop(name, None)
        if value is None:
            continue
        if not isinstance(value, str):
            found.append(Violation(name, "invalid-value", _NOT_A_STRING))
        else:
            values[name] = value
    for extra in extras:
        if extra.required and extra.name not in values and extra.name not in _named(found):
            found.append(Violation(extra.name, "required", "missing required field"))
    in_meta = (meta or {}).get(CONVERSATION_META_KEY)
    if in_meta is not None and not isinstance(in_meta, str):
        found.append(Violation(CONVERSATION_META_KEY, "invalid-value", _NOT_A_STRING))
    if found:
        raise CallArgumentError(found)
    argument = values.pop(CONVERSATION_ARGUMENT, None) if handle_argument else None
    handle = in_meta or argument or None
    return CallArguments(values, handle)


_NOT_A_STRING = "must be a string"


def _named(violations: Sequence[Violation]) -> set[str]:
    return {v.field for v in violations}
