"""The shared response vectors of e2e/vectors/responses, run unchanged: a
response written as the executor (``expect``) and the MCP results
(``expectMcp``) write it."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from conftest import load_vectors
from google.protobuf import any_pb2, type_pb2

from ai_tools_runtime._proto_json import message_dict, message_json

VECTORS = load_vectors("responses")
CASES = [(v, c) for v in VECTORS for c in v["cases"]]
IDS = [f"{v['name']}: {c['name']}" for v, c in CASES]


def build(spec: dict[str, Any]) -> type_pb2.Option:
    """The ``google.protobuf.Option`` a vector describes."""
    option = type_pb2.Option(name=spec["name"])
    value = spec.get("value")
    if value is not None:
        if "option" in value:
            raw = build(value["option"]).SerializeToString(deterministic=True)
        else:
            raw = base64.b64decode(value.get("bytes", ""))
        option.value.CopyFrom(any_pb2.Any(type_url=value["typeUrl"], value=raw))
    return option


def test_there_are_vectors() -> None:
    assert CASES
    assert all(v["message"] == "google.protobuf.Option" for v in VECTORS)


@pytest.mark.parametrize(("vector", "case"), CASES, ids=IDS)
def test_response_vector(vector: dict[str, Any], case: dict[str, Any]) -> None:
    message = build(case["input"])
    before = message.SerializeToString(deterministic=True)
    # The executor's text: json_format's dict, written compactly.
    executor = json.dumps(message_dict(message), ensure_ascii=False, separators=(",", ":"))
    assert executor == case["expect"]
    assert message_json(message, proto_names=False, defaults=False) == case["expect"]
    assert message_json(message) == case["expectMcp"]
    # The response itself is left as it was.
    assert message.SerializeToString(deterministic=True) == before
