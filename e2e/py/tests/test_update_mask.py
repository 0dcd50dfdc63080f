"""Issue 31, FieldMask: links_update's ``update_mask`` written in the
schema's field names (snake_case) reaches the server as the FieldMask paths
the model meant; lowerCamel still works; a path naming no field is refused
with a suggestion, and nothing is sent."""

import grpc
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

from linkhub.v1 import links_pb2

UPDATE = "linkhub.v1.LinkService/UpdateLink"


def test_snake_case_and_lower_camel_paths_reach_the_server(
    driver: Driver, channel: grpc.Channel
) -> None:
    reset_server(channel)
    ws = new_uuid()
    m = new_model(driver, ws)
    create_links(m, ws, 1)
    m.call(
        "page_themes_create",
        {"workspace_id": ws, "name": "t", "background_color": "", "font": "", "palette": []},
    )
    (link_id,) = link_ids(channel, ws)
    theme_id = m.e.aliases.resolve_alias("theme-1")
    start = len(recorded(channel))
    url = "https://example.com/new"
    r = m.call(
        "links_update",
        {
            "id": "link-1",
            "target_url": url,
            "page_theme_id": "theme-1",
            "update_mask": "target_url,page_theme_id",
        },
    )
    assert r["link"]["target_url"] == url and r["link"]["page_theme_id"] == "theme-1", r
    r = m.call(
        "links_update", {"id": "link-1", "title": "camel", "update_mask": " title , pageThemeId"}
    )
    assert r["link"]["title"] == "camel", r
    expect_recorded(
        channel,
        start,
        [
            (
                UPDATE,
                links_pb2.UpdateLinkRequest(
                    id=link_id,
                    target_url=url,
                    page_theme_id=theme_id,
                    update_mask=field_mask_pb2.FieldMask(paths=["target_url", "page_theme_id"]),
                ),
            ),
            (
                UPDATE,
                links_pb2.UpdateLinkRequest(
                    id=link_id,
                    title="camel",
                    update_mask=field_mask_pb2.FieldMask(paths=["title", "page_theme_id"]),
                ),
            ),
        ],
    )


def test_a_path_naming_no_field_is_refused(driver: Driver, channel: grpc.Channel) -> None:
    reset_server(channel)
    ws = new_uuid()
    m = new_model(driver, ws)
    create_links(m, ws, 1)
    valid = "valid fields: id, target_url, title, page_theme_id, status, update_mask"
    expect_rejected(
        channel,
        m.e,
        "links_update",
        js({"id": "link-1", "title": "x", "update_mask": "title,target_ur,title.x"}),
        "invalid arguments, nothing was sent:\n"
        f'- "update_mask": unknown field "target_ur" in path "target_ur"; '
        f'did you mean "target_url"? {valid}\n'
        '- "update_mask": field "title" has no fields, in path "title.x"',
    )
