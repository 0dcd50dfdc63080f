"""The generated Anthropic strict forms of every strict tool this suite
generates (the linkhub.v1 test API, the edition 2023 tools and the
generator's golden cases compact, validate and recursion: bounds, lengths,
patterns, formats, recursion cut at a closed object) are what Anthropic's
own SDK (``anthropic.transform_schema``, the version pinned in
runtimes/python/requirements-dev.txt) makes of their stop form, compared as
parsed values. runtimes/python/tests/test_anthropic_sdk_forms.py does the
same for the runtime's test module and the shared vectors. Every tool's
generated Gemini ``parameters`` form validates as google-genai's own
``FunctionDeclaration``."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from ai_tools_runtime import AgentTool, anthropic_tool, gemini_function_declaration
from anthropic import transform_schema
from edtools import ai_tools_gen as editions
from google.genai import types as genai_types
from test_case_values import load_case_module

import ai_tools_gen

MODULES: dict[str, Any] = {
    "linkhub": ai_tools_gen,
    "editions": editions,
    **{case: load_case_module(case) for case in ("compact", "validate", "recursion")},
}
STRICT_TOOLS = [
    pytest.param(tool, id=f"{module}.{tool.name}")
    for module, loaded in MODULES.items()
    for tool in loaded.ALL_TOOLS
    if tool.strict
]


def test_every_module_has_strict_tools() -> None:
    for module, loaded in MODULES.items():
        assert any(t.strict for t in loaded.ALL_TOOLS), module


@pytest.mark.parametrize("tool", STRICT_TOOLS)
def test_generated_anthropic_strict_form_is_the_sdks(tool: AgentTool) -> None:
    # The stop form (recursion cut at a closed object) is what Gemini gets
    # of a strict tool; with providers=openai (the recursion case)
    # `parameters` keeps the recursion instead.
    stop = gemini_function_declaration(tool)["parameters_json_schema"]
    assert isinstance(stop, dict)
    assert anthropic_tool(tool, strict=True)["input_schema"] == transform_schema(stop)


ALL_TOOLS = [
    pytest.param(tool, id=f"{module}.{tool.name}")
    for module, loaded in MODULES.items()
    for tool in loaded.ALL_TOOLS
]


@pytest.mark.parametrize("tool", ALL_TOOLS)
def test_generated_gemini_parameters_form_is_a_schema_of_the_sdk(tool: AgentTool) -> None:
    # google-genai's models refuse keys they do not know (extra="forbid")
    # and warn about a type outside its Type enum; they know
    # additionalProperties, which the API refuses in this form.
    declaration = gemini_function_declaration(tool, form="parameters")
    assert "additionalProperties" not in json.dumps(declaration)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = genai_types.FunctionDeclaration.model_validate(declaration)
    assert (model.parameters is None) == (
        tool.forms is None or tool.forms["geminiParameters"] is None
    )
