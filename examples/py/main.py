"""A short conversation with the linkhub.v1 test API, as the model sees it.

Plays scripted tool calls (in an application they come from the model's
response) through the generated executor against the test server, and prints
the tools the model is given, the results of its calls (ids as aliases), and
the error a mistake of its own earns it. Run the test server, then the
example, with the virtualenv's python::

    node ../../e2e/server/dist/main.js --port 8080 &
    bash generate.sh && PYTHONPATH=gen python main.py 127.0.0.1:8080
"""

import json
import sys
from dataclasses import dataclass
from typing import Any

import grpc
from ai_tools_runtime import ToolError, openai_responses_tool

from ai_tools_gen import ALL_TOOLS, Executor  # AsyncExecutor for grpc.aio


@dataclass(frozen=True)
class FunctionCall:
    """One tool call of the model, as the OpenAI Responses API returns it."""

    name: str
    arguments: str


def model_call(name: str, args: dict[str, Any]) -> FunctionCall:
    """A call's arguments written as the model would: one JSON object."""
    return FunctionCall(name, json.dumps(args))


# The user's workspace: an id without alias_prefix stays a UUID.
WORKSPACE = "5f0c1f7e-3b7a-4d2e-9a61-2c8e4b1d7a90"

addr = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:8080"
executor = Executor(grpc.insecure_channel(addr))  # addr: "127.0.0.1:8080"
tools = [openai_responses_tool(t) for t in ALL_TOOLS]  # anthropic_tool, gemini_function_declaration

print(f"tools the model is given ({len(tools)}):")
for t in tools:
    strict = " (strict)" if t["strict"] else ""
    print(f"  {t['name']}{strict}: {t['description']}")

calls = [
    model_call(
        "page_themes_create",
        {
            "workspace_id": WORKSPACE,
            "name": "Spring",
            "background_color": "#ffeedd",
            "font": "Inter",
            "palette": [{"key": "accent", "value": "#ff0066"}],
        },
    ),
    model_call(
        "links_create",
        {
            "workspace_id": WORKSPACE,
            "target_url": "https://example.com/spring",
            "slug": "spring",
            "page_theme_id": "theme-1",
            "labels": [],
            "title": "Spring sale",
            "expire_after": "86400s",
        },
    ),
    model_call(
        "links_create",
        {
            "workspace_id": WORKSPACE,
            "target_url": "https://example.com/summer",
            "slug": "summer",
            "page_theme_id": "theme-1",
            "labels": [],
            "title": None,
            "expire_after": None,
        },
    ),
    model_call("links_list", {"workspace_id": WORKSPACE, "page_theme_id": "theme-1"}),
    # The model's mistake: an alias it never saw.
    model_call("links_get", {"id": "link-7"}),
]
for call in calls:
    print(f"\nmodel: {call.name} {call.arguments}")
    # for each function call the model makes:
    failure = ""
    try:
        output = executor.execute(call.name, call.arguments)  # JSON, ids as aliases
    except ToolError as err:
        output = str(err)  # written for the model; err.reason and err.code say why
        failure = f"a ToolError: {err.reason}, {err.code.name if err.code else 'no code'}"
    print(f"tool:  {output}")
    if failure:
        print(f"       ({failure})")
