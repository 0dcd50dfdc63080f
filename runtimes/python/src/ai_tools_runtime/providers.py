"""Tool definitions in the shapes of the official provider SDKs.

The runtime depends on none of them: these TypedDicts mirror the SDKs'
parameter types (``openai.types.responses.FunctionToolParam``,
``openai.types.chat.ChatCompletionFunctionToolParam``,
``anthropic.types.ToolParam``, ``google.genai.types.FunctionDeclarationDict``),
and the tests check with mypy that each one is assignable to the SDK's own
type. Every call returns a new dict holding a deep copy of the schema.

The adapters select and wrap; they never transform a schema: each form is
the one the generator wrote in the tool's ``forms`` (docs/compat.md, "What
providers accept"), or ``parameters`` where it wrote none."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Required, TypedDict

from ._agent_tool import AgentTool, _thaw
from ._provider_limits import (
    GEMINI_MAX_FUNCTION_DECLARATIONS,
    OPENAI_MAX_TOOLS,
    check_anthropic_strict_request,
)

__all__ = [
    "AnthropicRequestTool",
    "AnthropicTextBlock",
    "AnthropicTool",
    "AnthropicToolReference",
    "AnthropicToolResultBlock",
    "AnthropicToolSearchBm25Tool",
    "AnthropicToolSearchRegexTool",
    "GeminiFunctionDeclaration",
    "OpenAIChatFunction",
    "OpenAIChatTool",
    "OpenAINamespaceFunction",
    "OpenAINamespaceTool",
    "OpenAIResponsesRequestTool",
    "OpenAIResponsesTool",
    "OpenAIToolSearchOutput",
    "OpenAIToolSearchTool",
    "anthropic_tool",
    "anthropic_tools",
    "gemini_function_declaration",
    "gemini_tool",
    "openai_chat_tool",
    "openai_chat_tools",
    "openai_responses_tool",
    "openai_responses_tools",
]


class OpenAIResponsesTool(TypedDict, total=False):
    """``openai.types.responses.FunctionToolParam`` (Responses API)."""

    type: Required[Literal["function"]]
    name: Required[str]
    description: str | None
    parameters: Required[dict[str, object] | None]
    strict: Required[bool | None]


class OpenAIChatFunction(TypedDict, total=False):
    """``openai.types.shared_params.FunctionDefinition``."""

    name: Required[str]
    description: str
    parameters: dict[str, object]
    strict: bool | None


class OpenAIChatTool(TypedDict, total=False):
    """``openai.types.chat.ChatCompletionFunctionToolParam`` (Chat Completions)."""

    type: Required[Literal["function"]]
    function: Required[OpenAIChatFunction]


class AnthropicTool(TypedDict, total=False):
    """``anthropic.types.ToolParam`` (Messages API)."""

    name: Required[str]
    description: str
    input_schema: Required[dict[str, object]]
    strict: bool
    defer_loading: bool
    """Left out of the context until tool search finds it (deferred requests)."""


class OpenAINamespaceFunction(TypedDict, total=False):
    """``openai.types.responses.namespace_tool_param.ToolFunction``: a
    function of a namespace, ``defer_loading`` until tool search finds it."""

    type: Required[Literal["function"]]
    name: Required[str]
    description: str | None
    parameters: object | None
    strict: bool | None
    defer_loading: bool


class OpenAINamespaceTool(TypedDict):
    """``openai.types.responses.NamespaceToolParam``: functions grouped under
    a name and a description."""

    type: Literal["namespace"]
    name: str
    description: str
    tools: list[OpenAINamespaceFunction]


class OpenAIToolSearchTool(TypedDict, total=False):
    """``openai.types.responses.ToolSearchToolParam``: hosted, or run by the
    application (``execution: "client"``, with its description and parameters)."""

    type: Required[Literal["tool_search"]]
    description: str | None
    execution: Literal["server", "client"]
    parameters: object | None


OpenAIResponsesRequestTool = OpenAIResponsesTool | OpenAINamespaceTool | OpenAIToolSearchTool
"""One item of a deferred OpenAI Responses request's ``tools``."""


class OpenAIToolSearchOutput(TypedDict, total=False):
    """``openai.types.responses.ResponseToolSearchOutputItemParamParam``: the
    input item answering the model's client tool search call."""

    type: Required[Literal["tool_search_output"]]
    call_id: str | None
    execution: Literal["server", "client"]
    status: Literal["in_progress", "completed", "incomplete"] | None
    tools: Required[list[OpenAINamespaceTool]]


class AnthropicToolSearchBm25Tool(TypedDict):
    """``anthropic.types.ToolSearchToolBm25_20251119Param``."""

    type: Literal["tool_search_tool_bm25_20251119"]
    name: Literal["tool_search_tool_bm25"]


class AnthropicToolSearchRegexTool(TypedDict):
    """``anthropic.types.ToolSearchToolRegex20251119Param``."""

    type: Literal["tool_search_tool_regex_20251119"]
    name: Literal["tool_search_tool_regex"]


AnthropicRequestTool = AnthropicTool | AnthropicToolSearchBm25Tool | AnthropicToolSearchRegexTool
"""One item of a deferred Anthropic request's ``tools``."""


class AnthropicToolReference(TypedDict):
    """``anthropic.types.ToolReferenceBlockParam``: a found tool, in the
    ``tool_result`` of a client-side tool search."""

    type: Literal["tool_reference"]
    tool_name: str


class AnthropicTextBlock(TypedDict):
    """``anthropic.types.TextBlockParam``."""

    type: Literal["text"]
    text: str


AnthropicToolResultBlock = AnthropicToolReference | AnthropicTextBlock
"""A content block of the ``tool_result`` answering a client-side tool search."""


class GeminiFunctionDeclaration(TypedDict, total=False):
    """``google.genai.types.FunctionDeclarationDict`` with
    ``parameters_json_schema`` (default) or ``parameters``."""

    name: str | None
    description: str | None
    parameters_json_schema: Any | None
    parameters: Any | None


class GeminiTool(TypedDict, total=False):
    """``google.genai.types.ToolDict`` holding function declarations."""

    function_declarations: list[GeminiFunctionDeclaration] | None


def _form(tool: AgentTool, key: str) -> dict[str, Any]:
    """A copy of the tool's ``key`` form, or of its ``parameters`` when the
    generator wrote none (the form equals them) or the tool has no forms."""
    form = None if tool.forms is None else tool.forms.get(key)
    if form is None:
        return tool.schema()
    thawed: dict[str, Any] = _thaw(form)
    return thawed


def _no_forms(tool: AgentTool) -> ValueError:
    return ValueError(
        f"tool {json.dumps(tool.name)} has no generated provider forms: "
        "generate it with protoc-gen-ai-tools"
    )


def _generated_form(tool: AgentTool, key: str) -> Any:
    """A copy of the tool's ``key`` form, which only generated tools have
    (``None`` when the generator wrote ``null``)."""
    if tool.forms is None or key not in tool.forms:
        raise _no_forms(tool)
    return _thaw(tool.forms[key])


def openai_responses_tool(tool: AgentTool) -> OpenAIResponsesTool:
    """A function tool of the OpenAI Responses API (``strict`` as generated)."""
    return {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": _form(tool, "openai"),
        "strict": tool.strict,
    }


def openai_chat_tool(tool: AgentTool) -> OpenAIChatTool:
    """A function tool of the OpenAI Chat Completions API."""
    return {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": _form(tool, "openai"),
            "strict": tool.strict,
        },
    }


def _check_openai_request(count: int) -> None:
    if count > OPENAI_MAX_TOOLS:
        raise ValueError(
            f"{count} tools in one request: OpenAI takes at most {OPENAI_MAX_TOOLS}; "
            "send a subset of the tools"
        )


def openai_responses_tools(tools: Sequence[AgentTool]) -> list[OpenAIResponsesTool]:
    """The tools of one OpenAI Responses API request, as
    :func:`openai_responses_tool` makes each. More than 128 tools raise
    ValueError, as OpenAI would refuse them."""
    _check_openai_request(len(tools))
    return [openai_responses_tool(t) for t in tools]


def openai_chat_tools(tools: Sequence[AgentTool]) -> list[OpenAIChatTool]:
    """The tools of one OpenAI Chat Completions request, as
    :func:`openai_chat_tool` makes each. More than 128 tools raise
    ValueError, as OpenAI would refuse them."""
    _check_openai_request(len(tools))
    return [openai_chat_tool(t) for t in tools]


def anthropic_tool(tool: AgentTool, *, strict: bool = False) -> AnthropicTool:
    """A client tool of the Anthropic Messages API. ``strict=True`` adds
    ``"strict": true`` to a strict tool (Anthropic's strict tool use, at most
    20 strict tools per request), with the generated ``anthropicStrict`` form
    (what Anthropic's SDK makes of the schema; ``parameters`` where the two
    are the same; a tool written by hand has no forms and raises
    ValueError); a non-strict tool never carries the flag, as in the
    TypeScript runtime. Off by default."""
    if strict and tool.strict:
        if tool.forms is None:
            raise _no_forms(tool)
        return {
            "name": tool.name,
            "description": tool.description,
            "input_schema": _form(tool, "anthropicStrict"),
            "strict": True,
        }
    return {
        "name": tool.name,
        "description": tool.description,
        "input_schema": _form(tool, "anthropic"),
    }


def anthropic_tools(tools: Sequence[AgentTool], *, strict: bool = False) -> list[AnthropicTool]:
    """The tools of one Anthropic request, each as :func:`anthropic_tool`
    makes it. With ``strict=True``, a request over the limits of strict tool
    use (20 strict tools, 24 optional and 16 union parameters across them)
    raises ValueError, as Anthropic would refuse it."""
    out = [anthropic_tool(t, strict=strict) for t in tools]
    if strict:
        check_anthropic_strict_request(_strict_counts(t) for t in tools if t.strict)
    return out


_NO_COUNTS: dict[str, int] = {"optional": 0, "unions": 0}


def _strict_counts(tool: AgentTool) -> Mapping[str, Any]:
    """The generator's ``anthropicStrictCounts`` of a strict tool with forms
    (:func:`anthropic_tool` has refused one without), zero where the forms
    leave them out, as in the TypeScript and Go runtimes."""
    counts: Mapping[str, Any] = (tool.forms or {}).get("anthropicStrictCounts", _NO_COUNTS)
    return counts


def gemini_function_declaration(
    tool: AgentTool,
    *,
    form: Literal["parameters_json_schema", "parameters"] = "parameters_json_schema",
) -> GeminiFunctionDeclaration:
    """A Gemini function declaration carrying the schema as plain JSON Schema
    (``parameters_json_schema``, the generated ``gemini`` form; ``parameters``
    refuses ``additionalProperties``), or with ``form="parameters"`` the
    generated OpenAPI-subset ``geminiParameters`` form (a tool left without
    parameters has none; a tool written by hand raises ValueError)."""
    out: GeminiFunctionDeclaration = {"name": tool.name, "description": tool.description}
    if form == "parameters":
        parameters = _generated_form(tool, "geminiParameters")
        if parameters is not None:
            out["parameters"] = parameters
    else:
        out["parameters_json_schema"] = _form(tool, "gemini")
    return out


def gemini_tool(
    tools: Sequence[AgentTool],
    *,
    form: Literal["parameters_json_schema", "parameters"] = "parameters_json_schema",
) -> GeminiTool:
    """One Gemini tool holding the function declarations of ``tools``. More
    than 512 declarations raise ValueError, as Gemini would refuse them."""
    if len(tools) > GEMINI_MAX_FUNCTION_DECLARATIONS:
        raise ValueError(
            f"{len(tools)} function declarations in one request: Gemini takes at most "
            f"{GEMINI_MAX_FUNCTION_DECLARATIONS}; send a subset of the tools"
        )
    return {"function_declarations": [gemini_function_declaration(t, form=form) for t in tools]}
