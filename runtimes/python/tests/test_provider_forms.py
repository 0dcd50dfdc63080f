"""The per-request limits the provider adapters enforce, the Gemini
``parameters`` form, and the shared vectors of e2e/vectors/providers (format
in e2e/vectors/README.md), run unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import VECTORS
from google.genai import types as genai_types
from toolset import ACCOUNTS_CREATE

from ai_tools_runtime import (
    AgentTool,
    anthropic_strict_schema,
    anthropic_tool,
    anthropic_tools,
    count_anthropic_strict_parameters,
    gemini_function_declaration,
    gemini_parameters,
    gemini_tool,
    openai_chat_tool,
    openai_chat_tools,
    openai_responses_tools,
)


def _cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(
        (VECTORS / "providers" / name).read_text(encoding="utf-8")
    )["cases"]
    return cases


@pytest.mark.parametrize("case", _cases("gemini-parameters.json"), ids=lambda c: str(c["name"]))
def test_gemini_parameters_vectors(case: dict[str, Any]) -> None:
    assert gemini_parameters(case["input"]) == case["expect"]


@pytest.mark.parametrize("case", _cases("anthropic-strict.json"), ids=lambda c: str(c["name"]))
def test_anthropic_strict_vectors(case: dict[str, Any]) -> None:
    assert anthropic_strict_schema(case["input"]) == case["expect"]
    tool = AgentTool("t", "d", True, case["input"])
    assert anthropic_tool(tool, strict=True)["input_schema"] == case["expect"]
    assert anthropic_tool(tool)["input_schema"] == case["input"]


@pytest.mark.parametrize(
    "case", _cases("anthropic-strict-counts.json"), ids=lambda c: str(c["name"])
)
def test_anthropic_strict_counts_vectors(case: dict[str, Any]) -> None:
    counts = count_anthropic_strict_parameters(case["input"])
    assert {"optional": counts.optional, "unions": counts.unions} == case["expect"]


def _tools(count: int, *, strict: bool, schema: dict[str, Any] | None = None) -> list[AgentTool]:
    closed = {
        "type": "object",
        "properties": {"url": {"type": "string"}},
        "required": ["url"],
        "additionalProperties": False,
    }
    return [AgentTool(f"tool_{i}", "d", strict, schema or closed) for i in range(count)]


def test_anthropic_tools_takes_20_strict_tools_and_refuses_21() -> None:
    assert len(anthropic_tools(_tools(20, strict=True), strict=True)) == 20
    with pytest.raises(ValueError) as e:
        anthropic_tools(_tools(21, strict=True), strict=True)
    assert str(e.value) == (
        "21 strict tools in one request: Anthropic strict tool use takes at most 20; "
        "send fewer tools with strict"
    )
    # Without strict, or with tools that are not strict, no limit applies.
    assert len(anthropic_tools(_tools(21, strict=True))) == 21
    assert len(anthropic_tools(_tools(21, strict=False), strict=True)) == 21


def test_anthropic_tools_refuses_more_than_16_union_parameters() -> None:
    union = {
        "type": "object",
        "properties": {"note": {"type": ["string", "null"]}},
        "required": ["note"],
        "additionalProperties": False,
    }
    assert len(anthropic_tools(_tools(16, strict=True, schema=union), strict=True)) == 16
    with pytest.raises(
        ValueError,
        match=r"^17 parameters with a union type across the strict tools in one request: ",
    ):
        anthropic_tools(_tools(17, strict=True, schema=union), strict=True)


def test_anthropic_tools_refuses_more_than_24_optional_parameters() -> None:
    schema = {
        "type": "object",
        "properties": {f"p{i}": {"type": "string"} for i in range(25)},
        "required": [],
        "additionalProperties": False,
    }
    with pytest.raises(
        ValueError, match=r"^25 optional parameters across the strict tools in one request: "
    ):
        anthropic_tools(_tools(1, strict=True, schema=schema), strict=True)


def test_openai_tool_lists_take_128_tools_and_refuse_129() -> None:
    few = _tools(128, strict=True)
    assert openai_chat_tools(few) == [openai_chat_tool(t) for t in few]
    assert len(openai_responses_tools(few)) == 128
    for build in (openai_chat_tools, openai_responses_tools):
        with pytest.raises(ValueError) as e:
            build(_tools(129, strict=True))
        assert str(e.value) == (
            "129 tools in one request: OpenAI takes at most 128; send a subset of the tools"
        )


def test_gemini_tool_takes_512_declarations_and_refuses_513() -> None:
    assert len(gemini_tool(_tools(512, strict=False))["function_declarations"] or []) == 512
    with pytest.raises(ValueError) as e:
        gemini_tool(_tools(513, strict=False))
    assert str(e.value) == (
        "513 function declarations in one request: Gemini takes at most 512; "
        "send a subset of the tools"
    )


def test_gemini_parameters_form_validates_as_the_sdks_schema() -> None:
    declaration = gemini_function_declaration(ACCOUNTS_CREATE, form="parameters")
    assert "parameters_json_schema" not in declaration
    model = genai_types.FunctionDeclaration.model_validate(declaration)  # extra keys refused
    assert model.parameters is not None
    assert model.parameters.type == genai_types.Type.OBJECT
    tool = genai_types.Tool.model_validate(gemini_tool([ACCOUNTS_CREATE], form="parameters"))
    assert [d.parameters is not None for d in tool.function_declarations or []] == [True]
