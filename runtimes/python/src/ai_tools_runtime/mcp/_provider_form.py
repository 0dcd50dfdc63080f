"""The generated provider form a registration serves (docs/mcp.md, "Serving a
provider's form")."""

from __future__ import annotations

import json
from typing import Any, Literal, get_args

from .._agent_tool import AgentTool, _thaw

__all__ = ["McpProvider", "check_provider", "served_schema"]

McpProvider = Literal["openai", "anthropic", "gemini"]
"""A model provider whose generated schema form a registration serves
(``provider=`` of ``add_tools`` and the generated functions): ``"openai"`` the
``openai`` form (OpenAI's ``parameters``), ``"anthropic"`` the ``anthropic``
form (Anthropic's ``input_schema`` without strict), ``"gemini"`` the
``gemini`` form (Gemini's ``parametersJsonSchema``)."""

_PROVIDERS: tuple[str, ...] = get_args(McpProvider)


def check_provider(provider: str | None) -> None:
    """A ``ValueError`` for a provider that is not one of :data:`McpProvider`."""
    if provider is not None and provider not in _PROVIDERS:
        raise ValueError(
            f'unknown provider {json.dumps(provider)}: use "openai", "anthropic" or "gemini"'
        )


def served_schema(tool: AgentTool, provider: McpProvider | None) -> dict[str, Any]:
    """A copy of the input schema a registration serves for the tool: its
    ``parameters`` without a provider; with one, the form the
    generator wrote for it (``parameters`` where it wrote none: the form
    equals them). Never derived here. A ``ValueError`` naming the tool and
    the fix when the tool has no generated forms (a tool written by hand)."""
    if provider is None:
        return tool.schema()
    if tool.forms is None:
        raise ValueError(
            f"provider {json.dumps(provider)}: tool {json.dumps(tool.name)} has no generated "
            f"{json.dumps(provider)} form; generate with providers={provider} "
            "(or without providers=), or register a tool written by hand without a provider"
        )
    form = tool.forms.get(provider)
    if form is None:
        return tool.schema()
    thawed: dict[str, Any] = _thaw(form)
    return thawed
