"""Scenario 1: a scripted conversation over every kind of tool. The model only
ever sees aliases (its workspace id stays raw); the server only ever receives
the exact UUIDs."""

import grpc
from google.protobuf import duration_pb2, empty_pb2, field_mask_pb2, wrappers_pb2
from helpers import UUID_RE, Driver, expect_recorded, new_model, new_uuid, reset_server

from linkhub.v1 import links_pb2, links_pb2_grpc, themes_pb2, workflows_pb2, workflows_pb2_grpc


def test_scripted_conversation(driver: Driver, channel: grpc.Channel) -> None:
    reset_server(channel)
    ws = new_uuid()
    m = new_model(driver, ws)

    r = m.call(
        "page_themes_create",
        {
            "workspace_id": ws,
            "name": "Spring",
            "background_color": "#ffeedd",
            "font": "Inter",
            "palette": [{"key": "accent", "value": "#ff0066"}],
        },
    )
    assert r["page_theme"]["id"] == "theme-1" and r["page_theme"]["workspace_id"] == ws, r
    r = m.call(
        "links_create",
        {
            "workspace_id": ws,
            "target_url": "https://example.com/spring",
            "slug": None,
            "page_theme_id": "theme-1",
            "labels": [{"key": "campaign", "value": "spring"}],
            "title": "Spring sale",
            "expire_after": "86400s",
        },
    )
    assert r["link"]["id"] == "link-1" and r["link"]["page_theme_id"] == "theme-1", r
    assert r["link"]["workspace_id"] == ws, r
    r = m.call(
        "links_create",
        {
            "workspace_id": ws,
            "target_url": "https://example.com/summer",
            "slug": "summer",
            "page_theme_id": "",
            "labels": [],
            "title": None,
            "expire_after": None,
        },
    )
    assert r["link"]["id"] == "link-2", r

    r = m.call("links_list", {"workspace_id": ws, "page_theme_id": None})
    assert [link["id"] for link in r["links"]] == ["link-1", "link-2"], r

    # What the server really holds, learnt outside the conversation.
    links = links_pb2_grpc.LinkServiceStub(channel).ListLinks(
        links_pb2.ListLinksRequest(workspace_id=ws)
    )
    assert len(links.links) == 2
    theme_id, link1_id, link2_id = (
        links.links[0].page_theme_id,
        links.links[0].id,
        links.links[1].id,
    )
    for id_ in (theme_id, link1_id, link2_id):
        assert UUID_RE.fullmatch(id_) and id_ != ws, id_

    r = m.call(
        "steps_create",
        {"link_id": "link-1", "send_email": None, "open_link": {"link_id": "link-2"}, "wait": None},
    )
    assert r["step"]["id"] == "step-1" and r["step"]["link_id"] == "link-1", r
    assert r["step"]["open_link"]["link_id"] == "link-2", r

    # Non-strict tool: only what it changes.
    r = m.call(
        "links_update",
        {
            "id": "link-2",
            "title": "Summer",
            "status": "LINK_STATUS_PAUSED",
            "update_mask": "title,status",
        },
    )
    assert r["link"]["id"] == "link-2" and r["link"]["title"] == "Summer", r
    assert r["link"]["status"] == "LINK_STATUS_PAUSED", r

    assert m.call("links_delete", {"id": "link-2"}) == {}
    assert m.call("ping", "{}")["server_time"] != ""

    am = m.e.aliases
    for alias, id_ in {"theme-1": theme_id, "link-1": link1_id, "link-2": link2_id}.items():
        assert am.resolve_alias(alias) == id_, alias

    steps = workflows_pb2_grpc.WorkflowServiceStub(channel).ListSteps(
        workflows_pb2.ListStepsRequest(link_id=link1_id)
    )
    assert len(steps.steps) == 1 and am.resolve_alias("step-1") == steps.steps[0].id
    expect_recorded(
        channel,
        0,
        [
            (
                "linkhub.v1.PageThemeService/CreatePageTheme",
                themes_pb2.CreatePageThemeRequest(
                    workspace_id=ws,
                    name="Spring",
                    background_color="#ffeedd",
                    font=wrappers_pb2.StringValue(value="Inter"),
                    palette={"accent": "#ff0066"},
                ),
            ),
            (
                "linkhub.v1.LinkService/CreateLink",
                links_pb2.CreateLinkRequest(
                    workspace_id=ws,
                    target_url="https://example.com/spring",
                    page_theme_id=theme_id,
                    labels={"campaign": "spring"},
                    title="Spring sale",
                    expire_after=duration_pb2.Duration(seconds=86400),
                ),
            ),
            (
                "linkhub.v1.LinkService/CreateLink",
                links_pb2.CreateLinkRequest(
                    workspace_id=ws, target_url="https://example.com/summer", slug="summer"
                ),
            ),
            ("linkhub.v1.LinkService/ListLinks", links_pb2.ListLinksRequest(workspace_id=ws)),
            ("linkhub.v1.LinkService/ListLinks", links_pb2.ListLinksRequest(workspace_id=ws)),
            (
                "linkhub.v1.WorkflowService/CreateStep",
                workflows_pb2.CreateStepRequest(
                    link_id=link1_id, open_link=workflows_pb2.OpenLink(link_id=link2_id)
                ),
            ),
            (
                "linkhub.v1.LinkService/UpdateLink",
                links_pb2.UpdateLinkRequest(
                    id=link2_id,
                    title="Summer",
                    status=links_pb2.LINK_STATUS_PAUSED,
                    update_mask=field_mask_pb2.FieldMask(paths=["title", "status"]),
                ),
            ),
            ("linkhub.v1.LinkService/DeleteLink", links_pb2.DeleteLinkRequest(id=link2_id)),
            ("linkhub.v1.WorkflowService/Ping", empty_pb2.Empty()),
            (
                "linkhub.v1.WorkflowService/ListSteps",
                workflows_pb2.ListStepsRequest(link_id=link1_id),
            ),
        ],
    )
