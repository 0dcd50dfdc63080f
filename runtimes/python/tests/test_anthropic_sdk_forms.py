"""The generator's Anthropic strict form is what Anthropic's own SDK makes of
the schema (docs/compat.md, "What providers accept"): ``transform_schema``
of the ``anthropic`` package (the version pinned in requirements-dev.txt)
run on the strict stop form of every strict tool of the generated test
module, and on every ``input`` of e2e/vectors/providers/anthropic-strict.json
(whose ``expect`` the generator's vitest checks its own form against),
compared as parsed values."""

from __future__ import annotations

import json
from typing import Any

import ai_tools_gen
import anthropic
import pytest
from anthropic import transform_schema
from conftest import VECTORS

from ai_tools_runtime import AgentTool, anthropic_tool, gemini_function_declaration

PINNED = "2.17.0"


def test_the_pinned_sdk_is_the_one_installed() -> None:
    assert anthropic.__version__ == PINNED


def stop_form(tool: AgentTool) -> dict[str, Any]:
    """The schema a strict tool's ``anthropicStrict`` form is made from: its
    stop form (recursion cut at a closed empty object), which is what Gemini
    gets of a strict tool (``forms["gemini"]`` where it differs from
    ``parameters``: a tool generated with providers=openai keeps its
    recursion in ``parameters``)."""
    schema = gemini_function_declaration(tool)["parameters_json_schema"]
    assert isinstance(schema, dict)
    return schema


STRICT_TOOLS = [t for t in ai_tools_gen.ALL_TOOLS if t.strict]


def test_the_generated_module_has_strict_tools() -> None:
    assert len(STRICT_TOOLS) >= 3


@pytest.mark.parametrize("tool", STRICT_TOOLS, ids=lambda t: str(t.name))
def test_generated_anthropic_strict_form_is_the_sdks(tool: AgentTool) -> None:
    expected = transform_schema(stop_form(tool))
    assert anthropic_tool(tool, strict=True)["input_schema"] == expected


def _strict_vectors() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(
        (VECTORS / "providers" / "anthropic-strict.json").read_text(encoding="utf-8")
    )["cases"]
    return cases


@pytest.mark.parametrize("case", _strict_vectors(), ids=lambda c: str(c["name"]))
def test_anthropic_strict_vectors_are_the_sdks(case: dict[str, Any]) -> None:
    assert transform_schema(case["input"]) == case["expect"]
