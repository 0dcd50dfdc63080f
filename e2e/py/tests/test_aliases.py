"""Scenarios 2, 3 and 7: twelve aliases of one prefix resolve exactly;
invented and stale aliases are refused before any request; a conversation's
alias state, exported and restored, carries on."""

import json

import grpc
from ai_tools_runtime import AliasManager
from google.protobuf import field_mask_pb2
from helpers import (
    Driver,
    create_links,
    expect_recorded,
    expect_rejected,
    js,
    link_ids,
    new_model,
    new_uuid,
    recorded,
    reset_server,
)

import ai_tools_gen
from linkhub.v1 import links_pb2, links_pb2_grpc, themes_pb2, themes_pb2_grpc


def test_twelve_links_resolve_exactly(driver: Driver, channel: grpc.Channel) -> None:
    reset_server(channel)
    ws = new_uuid()
    m = new_model(driver, ws)
    aliases = create_links(m, ws, 12)
    assert aliases == [f"link-{i}" for i in range(1, 13)]
    ids = link_ids(channel, ws)
    assert len(ids) == 12
    start = len(recorded(channel))
    wants = []
    for n in (10, 11, 12, 1):
        alias, id_ = f"link-{n}", ids[n - 1]
        r = m.call("links_get", {"id": alias})
        assert r["link"]["id"] == alias and r["link"]["title"] == f"link {n}", r
        title = f"renamed {n}"
        r = m.call("links_update", {"id": alias, "title": title, "update_mask": "title"})
        assert r["link"]["id"] == alias and r["link"]["title"] == title, r
        wants += [
            ("linkhub.v1.LinkService/GetLink", links_pb2.GetLinkRequest(id=id_)),
            (
                "linkhub.v1.LinkService/UpdateLink",
                links_pb2.UpdateLinkRequest(
                    id=id_, title=title, update_mask=field_mask_pb2.FieldMask(paths=["title"])
                ),
            ),
        ]
    expect_recorded(channel, start, wants)
    resp = links_pb2_grpc.LinkServiceStub(channel).ListLinks(
        links_pb2.ListLinksRequest(workspace_id=ws)
    )
    for i, link in enumerate(resp.links):
        n = i + 1
        want = f"renamed {n}" if n == 1 or n >= 10 else f"link {n}"
        assert link.title == want, (n, link.title)


def test_unknown_aliases_are_refused_before_any_request(
    driver: Driver, channel: grpc.Channel
) -> None:
    reset_server(channel)
    ws = new_uuid()
    a = new_model(driver, ws)
    create_links(a, ws, 3)
    a.call(
        "page_themes_create",
        {"workspace_id": ws, "name": "t", "background_color": "", "font": "", "palette": []},
    )
    valid = "valid link aliases: link-1, link-2, link-3"
    # Invented.
    expect_rejected(
        channel,
        a.e,
        "links_get",
        '{"id":"link-99"}',
        f'invalid arguments, nothing was sent:\n- "id": unknown alias "link-99"; {valid}',
    )
    expect_rejected(
        channel,
        a.e,
        "steps_create",
        '{"link_id":"link-1","send_email":null,"open_link":{"link_id":"link-4"},"wait":null}',
        "invalid arguments, nothing was sent:\n"
        f'- "open_link.link_id": unknown alias "link-4"; {valid}',
    )
    expect_rejected(
        channel,
        a.e,
        "links_update",
        '{"id":"link-2","page_theme_id":"theme-2","update_mask":"pageThemeId"}',
        "invalid arguments, nothing was sent:\n"
        '- "page_theme_id": unknown alias "theme-2"; valid theme aliases: theme-1',
    )
    expect_rejected(
        channel,
        a.e,
        "steps_list",
        '{"link_id":"step-1"}',
        "invalid arguments, nothing was sent:\n"
        '- "link_id": unknown alias "step-1"; no step aliases exist yet: '
        "call a tool that returns steps first",
    )
    # Stale: seen in another conversation.
    b = new_model(driver, ws)
    create_links(b, ws, 1)
    expect_rejected(
        channel,
        b.e,
        "links_get",
        '{"id":"link-3"}',
        "invalid arguments, nothing was sent:\n"
        '- "id": unknown alias "link-3"; valid link aliases: link-1',
    )
    expect_rejected(
        channel,
        b.e,
        "links_create",
        js(
            {
                "workspace_id": ws,
                "target_url": "https://example.com/x",
                "slug": None,
                "page_theme_id": "theme-1",
                "labels": [],
                "title": None,
                "expire_after": None,
            }
        ),
        "invalid arguments, nothing was sent:\n"
        '- "page_theme_id": unknown alias "theme-1"; no theme aliases exist yet: '
        "call a tool that returns themes first",
    )
    fresh = driver.new()
    expect_rejected(
        channel,
        fresh,
        "links_delete",
        '{"id":"link-1"}',
        "invalid arguments, nothing was sent:\n"
        '- "id": unknown alias "link-1"; no link aliases exist yet: '
        "call a tool that returns links first",
    )
    # Stale: from before a restore of a fresh state.
    a.e.aliases.restore_state(AliasManager(ai_tools_gen.ALIAS_CONFIG).export_state())
    expect_rejected(
        channel,
        a.e,
        "links_get",
        '{"id":"link-2"}',
        "invalid arguments, nothing was sent:\n"
        '- "id": unknown alias "link-2"; no link aliases exist yet: '
        "call a tool that returns links first",
    )
    # Free text that mentions an alias is not an alias: sent as written.
    before = len(recorded(channel))
    r = a.call(
        "links_create",
        {
            "workspace_id": ws,
            "target_url": "https://example.com/y",
            "slug": None,
            "page_theme_id": "",
            "labels": [{"key": "note", "value": "like link-99"}],
            "title": "copy of link-99",
            "expire_after": None,
        },
    )
    assert r["link"]["id"] == "link-1" and r["link"]["title"] == "copy of link-99", r
    expect_recorded(
        channel,
        before,
        [
            (
                "linkhub.v1.LinkService/CreateLink",
                links_pb2.CreateLinkRequest(
                    workspace_id=ws,
                    target_url="https://example.com/y",
                    title="copy of link-99",
                    labels={"note": "like link-99"},
                ),
            )
        ],
    )


def test_export_restore_continues_the_conversation(driver: Driver, channel: grpc.Channel) -> None:
    reset_server(channel)
    ws = new_uuid()
    a = new_model(driver, ws)
    r = a.call(
        "page_themes_create",
        {"workspace_id": ws, "name": "t", "background_color": "#000000", "font": "", "palette": []},
    )
    assert r["page_theme"]["id"] == "theme-1", r
    create_links(a, ws, 2)
    state = a.e.aliases.export_state()
    ids = link_ids(channel, ws)
    themes = themes_pb2_grpc.PageThemeServiceStub(channel).ListPageThemes(
        themes_pb2.ListPageThemesRequest(workspace_id=ws)
    )
    assert len(themes.page_themes) == 1 and len(ids) == 2
    theme_id = themes.page_themes[0].id
    want_state = json.dumps(
        {
            "aliases": {"link-1": ids[0], "link-2": ids[1], "theme-1": theme_id},
            "counters": {"link": 2, "theme": 1},
            "version": 1,
        },
        separators=(",", ":"),
    )
    assert state == want_state

    # Another process, another executor: restore, and go on.
    b = new_model(driver, ws)
    b.e.aliases.restore_state(state)
    start = len(recorded(channel))
    assert b.call("links_get", '{"id":"link-2"}')["link"]["id"] == "link-2"
    r = b.call(
        "links_create",
        {
            "workspace_id": ws,
            "target_url": "https://example.com/3",
            "slug": None,
            "page_theme_id": "theme-1",
            "labels": [],
            "title": None,
            "expire_after": None,
        },
    )
    assert r["link"]["id"] == "link-3" and r["link"]["page_theme_id"] == "theme-1", r
    r = b.call(
        "page_themes_create",
        {"workspace_id": ws, "name": "u", "background_color": "", "font": "", "palette": []},
    )
    assert r["page_theme"]["id"] == "theme-2", r
    r = b.call("links_list", {"workspace_id": ws, "page_theme_id": "theme-1"})
    assert [link["id"] for link in r["links"]] == ["link-3"], r
    all_ids = link_ids(channel, ws)
    assert len(all_ids) == 3 and b.e.aliases.resolve_alias("link-3") == all_ids[2]
    from google.protobuf import wrappers_pb2

    expect_recorded(
        channel,
        start,
        [
            ("linkhub.v1.LinkService/GetLink", links_pb2.GetLinkRequest(id=ids[1])),
            (
                "linkhub.v1.LinkService/CreateLink",
                links_pb2.CreateLinkRequest(
                    workspace_id=ws, target_url="https://example.com/3", page_theme_id=theme_id
                ),
            ),
            (
                "linkhub.v1.PageThemeService/CreatePageTheme",
                themes_pb2.CreatePageThemeRequest(
                    workspace_id=ws, name="u", font=wrappers_pb2.StringValue(value="")
                ),
            ),
            (
                "linkhub.v1.LinkService/ListLinks",
                links_pb2.ListLinksRequest(workspace_id=ws, page_theme_id=theme_id),
            ),
            ("linkhub.v1.LinkService/ListLinks", links_pb2.ListLinksRequest(workspace_id=ws)),
        ],
    )
    # The first conversation is untouched by the second's progress.
    assert a.e.aliases.resolve_alias("link-3") == "link-3"
