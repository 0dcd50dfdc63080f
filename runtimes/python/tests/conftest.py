"""Shared fixtures: the generated test protos and ai_tools_gen.py (of
e2e/vectors/proto/aitest/v1/vectors.proto) on sys.path, the vectors, and an
in-process gRPC server (real socket on 127.0.0.1) implementing that proto's
services, which can be told to answer the next call with a given status."""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import anyio
import grpc
import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
VECTORS = REPO / "e2e" / "vectors"
GEN = HERE / "gen"

if (
    not (GEN / "aitest" / "v1" / "vectors_pb2.py").exists()
    or not (GEN / "ai_tools_gen.py").exists()
):
    raise RuntimeError(
        "tests/gen is missing: run `python scripts/generate.py` (the package's generate script)"
    )
sys.path.insert(0, str(GEN))

# Compute Engine's deferred requests (988 tools, a 16 MB generated module) are
# the nightly run's (bash scripts/nightly.sh large sets AI_TOOLS_NIGHTLY=1):
# .ci/run does not collect them, rather than skip them.
collect_ignore = [] if os.environ.get("AI_TOOLS_NIGHTLY") == "1" else ["test_deferred_compute.py"]

# Imported after the sys.path entry above, which is where they are found.
from aitest.v1 import vectors_pb2, vectors_pb2_grpc  # noqa: E402


async def wait_for_port(port: int) -> None:
    """Wait (up to about 5 s) until 127.0.0.1:port accepts a connection: a
    server started in a task group is listening."""
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            await anyio.sleep(0.05)


def load_vectors(kind: str) -> list[dict[str, Any]]:
    files = sorted((VECTORS / kind).glob("*.json"))
    if not files:
        raise RuntimeError(f"no vectors in {VECTORS / kind}")
    return [json.loads(f.read_text(encoding="utf-8")) for f in files]


def new_uuid() -> str:
    return str(uuid.uuid4())


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if not n:
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def _length_delimited(field: int, data: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(data)) + data


def status_bin(code: int, message: str, details: list[Any]) -> bytes:
    """google.rpc.Status, written by hand in the protobuf wire format
    (``details``: ``google.protobuf.Any`` messages)."""
    out = _varint(1 << 3) + _varint(code) + _length_delimited(2, message.encode())
    for d in details:
        out += _length_delimited(3, d.SerializeToString())
    return out


def bad_request(violations: list[tuple[str, str]]) -> Any:
    """A ``google.protobuf.Any`` holding a google.rpc.BadRequest with these
    (field, description) field violations, written by hand."""
    from google.protobuf import any_pb2

    body = b"".join(
        _length_delimited(
            1, _length_delimited(1, field.encode()) + _length_delimited(2, text.encode())
        )
        for field, text in violations
    )
    return any_pb2.Any(type_url="type.googleapis.com/google.rpc.BadRequest", value=body)


class StatusInjector:
    """The next call (to any service) answers with this status instead."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next: tuple[grpc.StatusCode, str, tuple[tuple[str, Any], ...]] | None = None

    def fail_next(
        self, code: grpc.StatusCode, message: str, trailing: tuple[tuple[str, Any], ...] = ()
    ) -> None:
        with self._lock:
            self._next = (code, message, trailing)

    def apply(self, context: Any) -> None:
        with self._lock:
            pending, self._next = self._next, None
        if pending is not None:
            code, message, trailing = pending
            if trailing:
                context.set_trailing_metadata(trailing)
            context.abort(code, message)


class AccountServer(vectors_pb2_grpc.AccountServiceServicer):
    """Accounts with fresh UUIDs (their notes and contacts too); MergeAccounts
    fails NOT_FOUND on an unknown source."""

    def __init__(self, inject: StatusInjector) -> None:
        self.inject = inject
        self.accounts: dict[str, vectors_pb2.Account] = {}
        self.received: list[Any] = []
        self.metadata: list[tuple[tuple[str, Any], ...]] = []
        self.holding = threading.Event()
        """Set when a WatchAccounts call of count -1 holds."""
        self.cancelled = 0
        """How many held calls the client cancelled."""
        self._lock = threading.Lock()

    def _account(
        self, name: str = "", owner_id: str = "", notes: int = 0, contacts: int = 0
    ) -> vectors_pb2.Account:
        account_id = new_uuid()
        account = vectors_pb2.Account(
            id=account_id,
            name=name,
            owner_id=owner_id,
            workspace_id=new_uuid(),
            notes=[vectors_pb2.Note(id=new_uuid(), text=f"note {i}") for i in range(notes)],
            contacts=[
                vectors_pb2.Contact(
                    id=new_uuid(),
                    email=f"c{i}@example.com",
                    owner_id=account_id,
                    external_id=new_uuid(),
                )
                for i in range(contacts)
            ],
        )
        self.accounts[account.id] = account
        return account

    def CreateAccount(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        self.metadata.append(tuple(context.invocation_metadata()))
        self.inject.apply(context)
        if request.name == "slow":
            time.sleep(0.5)
        account = self._account(
            request.name, request.owner_id, request.note_count, request.contact_count
        )
        return vectors_pb2.CreateAccountResponse(account=account)

    def ListAccounts(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        self.inject.apply(context)
        return vectors_pb2.ListAccountsResponse(
            accounts=[
                self._account(f"a{i}", contacts=request.contacts_per_account)
                for i in range(request.count)
            ]
        )

    def MergeAccounts(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        self.inject.apply(context)
        if request.source_id not in self.accounts:
            context.set_trailing_metadata((("raw-id", request.source_id),))
            context.abort(grpc.StatusCode.NOT_FOUND, f'account "{request.source_id}" not found')
        target = self.accounts.get(request.target_id) or self._account()
        return vectors_pb2.MergeAccountsResponse(
            account=target, received_source_id=request.source_id
        )

    def WatchAccounts(self, request: Any, context: Any) -> Iterator[Any]:
        self.received.append(request)
        self.inject.apply(context)
        if request.count < 0:
            # Test hook: hold the call until the client cancels it (30 s at
            # most); count the cancellations seen.
            ended = threading.Event()
            context.add_callback(ended.set)
            self.holding.set()
            ended.wait(30)
            if not context.is_active():
                with self._lock:
                    self.cancelled += 1
            return
        for i in range(request.count):
            yield self._account(f"w{i}", contacts=1)


class FixupServer(vectors_pb2_grpc.FixupServiceServicer):
    """Echoes every request."""

    def __init__(self, inject: StatusInjector) -> None:
        self.inject = inject
        self.received: list[Any] = []

    def EchoStrict(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        self.inject.apply(context)
        return request

    def EchoLoose(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        self.inject.apply(context)
        return request


class Servers:
    def __init__(
        self, target: str, accounts: AccountServer, fixup: FixupServer, inject: StatusInjector
    ) -> None:
        self.target = target
        self.accounts = accounts
        self.fixup = fixup
        self.inject = inject

    def received(self) -> int:
        """How many calls the servers received."""
        return len(self.accounts.received) + len(self.fixup.received)


@pytest.fixture
def servers() -> Iterator[Servers]:
    inject = StatusInjector()
    accounts, fixup = AccountServer(inject), FixupServer(inject)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    vectors_pb2_grpc.add_AccountServiceServicer_to_server(accounts, server)
    vectors_pb2_grpc.add_FixupServiceServicer_to_server(fixup, server)
    port = server.add_insecure_port("127.0.0.1:0")
    assert port > 0
    server.start()
    try:
        yield Servers(f"127.0.0.1:{port}", accounts, fixup, inject)
    finally:
        server.stop(grace=None)


@pytest.fixture
def channel(servers: Servers) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(servers.target) as ch:
        yield ch
