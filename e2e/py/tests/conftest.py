"""Fixtures of the Python end-to-end suite.

The real linkhub.v1 test server (e2e/server/dist/main.js) runs once for the
session: started with its stdin a pipe held open, ready when it prints
``ready 127.0.0.1:<port>``, stopped by closing that pipe. Every test that
takes ``driver`` runs twice: with the generated ``Executor`` on a
``grpc.Channel``, and with ``AsyncExecutor`` on a ``grpc.aio.Channel`` driven
by an event loop of its own thread.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import subprocess
import sys
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import grpc
import pytest
from helpers import Driver, repo_root

T = TypeVar("T")


def _server_main() -> str:
    return os.environ.get("E2E_SERVER_MAIN") or os.path.join(
        repo_root(), "e2e", "server", "dist", "main.js"
    )


@pytest.fixture(scope="session")
def server_addr() -> Iterator[str]:
    with running_test_server() as addr:
        yield addr


@contextmanager
def running_test_server(*flags: str) -> Iterator[str]:
    """The test server started with ``flags`` (e.g. ``--tls-cert``), until
    the block ends; its address."""
    if os.environ.get("E2E_NO_SERVER"):
        pytest.fail("this test needs the test server (E2E_NO_SERVER is set)")
    main = _server_main()
    if not os.path.exists(main):
        pytest.fail(
            f"{main} not found: npx -y pnpm@12.4.2 --filter @protoc-gen-ai-tools/e2e-server build"
        )
    proc = subprocess.Popen(
        ["node", main, *flags], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=sys.stderr
    )
    assert proc.stdin is not None and proc.stdout is not None
    ready: list[str] = []
    got_line = threading.Event()
    stdout = proc.stdout

    def pump() -> None:
        ready.append(stdout.readline().decode().rstrip("\r\n"))
        got_line.set()
        for line in stdout:  # later output goes to stderr: the server never blocks
            sys.stderr.write(line.decode(errors="replace"))

    threading.Thread(target=pump, daemon=True).start()
    if not got_line.wait(30):
        proc.kill()
        pytest.fail("the test server printed no ready line within 30 s")
    line = ready[0]
    if not line.startswith("ready 127.0.0.1:"):
        proc.kill()
        pytest.fail(f"first stdout line {line!r} is not `ready 127.0.0.1:<port>`")
    yield line.removeprefix("ready ")
    proc.stdin.close()
    try:
        code = proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("the test server did not exit within 10 s of its stdin closing")
    if code != 0:
        pytest.fail(f"the test server exited with {code}")


@pytest.fixture(scope="session")
def channel(server_addr: str) -> Iterator[grpc.Channel]:
    ch = grpc.insecure_channel(server_addr)
    yield ch
    ch.close()


class LoopThread:
    """An asyncio event loop running in a daemon thread, with one aio channel."""

    def __init__(self, addr: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

        async def open_channel() -> grpc.aio.Channel:
            return grpc.aio.insecure_channel(addr)

        self.channel: grpc.aio.Channel = self.run(open_channel())

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(120)

    def close(self) -> None:
        self.run(self.channel.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)


@pytest.fixture(scope="session")
def aio(server_addr: str) -> Iterator[LoopThread]:
    lt = LoopThread(server_addr)
    yield lt
    lt.close()


@pytest.fixture(params=["sync", "async"])
def driver(request: pytest.FixtureRequest, channel: grpc.Channel) -> Driver:
    """Makes executors of one kind: Executor, or AsyncExecutor on its loop."""
    if request.param == "sync":
        return Driver.sync(channel)
    lt: LoopThread = request.getfixturevalue("aio")
    return Driver.asynchronous(lt.loop, lt.channel, lt.run)


def _redis_helper() -> Any:
    """runtimes/python/tests/redis_server.py, which starts a redis-server
    on a free port (loaded by path: that folder is not on sys.path)."""
    path = os.path.join(repo_root(), "runtimes", "python", "tests", "redis_server.py")
    spec = importlib.util.spec_from_file_location("redis_server", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real redis-server (Debian's), without persistence, for the session."""
    with _redis_helper().running_redis() as server:
        yield str(server.url)
