"""The shared result vectors of e2e/vectors/results, run unchanged: a
well-known message read from its proto3 JSON and written as the executor
writes a result, by default (``expect``: proto names) and with
``json_names=True`` (``expectJsonNames``: JSON names)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import load_vectors
from google.protobuf import json_format, message_factory, type_pb2

from ai_tools_runtime import Executor

VECTORS = load_vectors("results")
CASES = [(v, c) for v in VECTORS for c in v["cases"]]
IDS = [f"{v['name']}: {c['name']}" for v, c in CASES]
# The pool holding type.proto's messages, which the cases name.
POOL = type_pb2.DESCRIPTOR.pool


def test_there_are_vectors() -> None:
    assert CASES


@pytest.mark.parametrize(("vector", "case"), CASES, ids=IDS)
def test_result_vector(vector: dict[str, Any], case: dict[str, Any]) -> None:
    desc = POOL.FindMessageTypeByName(case["message"])
    message = json_format.ParseDict(case["input"], message_factory.GetMessageClass(desc)())
    before = message.SerializeToString(deterministic=True)
    # The executor's own writer (_Base._to_json), no call made: the text
    # the model reads, not aliasified.
    for json_names, want in ((False, case["expect"]), (True, case["expectJsonNames"])):
        executor = Executor(None, [], json_names=json_names)
        assert executor._to_json(message)[1] == want, f"json_names={json_names}"
    # The message itself is left as it was.
    assert message.SerializeToString(deterministic=True) == before
