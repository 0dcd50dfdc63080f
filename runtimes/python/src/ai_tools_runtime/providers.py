"""Tool definitions in the shapes of the official provider SDKs.

The runtime depends on none of them: these TypedDicts mirror the SDKs'
parameter types (``openai.types.responses.FunctionToolParam``,
``openai.types.chat.ChatCompletionFunctionToolParam``,
``anthropic.types.ToolParam``, ``google.genai.types.FunctionDeclarationDict``),
and the tests check with mypy that each one is assignable to the SDK's own
type. Every call returns a new dict holding a deep copy of the schema."""

from __future__ import annotations

from typing import Any, Literal, Required, TypedDict

from ._agent_tool import AgentTool

__all__ = [
    "AnthropicTool",
    "GeminiFunctionDeclaration",
    "OpenAIChatFunction",
    "OpenAIChatTool",
    "OpenAIResponsesTool",
    "anthropic_tool",
    "gemini_function_declaration",
    "gemini_tool",
    "openai_chat_tool",
    "openai_responses_tool",
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
    """``google.genai.types.FunctionDeclarationDict`` with ``parameters_json_schema``."""

    name: str | None
    description: str | None
    parameters_json_schema: Any | None


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


def anthropic_tool(tool: AgentTool, *, strict: bool = False) -> AnthropicTool:
    """A client tool of the Anthropic Messages API. ``strict=True`` adds
    ``"strict": true`` to a strict tool (Anthropic's strict tool use, at most
    20 strict tools per request); a non-strict tool never carries the flag,
    as in the TypeScript runtime. Off by default."""
    out: AnthropicTool = {
        "name": tool.name,
        "description": tool.description,
        "input_schema": _schema(tool),
    }
    if strict and tool.strict:
        out["strict"] = True
    return out


def gemini_function_declaration(tool: AgentTool) -> GeminiFunctionDeclaration:
    """A Gemini function declaration carrying the schema as plain JSON Schema
    (``parameters_json_schema``; ``parameters`` refuses ``additionalProperties``)."""
    return {
        "name": tool.name,
        "description": tool.description,
        "parameters_json_schema": _schema(tool),
    }


def gemini_tool(tools: list[AgentTool]) -> GeminiTool:
    """One Gemini tool holding the function declarations of ``tools``."""
    return {"function_declarations": [gemini_function_declaration(t) for t in tools]}
