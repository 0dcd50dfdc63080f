"""A real ``redis-server`` (Debian's package) for the tests: started on a
free local port without persistence, stopped after; over TLS (certificates
made at start) and with the least-privilege ACL user of docs/store.md when
asked. The e2e suite (e2e/py) imports this module too."""

from __future__ import annotations

import datetime
import ipaddress
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Final

__all__ = ["ACL_USER", "RedisServer", "acl_rules", "running_redis"]

ACL_USER: Final = "ai-tools"
"""The name of the ACL user a server started with ``acl_password`` has."""


def acl_rules(version: tuple[int, int]) -> list[str]:
    """The least-privilege ACL rules of the stores (docs/store.md) on a
    server of that version: ``CLIENT SETINFO`` exists from 7.2."""
    rules = ["on", "resetkeys", "~ai-tools:*", "resetchannels", "-@all", "+evalsha", "+eval"]
    rules += ["+del", "+exists", "+hget", "+hset", "+hexists", "+hincrby", "+hgetall"]
    rules += ["+pexpire", "+ping", "+hello", "+client|setname"]
    return [*rules, "+client|setinfo"] if version >= (7, 2) else rules


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pong(port: int, tls: ssl.SSLContext | None) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as raw:
            s = raw if tls is None else tls.wrap_socket(raw, server_hostname="localhost")
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith((b"+PONG", b"-NOAUTH"))
    except OSError:
        return False


def _write_certificates(folder: Path) -> None:
    """``ca.crt`` and the server's ``server.crt``/``server.key`` (for
    ``localhost`` and ``127.0.0.1``) in ``folder``, made now."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)

    def certificate(
        name: str, key: ec.EllipticCurvePrivateKey, issuer: x509.Name
    ) -> x509.CertificateBuilder:
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        return (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(issuer)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
        )

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "ai-tools test ca")])
    ca = (
        certificate("ai-tools test ca", ca_key, ca_name)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    server = (
        certificate("localhost", key, ca_name)
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    (folder / "ca.crt").write_bytes(ca.public_bytes(pem))
    (folder / "server.crt").write_bytes(server.public_bytes(pem))
    (folder / "server.key").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )


class RedisServer:
    """One redis-server process on 127.0.0.1; ``start`` again (after
    ``kill`` or ``stop``) reuses the port, with no data: a restart without
    persistence. With ``tls`` it only takes TLS connections (``ca_file``
    is the CA to trust); with ``acl_password`` it has the user
    :data:`ACL_USER` (``user_url``); ``args`` are more options."""

    def __init__(
        self, *, tls: bool = False, acl_password: str | None = None, args: Sequence[str] = ()
    ) -> None:
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
        self.tls = tls
        self.acl_password = acl_password
        self._args = list(args)
        self._context: ssl.SSLContext | None = None
        if tls:
            _write_certificates(Path(self._dir.name))
            self._context = ssl.create_default_context(cafile=self.ca_file)

    @property
    def ca_file(self) -> str:
        """The CA certificate (PEM) of a TLS server."""
        return str(Path(self._dir.name) / "ca.crt")

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:<port>/0`` (``rediss://localhost:…`` with TLS),
        the default user's."""
        host = "localhost" if self.tls else "127.0.0.1"
        return f"{'rediss' if self.tls else 'redis'}://{host}:{self.port}/0"

    @property
    def user_url(self) -> str:
        """The URL of the ACL user, its password included."""
        scheme, rest = self.url.split("://")
        return f"{scheme}://{ACL_USER}:{self.acl_password}@{rest}"

    def version(self) -> tuple[int, int]:
        """The server's major and minor version."""
        out = subprocess.run([self.binary, "--version"], capture_output=True, text=True).stdout
        found = re.search(r"v=(\d+)\.(\d+)", out)
        return (int(found[1]), int(found[2])) if found else (0, 0)

    def start(self) -> None:
        """Start it and wait for its PONG (10 s at most)."""
        port = ["--port", str(self.port)]
        if self.tls:
            folder = Path(self._dir.name)
            port = ["--port", "0", "--tls-port", str(self.port), "--tls-auth-clients", "no"]
            port += ["--tls-cert-file", str(folder / "server.crt")]
            port += [
                "--tls-key-file",
                str(folder / "server.key"),
                "--tls-ca-cert-file",
                self.ca_file,
            ]
        args = [self.binary, *port, "--bind", "127.0.0.1"]
        args += ["--save", "", "--appendonly", "no", "--dir", self._dir.name, *self._args]
        if self.acl_password is not None:
            args += ["--user", ACL_USER, f">{self.acl_password}", *acl_rules(self.version())]
        self._proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not _pong(self.port, self._context):
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
def running_redis(
    *, tls: bool = False, acl_password: str | None = None, args: Sequence[str] = ()
) -> Iterator[RedisServer]:
    """A started :class:`RedisServer`, stopped on exit."""
    server = RedisServer(tls=tls, acl_password=acl_password, args=args)
    try:
        server.start()
        yield server
    finally:
        server.stop()
