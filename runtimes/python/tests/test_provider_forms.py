"""The provider adapters against the shared vectors
e2e/vectors/providers/adapters.json (format in its description), run
unchanged, and the per-request limits they enforce."""

from __future__ import annotations

import json
from typing import Any, Literal

import pytest
from conftest import VECTORS
from google.genai import types as genai_types
from toolset import ACCOUNTS_CREATE

from ai_tools_runtime import (
    AgentTool,
    anthropic_tools,
    gemini_function_declaration,
    gemini_tool,
    openai_chat_tool,
    openai_chat_tools,
    openai_responses_tools,
)

ADAPTERS: dict[str, Any] = json.loads(
    (VECTORS / "providers" / "adapters.json").read_text(encoding="utf-8")
)
GEMINI_FORMS: dict[str, Literal["parameters_json_schema", "parameters"]] = {
    "parametersJsonSchema": "parameters_json_schema",
    "parameters": "parameters",
}


def _vector_tool(spec: dict[str, Any]) -> AgentTool:
    return AgentTool(
        spec["name"], spec["description"], spec["strict"], spec["parameters"], spec.get("forms")
    )


def _gemini_in_vector_keys(tool: Any) -> dict[str, Any]:
    """gemini_tool's output with the keys the vectors use (the API's JSON names)."""
    keys = {v: k for k, v in GEMINI_FORMS.items()}
    declarations = [
        {keys.get(k, k): v for k, v in d.items()} for d in tool["function_declarations"]
    ]
    return {"functionDeclarations": declarations}


def _run_adapter(case: dict[str, Any]) -> Any:
    tools = [_vector_tool(ADAPTERS["tools"][t]) for t in case["tools"]]
    options = case.get("options", {})
    match case["adapter"]:
        case "openaiChat":
            return openai_chat_tools(tools)
        case "openaiResponses":
            return openai_responses_tools(tools)
        case "anthropic":
            return anthropic_tools(tools, strict=options["strict"])
        case "gemini":
            return _gemini_in_vector_keys(gemini_tool(tools, form=GEMINI_FORMS[options["form"]]))
    raise AssertionError(f"unknown adapter {case['adapter']!r}")


@pytest.mark.parametrize("case", ADAPTERS["cases"], ids=lambda c: str(c["name"]))
def test_adapters_vectors(case: dict[str, Any]) -> None:
    if "expectError" in case:
        with pytest.raises(ValueError) as e:
            _run_adapter(case)
        assert case["expectError"] in str(e.value)
    else:
        assert _run_adapter(case) == case["expect"]


def _tools(count: int, *, strict: bool, optional: int = 0, unions: int = 0) -> list[AgentTool]:
    """``count`` tools as generated, each with the given parameter counts."""
    closed = {
        "type": "object",
        "properties": {"url": {"type": "string"}},
        "required": ["url"],
        "additionalProperties": False,
    }
    forms: dict[str, Any] = {"geminiParameters": None}
    if strict:
        forms["anthropicStrict"] = closed
        forms["anthropicStrictCounts"] = {"optional": optional, "unions": unions}
    return [AgentTool(f"tool_{i}", "d", strict, closed, forms) for i in range(count)]


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


def test_anthropic_tools_sums_the_generated_counts_up_to_16_unions_and_24_optional() -> None:
    assert len(anthropic_tools(_tools(8, strict=True, unions=2, optional=3), strict=True)) == 8
    with pytest.raises(
        ValueError,
        match=r"^17 parameters with a union type across the strict tools in one request: ",
    ):
        anthropic_tools(_tools(17, strict=True, unions=1), strict=True)
    with pytest.raises(
        ValueError, match=r"^25 optional parameters across the strict tools in one request: "
    ):
        anthropic_tools(_tools(5, strict=True, optional=5), strict=True)
    # The counts are the generator's: the schema itself is not looked at.
    assert len(anthropic_tools(_tools(25, strict=True, optional=1), strict=False)) == 25


def test_a_strict_tool_without_an_anthropic_strict_form_sends_its_parameters() -> None:
    # A generated strict tool whose Anthropic strict form equals its
    # parameters may leave the form out (like the other forms); only a tool
    # without forms at all is refused.
    (tool,) = _tools(1, strict=True)
    assert tool.forms is not None
    forms = {k: v for k, v in tool.forms.items() if k != "anthropicStrict"}
    bare = AgentTool(tool.name, tool.description, True, tool.parameters, forms)
    assert anthropic_tools([bare], strict=True) == [
        {"name": "tool_0", "description": "d", "input_schema": bare.schema(), "strict": True}
    ]


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
