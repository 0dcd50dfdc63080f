"""Checked by mypy (the package's build step), not run: each adapter's
result, unpacked into the official SDK's own parameter type. mypy refuses a
key the SDK type lacks, a value of another type, or a missing required key."""

from __future__ import annotations

from anthropic.types import ToolParam
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionFunctionToolParam, ChatCompletionToolParam
from openai.types.responses import FunctionToolParam
from openai.types.shared_params import FunctionDefinition

from ai_tools_runtime import (
    AgentTool,
    anthropic_tool,
    gemini_function_declaration,
    gemini_tool,
    openai_chat_tool,
    openai_responses_tool,
)

TOOL = AgentTool("t", "d", True, {"type": "object"})

# Each key copied by hand: mypy checks every value against the SDK's type and
# that the SDK's required keys are there; tests/test_providers.py checks that
# the adapters' TypedDicts have no key the SDK types lack.
r = openai_responses_tool(TOOL)
responses: FunctionToolParam = {
    "type": r["type"],
    "name": r["name"],
    "description": r.get("description"),
    "parameters": r["parameters"],
    "strict": r["strict"],
}
c = openai_chat_tool(TOOL)
f = c["function"]
function: FunctionDefinition = {
    "name": f["name"],
    "description": f.get("description", ""),
    "parameters": f.get("parameters", {}),
    "strict": f.get("strict"),
}
chat: ChatCompletionToolParam = {"type": c["type"], "function": function}
chat_function: ChatCompletionFunctionToolParam = chat
a = anthropic_tool(TOOL, strict=True)
anthropic: ToolParam = {
    "name": a["name"],
    "description": a.get("description", ""),
    "input_schema": a["input_schema"],
    "strict": a.get("strict", False),
}
g = gemini_function_declaration(TOOL)
gemini: genai_types.FunctionDeclarationDict = {
    "name": g.get("name"),
    "description": g.get("description"),
    "parameters_json_schema": g.get("parameters_json_schema"),
}
gemini_tools: genai_types.ToolDict = {"function_declarations": [gemini]}
declaration = genai_types.FunctionDeclaration(**gemini_function_declaration(TOOL))
config = genai_types.GenerateContentConfig(
    # (a ToolDict is not a ToolUnion when the mcp package is installed)
    tools=[
        genai_types.Tool(function_declarations=[declaration]),
        genai_types.Tool.model_validate(gemini_tools),
    ]
)
_ = gemini_tool
