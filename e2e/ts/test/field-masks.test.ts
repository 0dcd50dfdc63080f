// FieldMask arguments end to end (issue 31, CONTRACT31 M): links_update's
// update_mask in the schema's names (snake_case) or in lowerCamel reaches
// the test server as FieldMask paths; a path that names no field of
// UpdateLinkRequest is refused with a suggestion and nothing is sent.
import { beforeEach, describe, expect, it } from "vitest";
import { UpdateLinkRequestSchema } from "../src/gen/linkhub/v1/links_pb.js";
import { callTool, connectStdio } from "./mcp-support.js";
import {
  Model,
  createLinks,
  expectRecordedFrom,
  recorded,
  resetServer,
  toolError,
  useServer,
  want,
  type Env,
} from "./support.js";

const env: Env = useServer();
const ws = "w-masks";
let model: Model;
let linkId: string;

beforeEach(async () => {
  await resetServer(env);
  model = new Model(env);
  await createLinks(model, ws, 1);
  linkId = (await env.links.listLinks({ workspaceId: ws })).links[0]!.id;
});

/** links_update of link-1: a new target URL and no theme, with `mask`. */
const update = (mask: string) => ({
  id: "link-1",
  target_url: "https://example.com/new",
  page_theme_id: "",
  update_mask: mask,
});

describe("links_update's update_mask", () => {
  for (const mask of [
    "target_url,page_theme_id",
    " targetUrl , pageThemeId ",
    "target_url,pageThemeId,",
  ]) {
    it(`${JSON.stringify(mask)} reaches the server as paths target_url, page_theme_id`, async () => {
      const from = (await recorded(env)).length;
      const r = await model.call("links_update", update(mask));
      expect(r.link.id).toBe("link-1");
      await expectRecordedFrom(env, from, [
        want("linkhub.v1.LinkService/UpdateLink", UpdateLinkRequestSchema, {
          id: linkId,
          targetUrl: "https://example.com/new",
          pageThemeId: "",
          updateMask: { paths: ["target_url", "page_theme_id"] },
        }),
      ]);
      const [link] = (await env.links.listLinks({ workspaceId: ws })).links;
      expect(link?.targetUrl).toBe("https://example.com/new");
    });
  }

  it("refuses a path that names no field, with a suggestion, sending nothing", async () => {
    const from = (await recorded(env)).length;
    const err = await toolError(
      model.executor.execute(
        "links_update",
        JSON.stringify(update("target_url,page_theme,title.text")),
      ),
    );
    expect(err.message).toBe(
      [
        "invalid arguments, nothing was sent:",
        '- "update_mask": unknown field "page_theme" in path "page_theme"; did you mean "page_theme_id"? valid fields: id, target_url, title, page_theme_id, status, update_mask',
        '- "update_mask": field "title" has no fields, in path "title.text"',
      ].join("\n"),
    );
    expect(err.violations.map((v) => [v.field, v.reason])).toEqual([
      ["update_mask", "invalid-value"],
      ["update_mask", "invalid-value"],
    ]);
    expect((await recorded(env)).length).toBe(from);
  });

  it("is checked over MCP too", async () => {
    const client = await connectStdio(env, "2026-07-28");
    const created = await callTool(client, "links_create", {
      workspace_id: ws,
      target_url: "https://example.com/mcp",
      slug: null,
      page_theme_id: "",
      labels: [],
      title: "mcp",
      expire_after: null,
    });
    expect(created.isError).toBeFalsy();
    // link-1 of the MCP conversation: the link it created.
    const mcpLinkId = (await env.links.listLinks({ workspaceId: ws })).links[1]!
      .id;
    const from = (await recorded(env)).length;
    const bad = await callTool(client, "links_update", {
      ...update("targetUrl,titel"),
    });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toBe(
      'invalid arguments, nothing was sent:\n- "update_mask": unknown field "titel" in path "titel"; did you mean "title"? valid fields: id, target_url, title, page_theme_id, status, update_mask',
    );
    expect((await recorded(env)).length).toBe(from);
    const good = await callTool(client, "links_update", {
      ...update("target_url"),
    });
    expect(good.isError).toBeFalsy();
    await expectRecordedFrom(env, from, [
      want("linkhub.v1.LinkService/UpdateLink", UpdateLinkRequestSchema, {
        id: mcpLinkId,
        targetUrl: "https://example.com/new",
        pageThemeId: "",
        updateMask: { paths: ["target_url"] },
      }),
    ]);
  });
});
