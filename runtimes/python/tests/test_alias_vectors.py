"""The shared alias vectors of e2e/vectors/aliases, run unchanged."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from conftest import load_vectors

from ai_tools_runtime import AliasConfig, AliasManager, ToolError

VECTORS = load_vectors("aliases")


def run_step(manager: AliasManager, step: dict[str, Any]) -> None:
    op = step["op"]
    if op == "register":
        assert manager.register(step["prefix"], step["uuid"]) == step["expect"]
    elif op == "resolveAlias":
        assert manager.resolve_alias(step["alias"]) == step["expect"]
    elif op == "registerFields":
        manager.register_fields_from_json(step["primaryPrefix"], step["json"])
    elif op == "aliasify":
        assert manager.aliasify_json(step["json"]) == step["expect"]
    elif op == "resolve":
        if "expectError" in step:
            with pytest.raises(ToolError) as caught:
                manager.resolve_json(step["json"])
            assert str(caught.value) == step["expectError"]
            assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
        else:
            assert manager.resolve_json(step["json"]) == step["expect"]
    elif op == "resolveUnchecked":
        assert manager.resolve_json(step["json"], checked=False) == step["expect"]
    elif op == "export":
        assert manager.export_state() == step["expect"]
    elif op == "restore":
        if "expectError" in step:
            before = manager.export_state()
            with pytest.raises(ValueError) as refused:
                manager.restore_state(step["json"])
            assert step["expectError"] in str(refused.value)
            assert str(refused.value).startswith("restore alias state: ")
            assert manager.export_state() == before
        else:
            manager.restore_state(step["json"])
    else:
        raise AssertionError(f"unknown op {op!r}")


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_alias_vector(vector: dict[str, Any]) -> None:
    config = AliasConfig(
        response_field_prefixes=vector["responseFieldPrefixes"],
        known_alias_prefixes=frozenset(vector["knownPrefixes"]),
    )
    manager = AliasManager(config)
    for index, step in enumerate(vector["steps"]):
        if step["op"] == "reset":
            manager = AliasManager(config)
            continue
        try:
            run_step(manager, step)
        except AssertionError as err:
            raise AssertionError(f"step {index} ({step['op']}): {err}") from err


def test_every_vector_file_ran() -> None:
    assert len(VECTORS) >= 7
    ops = {step["op"] for v in VECTORS for step in v["steps"]}
    assert ops >= {"register", "resolve", "aliasify", "export", "restore", "registerFields"}
