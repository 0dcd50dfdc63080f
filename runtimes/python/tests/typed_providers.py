"""Checked by mypy (the package's build step), not run: each adapter's
result, unpacked into the official SDK's own parameter type. mypy refuses a
key the SDK type lacks, a value of another type, or a missing required key."""

from __future__ import annotations

from anthropic.types import (
    TextBlockParam,
    ToolParam,
    ToolReferenceBlockParam,
    ToolResultBlockParam,
    ToolSearchToolBm25_20251119Param,
    ToolSearchToolRegex20251119Param,
)
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionFunctionToolParam, ChatCompletionToolParam
from openai.types.responses import (
    FunctionToolParam,
    NamespaceToolParam,
    ResponseToolSearchOutputItemParamParam,
    ToolSearchOutputNamespaceToolParam,
    ToolSearchToolParam,
)
from openai.types.responses.namespace_tool_param import ToolFunction as NamespaceToolFunction
from openai.types.shared_params import FunctionDefinition

from ai_tools_runtime import (
    AgentTool,
    anthropic_tool,
    gemini_function_declaration,
    gemini_tool,
    openai_chat_tool,
    openai_responses_tool,
)
from ai_tools_runtime.providers import (
    AnthropicTextBlock,
    AnthropicTool,
    AnthropicToolReference,
    AnthropicToolSearchBm25Tool,
    AnthropicToolSearchRegexTool,
    OpenAINamespaceFunction,
    OpenAINamespaceTool,
    OpenAIToolSearchOutput,
    OpenAIToolSearchTool,
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

# The deferred requests' items (DeferredTools), each key copied by hand the same way.
ns_fn: OpenAINamespaceFunction = {
    "type": "function",
    "name": "F",
    "description": "d",
    "parameters": {},
    "strict": True,
    "defer_loading": True,
}
ns: OpenAINamespaceTool = {"type": "namespace", "name": "N", "description": "d", "tools": [ns_fn]}
sdk_fn: NamespaceToolFunction = {
    "type": ns_fn["type"],
    "name": ns_fn["name"],
    "description": ns_fn.get("description"),
    "parameters": ns_fn.get("parameters"),
    "strict": ns_fn.get("strict"),
    "defer_loading": ns_fn.get("defer_loading", False),
}
sdk_ns: NamespaceToolParam = {
    "type": ns["type"],
    "name": ns["name"],
    "description": ns["description"],
    "tools": [sdk_fn],
}
search: OpenAIToolSearchTool = {"type": "tool_search", "execution": "client"}
sdk_search: ToolSearchToolParam = {
    "type": search["type"],
    "execution": search.get("execution", "server"),
    "description": search.get("description"),
    "parameters": search.get("parameters"),
}
output: OpenAIToolSearchOutput = {
    "type": "tool_search_output",
    "call_id": "c",
    "execution": "client",
    "status": "completed",
    "tools": [ns],
}
sdk_output_ns: ToolSearchOutputNamespaceToolParam = {
    "type": ns["type"],
    "name": ns["name"],
    "description": ns["description"],
    "tools": [sdk_fn],
}
sdk_output: ResponseToolSearchOutputItemParamParam = {
    "type": output["type"],
    "call_id": output.get("call_id"),
    "execution": output.get("execution", "client"),
    "status": output.get("status"),
    "tools": [sdk_output_ns],
}
deferred: AnthropicTool = {"name": "t", "input_schema": {}, "defer_loading": True}
sdk_deferred: ToolParam = {
    "name": deferred["name"],
    "input_schema": deferred["input_schema"],
    "defer_loading": deferred.get("defer_loading", False),
}
bm25: AnthropicToolSearchBm25Tool = {
    "type": "tool_search_tool_bm25_20251119",
    "name": "tool_search_tool_bm25",
}
sdk_bm25: ToolSearchToolBm25_20251119Param = {"type": bm25["type"], "name": bm25["name"]}
regex: AnthropicToolSearchRegexTool = {
    "type": "tool_search_tool_regex_20251119",
    "name": "tool_search_tool_regex",
}
sdk_regex: ToolSearchToolRegex20251119Param = {"type": regex["type"], "name": regex["name"]}
reference: AnthropicToolReference = {"type": "tool_reference", "tool_name": "t"}
sdk_reference: ToolReferenceBlockParam = {
    "type": reference["type"],
    "tool_name": reference["tool_name"],
}
text: AnthropicTextBlock = {"type": "text", "text": "none"}
sdk_text: TextBlockParam = {"type": text["type"], "text": text["text"]}
sdk_result: ToolResultBlockParam = {
    "type": "tool_result",
    "tool_use_id": "u",
    "content": [sdk_reference, sdk_text],
}
