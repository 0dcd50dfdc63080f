"""The generated module alone (no server): its exports, and refusals that
happen before any connection is made."""

import dataclasses
import re

import grpc
import pytest
from ai_tools_runtime import ResponseAliasField, ResponseAliasTool, ToolError
from helpers import refusal_code

import ai_tools_gen
import ai_tools_mcp_gen
from ai_tools_gen import ALL_TOOLS, LINKS_GET, PAGE_THEMES_UPDATE, AgentTool, Executor, all_tools


def test_tools_in_name_order_with_constants() -> None:
    names = [t.name for t in ALL_TOOLS]
    assert names == sorted(names) and len(names) == 16
    assert all_tools() == list(ALL_TOOLS) and all_tools() is not all_tools()
    for t in ALL_TOOLS:
        # UPPER_SNAKE_CASE, camel humps split: GOOGLE_LONGRUNNING_OPERATIONS_GET_OPERATION
        constant = re.sub("(?<=[a-z0-9])(?=[A-Z])", "_", t.name).upper()
        assert getattr(ai_tools_gen, constant) is t
        assert constant in ai_tools_gen.__all__
    assert PAGE_THEMES_UPDATE.name == "page_themes_update" and PAGE_THEMES_UPDATE.strict
    assert LINKS_GET.schema()["required"] == ["id"]
    with pytest.raises(TypeError):
        LINKS_GET.parameters["required"] = []  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        LINKS_GET.name = "x"  # type: ignore[misc]
    assert isinstance(LINKS_GET, AgentTool)


def test_response_alias_tables() -> None:
    config = ai_tools_gen.ALIAS_CONFIG
    tools = config.response_aliases.tools
    # Step.id is annotated: it registers itself, wherever a Step sits.
    assert tools["steps_list"] == ResponseAliasTool(message="linkhub.v1.ListStepsResponse")
    assert "ping" not in tools
    types = config.response_aliases.types
    assert list(types) == sorted(types)
    assert types["linkhub.v1.ListStepsResponse"] == (
        ResponseAliasField(field="steps", message="linkhub.v1.Step"),
    )
    assert types["linkhub.v1.Step"] == (
        ResponseAliasField(field="id", prefix="step"),
        ResponseAliasField(field="linkId", prefix="link"),
        ResponseAliasField(field="openLink", message="linkhub.v1.OpenLink"),
    )
    assert config.known_alias_prefixes == frozenset({"link", "operation", "step", "theme"})
    # An operation's name is registered whatever it looks like (issue 31).
    assert types["google.longrunning.Operation"] == (
        ResponseAliasField(field="name", prefix="operation", any_value=True),
    )
    assert tools["links_export"] == ResponseAliasTool(message="google.longrunning.Operation")


def test_refusals_need_no_server() -> None:
    # Nothing listens on port 9: a request would fail UNAVAILABLE, not this.
    e = Executor(grpc.insecure_channel("127.0.0.1:9"))
    assert e.can_execute("links_get") and not e.can_execute("nope")
    for tool, args, message in [
        ("links_get", "not json", "invalid arguments, nothing was sent:\n- "),
        ("links_get", "[]", "invalid arguments, nothing was sent:\n- "),
        ("nope", "{}", "no auto-executor for tool: nope"),
        (
            "links_get",
            '{"id":"link-1"}',
            "invalid arguments, nothing was sent:\n"
            '- "id": unknown alias "link-1"; no link aliases exist yet: '
            "call a tool that returns links first",
        ),
    ]:
        with pytest.raises(ToolError) as info:
            e.execute(tool, args)
        assert str(info.value).startswith(message)
        assert info.value.code == refusal_code(message)


def test_approval_and_scopes_in_the_mcp_file() -> None:
    # links_archive: no auto_execute (an approval is asked), required_scopes
    # links.archive; every other tool of the test API runs unasked.
    entries = {
        m.tool.name: m
        for name in ai_tools_mcp_gen.__all__
        if name.endswith("_TOOLS")
        for m in getattr(ai_tools_mcp_gen, name)
    }
    archive = entries["links_archive"]
    assert archive.needs_approval and archive.required_scopes == ("links.archive",)
    assert archive.method == "/linkhub.v1.LinkService/ArchiveLink"
    others = [m for name, m in entries.items() if name != "links_archive"]
    assert others and not any(m.needs_approval or m.required_scopes for m in others)
