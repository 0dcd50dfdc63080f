"""The executor's overhead before and after a change (bench.py --before REV):
the runtime at REV, extracted with git archive, imported under another name
next to this one; both call the test server of tests/gen (vectors.proto) on
a local socket, alternating with the same RPC made directly."""

from __future__ import annotations

import dataclasses
import importlib.util
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc

HERE = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(HERE / "tests"), str(HERE / "tests" / "gen")]

WARMUP = 300
RUNS = 3000

# A call that every stage looks at: nested messages, a list, a map with
# message values, enums, a Value; 20 keys, 3 levels (fixup_loose, echoed).
ARGS = {
    "labels": {"env": "prod", "team": "core"},
    "items_by_num": {"1": {"name": "a", "counts": {"x": 1, "y": 2}, "owner_id": ""}},
    "flags": {"true": "yes"},
    "item": {"name": "b", "children": [{"name": "c"}]},
    "items": [{"name": "d", "payload": "AQID"}, {"name": "e"}],
    "note": "a note",
    "value_map": {"k": {"x": 1}},
    "display_name": "name",
    "count": 3,
    "enabled": True,
    "timeout": "1.5s",
    "level": "LEVEL_HIGH",
}


def _runtime_at(rev: str, into: Path) -> ModuleType:
    """ai_tools_runtime as it was at ``rev``, imported as ``ai_tools_runtime_before``."""
    repo = HERE.parent.parent
    tar = subprocess.run(
        ["git", "-C", str(repo), "archive", rev, "runtimes/python/src/ai_tools_runtime"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(into, filter="data")
    package = into / "runtimes" / "python" / "src" / "ai_tools_runtime"
    spec = importlib.util.spec_from_file_location(
        "ai_tools_runtime_before",
        package / "__init__.py",
        submodule_search_locations=[str(package)],
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ai_tools_runtime_before"] = module
    spec.loader.exec_module(module)
    return module


def _medians_us(calls: list[Callable[[], object]]) -> list[float]:
    """The median µs of each call, the calls alternating after a warm-up."""
    for _ in range(WARMUP):
        for c in calls:
            c()
    times: list[list[float]] = [[] for _ in calls]
    for _ in range(RUNS):
        for i, c in enumerate(calls):
            start = time.perf_counter()
            c()
            times[i].append(time.perf_counter() - start)
    return [statistics.median(t) * 1e6 for t in times]


@contextmanager
def test_server() -> Iterator[tuple[grpc.Channel, Any]]:
    """A channel to the test server of tests/gen on a local socket, and its
    FixupService (whose ``received`` the calls should clear)."""
    from aitest.v1 import vectors_pb2_grpc
    from conftest import AccountServer, FixupServer, StatusInjector

    inject = StatusInjector()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    vectors_pb2_grpc.add_AccountServiceServicer_to_server(AccountServer(inject), server)
    fixup = FixupServer(inject)
    vectors_pb2_grpc.add_FixupServiceServicer_to_server(fixup, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield channel, fixup
    finally:
        server.stop(None)


def fixup_call(executor: Any, fixup: Any, text: str) -> Callable[[], object]:
    """One call of fixup_loose with ``text`` through ``executor``."""

    def call() -> object:
        fixup.received.clear()
        return executor.execute("fixup_loose", text)

    return call


def compare(rev: str) -> None:
    import ai_tools_gen
    from aitest.v1 import vectors_pb2, vectors_pb2_grpc
    from google.protobuf import json_format

    import ai_tools_runtime

    with tempfile.TemporaryDirectory() as tmp:
        before = _runtime_at(rev, Path(tmp))
        with test_server() as (channel, fixup):
            methods = list(ai_tools_gen._TOOL_METHODS)
            old_methods = [
                before.ToolMethod(
                    **{f.name: getattr(m, f.name) for f in dataclasses.fields(before.ToolMethod)}
                )
                for m in methods
            ]
            after_exec = ai_tools_runtime.Executor(channel, methods, ai_tools_gen.ALIAS_CONFIG)
            before_exec = before.Executor(channel, old_methods, ai_tools_gen.ALIAS_CONFIG)
            text = json.dumps(ARGS)
            request = json_format.Parse(text, vectors_pb2.FixupRequest())
            stub = vectors_pb2_grpc.FixupServiceStub(channel)

            def direct() -> Any:
                fixup.received.clear()
                return stub.EchoLoose(request, timeout=30)

            def run(e: Any) -> Callable[[], object]:
                return fixup_call(e, fixup, text)

            assert json.loads(after_exec.execute("fixup_loose", text))["count"] == 3
            for round_ in (1, 2):
                d, b, a = _medians_us([direct, run(before_exec), run(after_exec)])
                print(
                    f"bench: executor round {round_} ({RUNS} calls each, alternating, "
                    f"median): direct gRPC {d:.0f} µs, before ({rev}) {b:.0f} µs, "
                    f"after {a:.0f} µs; the change {a - b:+.0f} µs = "
                    f"{(a - b) / d * 100:+.1f}% of a local call "
                    f"(executor overhead {(b - d) / d * 100:.0f}% → {(a - d) / d * 100:.0f}%)"
                )
