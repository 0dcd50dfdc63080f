"""What a tool call returns (docs/mcp.md, "Calls"): the response as text and
structured content, or an ``isError`` result the model can act on."""

from __future__ import annotations

import json

import mcp_types

from .._aliases import AliasManager
from .._tool_error import ToolError
from ._conversation_handle import CONVERSATION_META_KEY

__all__ = ["error_result", "error_text", "success_result"]


def success_result(text: str, wrap_key: str, handle: str | None) -> mcp_types.CallToolResult:
    """The result of a successful call: the response's JSON as text and
    parsed, wrapped under ``wrap_key`` when there is one (``{"messages":
    [...]}``); with a handle, the handle in ``_meta`` and in a second text
    block."""
    if wrap_key != "":
        text = "{" + json.dumps(wrap_key) + ":" + text + "}"
    content: list[mcp_types.ContentBlock] = [mcp_types.TextContent(text=text)]
    meta = None
    if handle is not None:
        content.append(mcp_types.TextContent(text=f"conversation: {handle}"))
        meta = {CONVERSATION_META_KEY: handle}
    return mcp_types.CallToolResult(
        content=content, structured_content=json.loads(text, parse_int=_json_int), _meta=meta
    )


def _json_int(literal: str) -> int | float:
    """An integer of the text as ``json.loads`` reads it, but ``-0`` (a
    float field's negative zero) stays a float, so that the structured
    content says ``-0.0`` as the text says ``-0``, not ``0``."""
    return -0.0 if literal == "-0" else int(literal)


def error_result(text: str) -> mcp_types.CallToolResult:
    """A failed call: ``isError`` with one text block."""
    return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=text)], is_error=True)


def error_text(err: BaseException, aliases: AliasManager | None) -> str:
    """The text of a failed call: a ToolError's message, the executor's
    text (a server error as ``rpc error: code = NotFound desc = …`` and its
    field violations); the message of anything else (aliasified)."""
    if isinstance(err, ToolError):
        return err.message
    text = str(err) or type(err).__name__
    return aliases.aliasify_json(text) if aliases is not None else text
