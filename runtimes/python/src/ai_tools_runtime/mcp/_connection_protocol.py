"""uvicorn's h11 protocol as serve_http runs it (docs/production.md,
"Hardened HTTP"): a connection that has not sent a whole request head
within ``HEAD_TIMEOUT_SECONDS`` of connecting, or of its previous response,
is closed, so idle and slow connections cannot hold the connection cap; and
``TCP_NODELAY`` is set on every connection (asyncio sets it only when the
listening socket was made with ``IPPROTO_TCP``, which a socket made with
``socket.socket()`` and passed as ``sock`` is not: without it each response
after the first on a keep-alive connection waited ~40 ms for a delayed ACK)."""

from __future__ import annotations

import asyncio
import socket
from typing import Final

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEAD_TIMEOUT_SECONDS", "ConnectionProtocol", "capped_protocol"]

HEAD_TIMEOUT_SECONDS: Final = 10.0


class ConnectionProtocol(H11Protocol):
    """:class:`H11Protocol` that closes a connection waiting too long for a
    request head (keep-alive idleness stays uvicorn's ``timeout_keep_alive``)
    and sends without Nagle's delay."""

    _head_timer: asyncio.TimerHandle | None = None
    max_connections: int | None = None
    """Connections served at once; one more is closed unanswered."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.max_connections is not None and len(self.connections) > self.max_connections:
            transport.close()  # connection_lost forgets it
            return
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._arm_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)

    def _arm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT_SECONDS, self._head_timeout)

    def _head_timeout(self) -> None:
        self._head_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and not self.transport.is_closing():
            self.timeout_keep_alive_handler()


def capped_protocol(max_connections: int) -> type[ConnectionProtocol]:
    """:class:`ConnectionProtocol` serving at most ``max_connections``
    connections at once (uvicorn's own ``limit_concurrency`` would answer
    the others 503 in plain text)."""
    if isinstance(max_connections, bool) or not isinstance(max_connections, int):
        raise ValueError(f"max_connections must be a whole number, got {max_connections!r}")
    if max_connections < 1:
        raise ValueError(f"max_connections must be 1 or more, got {max_connections}")
    return type("ConnectionProtocol", (ConnectionProtocol,), {"max_connections": max_connections})
