"""A real ``redis-server`` (Debian's package) for the tests: started on a
free local port without persistence, stopped after. The e2e suite
(e2e/py) imports this module too."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["RedisServer", "running_redis"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pong(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """One redis-server process on 127.0.0.1; ``start`` again (after
    ``kill`` or ``stop``) reuses the port, with no data: a restart without
    persistence."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError(
                "redis-server not found: install Debian's redis-server "
                "(apt-get install redis-server; scripts/install.sh does it)"
            )
        self.binary = binary
        self.port = _free_port()
        self._dir = tempfile.TemporaryDirectory(prefix="ai-tools-redis-")
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:<port>/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it and wait for its PONG (10 s at most)."""
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--save", "", "--appendonly", "no", "--dir", self._dir.name]
        self._proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not _pong(self.port):
            if self._proc.poll() is not None:
                raise RuntimeError(
                    f"redis-server exited with {self._proc.returncode} on port {self.port}"
                )
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"redis-server did not answer PING on port {self.port}")
            time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL it (its data is lost) and wait for it to go."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.send_signal(signal.SIGKILL)
            self._proc.wait(10)
        self._proc = None

    def pause(self) -> None:
        """SIGSTOP it: it keeps its connections and data but answers nothing
        (a server that times out)."""
        assert self._proc is not None
        self._proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT it after :meth:`pause`."""
        assert self._proc is not None
        self._proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL after 10 s) and drop its folder."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.send_signal(signal.SIGCONT)  # in case it was paused
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._proc = None
        self._dir.cleanup()


@contextmanager
def running_redis() -> Iterator[RedisServer]:
    """A started :class:`RedisServer`, stopped on exit."""
    server = RedisServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()
