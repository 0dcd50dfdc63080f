"""``arguments`` of a ``tools/call`` that are not an object (docs/mcp.md,
"Calls"): absent or ``null`` is ``{}``; anything else is an ``isError``
result with the executors' text, never a JSON-RPC error. The SDK validates
``arguments`` as an object before a handler runs, so a middleware marks the
value and the handler answers."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

from .._json import json_kind
from .._violations import Violation, invalid_arguments_text

__all__ = ["mark_non_object_arguments", "non_object_arguments"]

# No JSON text a client sends decodes to a key holding U+0000 and this name
# by accident; one that does gets the same error.
_MARK: Final = "\0ai-tools/arguments-kind"


async def mark_non_object_arguments(
    ctx: ServerRequestContext[Any, Any], call_next: CallNext
) -> HandlerResult:
    """Server middleware: a ``tools/call`` whose ``arguments`` are neither
    an object nor null goes on with an object that names their kind."""
    params = ctx.params
    if ctx.method == "tools/call" and params is not None:
        args = params.get("arguments")
        if args is not None and not isinstance(args, dict):
            marked = {**params, "arguments": {_MARK: json_kind(args)}}
            ctx = dataclasses.replace(ctx, params=marked)
    return await call_next(ctx)


def non_object_arguments(args: dict[str, Any]) -> str | None:
    """The ``isError`` text of arguments the middleware marked, else None."""
    kind = args.get(_MARK)
    if len(args) != 1 or not isinstance(kind, str):
        return None
    violation = Violation("", "not-an-object", f"expected a JSON object, got {kind}")
    return invalid_arguments_text([violation])
