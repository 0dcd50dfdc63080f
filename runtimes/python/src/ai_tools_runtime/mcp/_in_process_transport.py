"""The in-process backing of ``register_<service>_handler``: the user's
servicers served on a ``grpc.aio`` server on a loopback port, so that a call
takes the same path (executor, channel, encoding) as a forwarded one."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

import grpc
import grpc.aio

__all__ = ["AddServicer", "create_in_process_channel"]

AddServicer = Callable[[grpc.aio.Server], None]
"""Adds a servicer to a server: ``lambda s: add_XServicer_to_server(impl, s)``."""

_THREADS = 8


@asynccontextmanager
async def create_in_process_channel(
    adders: Sequence[AddServicer],
) -> AsyncIterator[grpc.aio.Channel]:
    """Serve the servicers on ``127.0.0.1`` (a free port) for as long as the
    context lasts, and yield a channel to them. Servicers may be ``async``
    or plain methods (those run on a small thread pool)."""
    pool = ThreadPoolExecutor(max_workers=_THREADS, thread_name_prefix="ai-tools-mcp")
    server = grpc.aio.server(migration_thread_pool=pool)
    try:
        for add in adders:
            add(server)
        port = server.add_insecure_port("127.0.0.1:0")
        if port == 0:
            raise RuntimeError("cannot listen on a loopback port for the in-process services")
        await server.start()
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
        try:
            yield channel
        finally:
            await channel.close()
    finally:
        await server.stop(None)
        pool.shutdown(wait=False)
