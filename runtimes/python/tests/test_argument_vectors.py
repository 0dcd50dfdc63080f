"""The shared argument-check vectors of e2e/vectors/arguments, run unchanged:
stages 1 and 2 (one JSON object; unknown and missing required fields;
FieldMask paths) against each vector's argument table, read from its JSON
text as generated code hands it over, the model-facing text of the
violations, and (``checked``) the arguments after the check, masks in
their wire form."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import load_vectors

from ai_tools_runtime._argument_check import check_argument_text, parse_argument_table
from ai_tools_runtime._json import encode_json
from ai_tools_runtime._violations import invalid_arguments_text

VECTORS = load_vectors("arguments")
CASES = [(v, c) for v in VECTORS for c in v["cases"]]
IDS = [f"{v['name']}: {c['name']}" for v, c in CASES]


@pytest.mark.parametrize(("vector", "case"), CASES, ids=IDS)
def test_argument_vector(vector: dict[str, Any], case: dict[str, Any]) -> None:
    table = parse_argument_table(json.dumps(case.get("arguments", vector.get("arguments"))))
    checked, found = check_argument_text(
        case["args"],
        table,
        extra_root=case.get("extraRoot", ()),
        lenient=case.get("lenient", False),
    )
    got = [{"field": v.field, "reason": v.reason, "message": v.message} for v in found]
    assert got == case["expect"]
    if found:
        assert invalid_arguments_text(found) == case["text"]
    if "checked" in case:
        assert json.loads(encode_json(checked)) == case["checked"]


def test_every_case_ran() -> None:
    assert len(CASES) >= 37
    reasons = {v["reason"] for _, c in CASES for v in c["expect"]}
    assert reasons == {
        "invalid-json",
        "not-an-object",
        "unknown-field",
        "required",
        "invalid-value",
    }
    assert sum("checked" in c for _, c in CASES) >= 9


def test_a_table_that_is_not_one_is_named() -> None:
    with pytest.raises(ValueError, match="invalid argument table"):
        parse_argument_table('{"nodes":[{"fields":{"a":{"node":3}}}]}')
