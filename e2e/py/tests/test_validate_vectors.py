"""The shared buf.validate vectors of e2e/vectors/validate, run unchanged
through the executor generated for the golden case validate
(gen/cases/validate, whose module makes protovalidate's Validator): rules
checked before sending, every violation with its field path in proto names
and protovalidate's message. No server listens on the channel's port: a
request that passes fails as unavailable."""

from __future__ import annotations

import json
import os
import socket
from typing import Any

import grpc
import pytest
from ai_tools_runtime import ToolError
from helpers import repo_root
from test_case_values import load_case


def _vectors() -> list[dict[str, Any]]:
    directory = os.path.join(repo_root(), "e2e", "vectors", "validate")
    files = sorted(f for f in os.listdir(directory) if f.endswith(".json"))
    assert files, f"no vectors in {directory}"
    out = []
    for name in files:
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            out.append(json.load(f))
    return out


VECTORS = _vectors()
CASES = [(v, c) for v in VECTORS for c in v["cases"]]


def _unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.mark.parametrize(("vector", "case"), CASES, ids=[c["name"] for _, c in CASES])
def test_validate_vector(vector: dict[str, Any], case: dict[str, Any]) -> None:
    module, _ = load_case("validate")
    args = {**vector["base"], **case.get("set", {})}
    for name in case.get("unset", []):
        args.pop(name, None)
    with grpc.insecure_channel(f"127.0.0.1:{_unused_port()}") as channel:
        executor = module.Executor(channel, timeout=5)
        for r in vector["register"]:
            executor.aliases.register(r["prefix"], r["uuid"])
        with pytest.raises(ToolError) as caught:
            executor.execute(vector["tool"], json.dumps(args))
    err, expect = caught.value, case["expect"]
    assert (err.reason, err.code.name) == (expect["reason"], expect["code"]), str(err)
    if "violations" in expect:
        got = [{"field": v.field, "reason": v.reason, "message": v.message} for v in err.violations]
        assert got == expect["violations"]
        assert str(err) == expect["message"]


def test_every_case_ran() -> None:
    assert len(CASES) >= 7
    assert {c["expect"]["reason"] for _, c in CASES} == {"unavailable", "failed-validation"}
