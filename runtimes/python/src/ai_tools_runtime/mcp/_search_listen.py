"""``subscriptions/listen`` of a search-first server (2026-07-28): a
connection (stdio, in memory) that listens for tool list changes is told on
that stream when its searches add tools, as a 2025-11-25 connection is told
on the connection (docs/mcp.md, "Search-first tool sets"). A stateless HTTP
request has no list of its own to change: its listen honors nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import anyio
import mcp_types
from anyio.streams.memory import MemoryObjectSendStream
from mcp.server import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import SUBSCRIPTION_ID_META_KEY

__all__ = ["ToolListens", "serve_listen"]


@dataclass
class ToolListens:
    """The tool-list listens of one connection."""

    streams: list[MemoryObjectSendStream[None]] = field(default_factory=list)

    def tell(self) -> None:
        """Wake every listen: each sends one ``notifications/tools/list_changed``
        (a listen already woken sends one for both)."""
        for stream in self.streams:
            try:
                stream.send_nowait(None)
            except (anyio.WouldBlock, anyio.ClosedResourceError, anyio.BrokenResourceError):
                pass


async def serve_listen(
    ctx: ServerRequestContext[Any, Any],
    params: mcp_types.SubscriptionsListenRequestParams,
    listens: ToolListens | None,
) -> mcp_types.SubscriptionsListenResult:
    """Serve one listen: acknowledge the tool list changes when ``listens``
    (the connection's) is given and the client asks for them, nothing else;
    then, until the client goes away, one notification per wake."""
    sid = ctx.request_id
    if sid is None:
        raise MCPError(mcp_types.INVALID_REQUEST, "subscriptions/listen requires a request id")
    meta: dict[str, Any] = {SUBSCRIPTION_ID_META_KEY: sid}
    tools = listens is not None and params.notifications.tools_list_changed is True
    honored = mcp_types.SubscriptionFilter(tools_list_changed=True if tools else None)
    ack = mcp_types.SubscriptionsAcknowledgedNotificationParams(notifications=honored, _meta=meta)
    send, receive = anyio.create_memory_object_stream[None](1)
    if tools:
        assert listens is not None
        listens.streams.append(send)
    try:
        await ctx.session.send_notification(
            mcp_types.SubscriptionsAcknowledgedNotification(params=ack), related_request_id=sid
        )
        if tools:
            changed = mcp_types.ToolListChangedNotification(
                params=mcp_types.NotificationParams(_meta=meta)
            )
            async for _ in receive:
                await ctx.session.send_notification(changed, related_request_id=sid)
    finally:
        if listens is not None and send in listens.streams:
            listens.streams.remove(send)
        send.close()
        receive.close()
    return mcp_types.SubscriptionsListenResult(_meta=meta)
