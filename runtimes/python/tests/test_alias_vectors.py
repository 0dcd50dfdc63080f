"""The shared alias vectors of e2e/vectors/aliases, run unchanged. The
legacy, name-keyed registration (``registerFields`` steps, and
register-fields.json, their only subject) is the Go drop-in API's alone:
skipped here, as e2e/vectors/README.md says."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from conftest import load_vectors

from ai_tools_runtime import (
    AliasConfig,
    AliasManager,
    ResponseAliases,
    ResponseAliasField,
    ResponseAliasTool,
    ToolError,
)

# Go's legacy RegisterFieldsFromJSON only (e2e/vectors/README.md).
LEGACY_ONLY = {"register-fields"}
VECTORS = [v for v in load_vectors("aliases") if v["name"] not in LEGACY_ONLY]


def response_aliases(tables: dict[str, Any] | None) -> ResponseAliases:
    """The vector's ``responseAliases`` as the generated module declares them
    (a missing prefix/message is "", a missing map or anyValue is false)."""
    if tables is None:
        return ResponseAliases()
    return ResponseAliases(
        types={
            name: tuple(
                ResponseAliasField(
                    field=f["field"],
                    prefix=f.get("prefix", ""),
                    message=f.get("message", ""),
                    is_map=f.get("map", False),
                    any_value=f.get("anyValue", False),
                )
                for f in fields
            )
            for name, fields in tables.get("types", {}).items()
        },
        tools={
            name: ResponseAliasTool(
                message=t["message"], id_prefix=t["idPrefix"], id_field=t["idField"]
            )
            for name, t in tables.get("tools", {}).items()
        },
    )


def run_step(manager: AliasManager, step: dict[str, Any]) -> None:
    op = step["op"]
    if op == "register":
        assert manager.register(step["prefix"], step["uuid"]) == step["expect"]
    elif op == "resolveAlias":
        assert manager.resolve_alias(step["alias"]) == step["expect"]
    elif op == "registerResponse":
        manager.register_response(step["tool"], step["json"])
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
        known_alias_prefixes=frozenset(vector["knownPrefixes"]),
        response_aliases=response_aliases(vector.get("responseAliases")),
    )
    manager = AliasManager(config)
    for index, step in enumerate(vector["steps"]):
        if step["op"] == "registerFields":
            continue  # legacy, Go only
        if step["op"] == "reset":
            manager = AliasManager(config)
            continue
        try:
            run_step(manager, step)
        except AssertionError as err:
            raise AssertionError(f"step {index} ({step['op']}): {err}") from err


def test_every_vector_file_ran() -> None:
    assert len(VECTORS) >= 12
    assert any(f.get("anyValue") for v in VECTORS for fs in _types(v) for f in fs)
    assert sum(v["name"].startswith("register-response-") for v in VECTORS) >= 5
    ops = {step["op"] for v in VECTORS for step in v["steps"]}
    assert ops >= {"register", "resolve", "aliasify", "export", "restore", "registerResponse"}


def _types(vector: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return list(vector.get("responseAliases", {}).get("types", {}).values())
