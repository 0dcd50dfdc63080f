"""uvicorn's server with the drain of :func:`serve_http` (docs/production.md,
"Graceful shutdown"): on SIGTERM or SIGINT new requests are refused (503
``shutting_down``, the listener stays open meanwhile), the requests in
flight finish within the grace period, then uvicorn shuts down."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading
import time
from collections.abc import Iterator
from types import FrameType

import uvicorn

from ._http_gate import GateState

__all__ = ["DrainingServer"]

_POLL_SECONDS = 0.05


class DrainingServer(uvicorn.Server):
    """A second signal during the drain exits at once (uvicorn's own
    handling). Unlike uvicorn, the signal is not raised again after
    shutdown: :func:`serve_http` returns and the application exits 0."""

    def __init__(self, config: uvicorn.Config, state: GateState, grace_seconds: float) -> None:
        super().__init__(config)
        self._state = state
        self._grace_seconds = grace_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._drain: asyncio.Task[None] | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._state.draining or self._loop is None:
            super().handle_exit(sig, frame)
            return
        self._state.draining = True
        self._loop.call_soon_threadsafe(self._start_drain)

    def _start_drain(self) -> None:
        self._drain = asyncio.get_running_loop().create_task(self._drained())

    async def _drained(self) -> None:
        deadline = time.monotonic() + self._grace_seconds
        while self._state.in_flight > 0 and time.monotonic() < deadline:
            await asyncio.sleep(_POLL_SECONDS)
        # What is left is GET streams (or calls past the grace period):
        # uvicorn gives them a second, then cancels them.
        self.config.timeout_graceful_shutdown = 1
        self.should_exit = True
