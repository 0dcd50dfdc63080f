"""The shared fix-up vectors of e2e/vectors/fixup, run unchanged: the fix-up
alone, the standard decoder on `expect`, and each case sent through the
executor to the echo server (stage 4 of a call: the executor's methods
without their argument tables, whose structure check the argument vectors
pin; a refusal is one violation in the executor's error shape)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import grpc
import pytest
from aitest.v1 import vectors_pb2
from conftest import Servers, load_vectors
from google.protobuf import json_format
from google.protobuf.message import Message
from toolset import ALIASES, METHODS

from ai_tools_runtime import Executor, ToolError
from ai_tools_runtime._fixup import FixupError, fix_args
from ai_tools_runtime._json import quote
from ai_tools_runtime._violations import invalid_arguments_text

VECTORS = load_vectors("fixup")
CASES = [(v, c) for v in VECTORS for c in v["cases"]]
IDS = [f"{v['name']}: {c['name']}" for v, c in CASES]


def message_type(name: str) -> type[Message]:
    assert name.startswith("aitest.v1.")
    cls: type[Message] = getattr(vectors_pb2, name.removeprefix("aitest.v1."))
    return cls


@pytest.mark.parametrize(("vector", "case"), CASES, ids=IDS)
def test_fixup_vector(vector: dict[str, Any], case: dict[str, Any]) -> None:
    cls = message_type(vector["message"])
    args = json.dumps(case["args"])
    if "expectError" in case:
        with pytest.raises(FixupError) as caught:
            fix_args(args, cls.DESCRIPTOR, vector["strict"])
        assert "failed to parse arguments: " + str(caught.value) == case["expectError"]
        return
    fixed = fix_args(args, cls.DESCRIPTOR, vector["strict"])
    assert json.loads(fixed) == case["expect"]
    json_format.Parse(json.dumps(case["expect"]), cls(), ignore_unknown_fields=True)


@pytest.mark.parametrize(("vector", "case"), CASES, ids=IDS)
def test_fixup_vector_through_executor(
    vector: dict[str, Any], case: dict[str, Any], servers: Servers, channel: grpc.Channel
) -> None:
    cls = message_type(vector["message"])
    methods = [dataclasses.replace(m, arguments=None) for m in METHODS]
    executor = Executor(channel, methods, ALIASES)
    args = json.dumps(case["args"])
    if "expectError" in case:
        with pytest.raises(ToolError) as caught:
            executor.execute(vector["tool"], args)
        err = caught.value
        assert err.reason == "invalid-arguments"
        [violation] = err.violations
        assert violation.reason == "invalid-value"
        assert case["expectError"].endswith(" " + violation.message)
        # the path as the model wrote it (a oneof clash: the second member's key)
        assert quote(violation.field) in case["expectError"] or (
            quote(violation.field.rsplit(".", 1)[-1]) in args
        )
        assert str(err) == invalid_arguments_text(err.violations)
        assert servers.fixup.received == []
        return
    out = executor.execute(vector["tool"], args)
    want = json_format.Parse(json.dumps(case["expect"]), cls(), ignore_unknown_fields=True)
    assert servers.fixup.received == [want]
    assert json_format.Parse(out, cls()) == want


def test_every_case_ran() -> None:
    assert {v["tool"] for v in VECTORS} == {"fixup_strict", "fixup_loose"}
    assert len(CASES) >= 30
