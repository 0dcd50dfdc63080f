"""Cancelling a gRPC call that runs on a worker thread (a ``grpc.Channel``'s)
from the event loop: ``notifications/cancelled`` or a client gone
(docs/mcp.md, "Calls")."""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["CallCanceller"]


class CallCanceller:
    """Holds the call a worker thread started; :meth:`cancel` cancels it,
    now or as soon as it starts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._call: Any = None
        self._cancelled = False

    def started(self, call: Any) -> None:
        """The worker thread's call (a future or a response iterator)."""
        with self._lock:
            self._call = call
            cancelled = self._cancelled
        if cancelled:
            call.cancel()

    def cancel(self) -> None:
        """Cancel the call (once it has started, if it has not yet)."""
        with self._lock:
            self._cancelled = True
            call = self._call
        if call is not None:
            call.cancel()
