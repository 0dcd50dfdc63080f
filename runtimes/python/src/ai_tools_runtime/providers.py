"""Tool definitions in the shapes of the official provider SDKs.

The runtime depends on none of them: these TypedDicts mirror the SDKs'
parameter types (``openai.types.responses.FunctionToolParam``,
``openai.types.chat.ChatCompletionFunctionToolParam``,
``anthropic.types.ToolParam``, ``google.genai.types.FunctionDeclarationDict``),
and the tests check with mypy that each one is assignable to the SDK's own
type. Every call returns a new dict holding a deep copy of the schema."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal, Required, TypedDict

from ._agent_tool import AgentTool
from ._anthropic_strict_schema import anthropic_strict_schema
from ._gemini_parameters import gemini_parameters
from ._provider_limits import (
    GEMINI_MAX_FUNCTION_DECLARATIONS,
    OPENAI_MAX_TOOLS,
    check_anthropic_strict_request,
    count_anthropic_strict_parameters,
)
from ._schema_cycles import find_ref_cycle

__all__ = [
    "AnthropicTool",
    "GeminiFunctionDeclaration",
    "OpenAIChatFunction",
    "OpenAIChatTool",
    "OpenAIResponsesTool",
    "anthropic_strict_schema",
    "anthropic_tool",
    "anthropic_tools",
    "count_anthropic_strict_parameters",
    "gemini_function_declaration",
    "gemini_parameters",
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


def _schema(tool: AgentTool) -> dict[str, object]:
    return tool.schema()


def openai_responses_tool(tool: AgentTool) -> OpenAIResponsesTool:
    """A function tool of the OpenAI Responses API (``strict`` as generated)."""
    return {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": _schema(tool),
        "strict": tool.strict,
    }


def openai_chat_tool(tool: AgentTool) -> OpenAIChatTool:
    """A function tool of the OpenAI Chat Completions API."""
    return {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": _schema(tool),
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
    20 strict tools per request), with the schema in the form strict tool use
    takes (:func:`anthropic_strict_schema`); a non-strict tool never carries
    the flag, as in the TypeScript runtime. Off by default."""
    out: AnthropicTool = {
        "name": tool.name,
        "description": tool.description,
        "input_schema": _schema(tool),
    }
    if strict and tool.strict:
        try:
            out["input_schema"] = anthropic_strict_schema(out["input_schema"])
        except ValueError as e:
            raise ValueError(f"tool {json.dumps(tool.name)}: {e}") from None
        out["strict"] = True
    return out


def anthropic_tools(tools: Sequence[AgentTool], *, strict: bool = False) -> list[AnthropicTool]:
    """The tools of one Anthropic request, each as :func:`anthropic_tool`
    makes it. With ``strict=True``, a request over the limits of strict tool
    use (20 strict tools, 24 optional and 16 union parameters across them)
    raises ValueError, as Anthropic would refuse it."""
    out = [anthropic_tool(t, strict=strict) for t in tools]
    check_anthropic_strict_request(t["input_schema"] for t in out if t.get("strict") is True)
    return out


def gemini_function_declaration(
    tool: AgentTool,
    *,
    form: Literal["parameters_json_schema", "parameters"] = "parameters_json_schema",
) -> GeminiFunctionDeclaration:
    """A Gemini function declaration carrying the schema as plain JSON Schema
    (``parameters_json_schema``; ``parameters`` refuses ``additionalProperties``),
    or with ``form="parameters"`` the OpenAPI subset :func:`gemini_parameters`
    derives (a tool left without parameters has none). A schema with a
    ``$ref`` cycle through required properties (a compact strict tool
    generated with ``providers=openai``), which Gemini refuses, raises
    ValueError in the default form; the ``parameters`` form leaves the
    recursion out."""
    out: GeminiFunctionDeclaration = {"name": tool.name, "description": tool.description}
    if form == "parameters":
        parameters = gemini_parameters(_schema(tool))
        if parameters is not None:
            out["parameters"] = parameters
    else:
        schema = _schema(tool)
        cycle = find_ref_cycle(schema, True)
        if cycle is not None:
            raise ValueError(
                f"tool {json.dumps(tool.name)}: the schema has a $ref cycle through required "
                f"properties ({json.dumps(cycle)}), which Gemini refuses (a cycle only through "
                "properties that are not required; nullable is not enough); use "
                'form="parameters", which leaves the recursion out, or generate the tool with '
                "providers=gemini"
            )
        out["parameters_json_schema"] = schema
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
