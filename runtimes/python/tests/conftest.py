"""Shared fixtures: the generated test protos on sys.path, the vectors, and
an in-process gRPC server (real socket on 127.0.0.1) implementing the
services of e2e/vectors/proto/aitest/v1/vectors.proto."""

from __future__ import annotations

import json
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
VECTORS = REPO / "e2e" / "vectors"
GEN = HERE / "gen"

if not (GEN / "aitest" / "v1" / "vectors_pb2.py").exists():
    raise RuntimeError(
        "tests/gen is missing: run `python scripts/generate.py` (the package's generate script)"
    )
sys.path.insert(0, str(GEN))

from aitest.v1 import vectors_pb2, vectors_pb2_grpc  # noqa: E402


def load_vectors(kind: str) -> list[dict[str, Any]]:
    files = sorted((VECTORS / kind).glob("*.json"))
    if not files:
        raise RuntimeError(f"no vectors in {VECTORS / kind}")
    return [json.loads(f.read_text(encoding="utf-8")) for f in files]


def new_uuid() -> str:
    return str(uuid.uuid4())


class AccountServer(vectors_pb2_grpc.AccountServiceServicer):
    """Accounts with fresh UUIDs; MergeAccounts fails NOT_FOUND on an unknown source."""

    def __init__(self) -> None:
        self.accounts: dict[str, vectors_pb2.Account] = {}
        self.received: list[Any] = []
        self.metadata: list[tuple[tuple[str, Any], ...]] = []

    def _account(self, name: str = "", owner_id: str = "", notes: int = 0) -> vectors_pb2.Account:
        account = vectors_pb2.Account(
            id=new_uuid(),
            name=name,
            owner_id=owner_id,
            workspace_id=new_uuid(),
            notes=[vectors_pb2.Note(id=new_uuid(), text=f"note {i}") for i in range(notes)],
        )
        self.accounts[account.id] = account
        return account

    def CreateAccount(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        self.metadata.append(tuple(context.invocation_metadata()))
        if request.name == "slow":
            time.sleep(0.5)
        account = self._account(request.name, request.owner_id, request.note_count)
        return vectors_pb2.CreateAccountResponse(account=account)

    def ListAccounts(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        return vectors_pb2.ListAccountsResponse(
            accounts=[self._account(f"a{i}") for i in range(request.count)]
        )

    def MergeAccounts(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        if request.source_id not in self.accounts:
            context.set_trailing_metadata((("raw-id", request.source_id),))
            context.abort(grpc.StatusCode.NOT_FOUND, f'account "{request.source_id}" not found')
        target = self.accounts.get(request.target_id) or self._account()
        return vectors_pb2.MergeAccountsResponse(
            account=target, received_source_id=request.source_id
        )

    def WatchAccounts(self, request: Any, context: Any) -> Iterator[Any]:
        self.received.append(request)
        for i in range(request.count):
            yield self._account(f"w{i}")
        if request.count == 3:
            return


class FixupServer(vectors_pb2_grpc.FixupServiceServicer):
    def __init__(self) -> None:
        self.received: list[Any] = []

    def EchoStrict(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        return request

    def EchoLoose(self, request: Any, context: Any) -> Any:
        self.received.append(request)
        return request


class Servers:
    def __init__(self, target: str, accounts: AccountServer, fixup: FixupServer) -> None:
        self.target = target
        self.accounts = accounts
        self.fixup = fixup


@pytest.fixture
def servers() -> Iterator[Servers]:
    accounts, fixup = AccountServer(), FixupServer()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    vectors_pb2_grpc.add_AccountServiceServicer_to_server(accounts, server)
    vectors_pb2_grpc.add_FixupServiceServicer_to_server(fixup, server)
    port = server.add_insecure_port("127.0.0.1:0")
    assert port > 0
    server.start()
    try:
        yield Servers(f"127.0.0.1:{port}", accounts, fixup)
    finally:
        server.stop(grace=None)


@pytest.fixture
def channel(servers: Servers) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(servers.target) as ch:
        yield ch
