"""What a tool call returns (docs/mcp.md, "Calls"): the response as text and
structured content, or an ``isError`` result the model can act on."""

from __future__ import annotations

import base64
import json

import mcp_types
from google.protobuf import any_pb2, json_format

from .._aliases import AliasManager
from .._proto_json import message_json
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
    """The text of a failed call: a server error (``server-error``,
    ``unavailable``) as the status JSON, ``{"code":"NOT_FOUND","message":…,
    "details":[…]}``, aliasified whole; any other ToolError's message; the
    message of anything else (aliasified)."""
    if not isinstance(err, ToolError):
        text = str(err) or type(err).__name__
        return aliases.aliasify_json(text) if aliases is not None else text
    if err.reason not in ("server-error", "unavailable"):
        return err.message
    text = (
        f'{{"code":{json.dumps(err.code.name)},'
        f'"message":{json.dumps(err.raw_message, ensure_ascii=False)},'
        f'"details":[{",".join(_detail(d) for d in err.details)}]}}'
    )
    return aliases.aliasify_json(text) if aliases is not None else text


def _detail(detail: any_pb2.Any) -> str:
    """One error detail as the protobuf JSON of a ``google.protobuf.Any``
    (JSON names, as Go's protojson writes it); a type not known here as
    ``{"@type": …, "value": <base64>}``."""
    try:
        return message_json(detail, proto_names=False, defaults=False)
    except (json_format.Error, TypeError, KeyError):
        unknown = {"@type": detail.type_url, "value": base64.b64encode(detail.value).decode()}
        return json.dumps(unknown, ensure_ascii=False, separators=(",", ":"))
