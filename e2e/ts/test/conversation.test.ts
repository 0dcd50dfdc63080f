// Scenario 1: a scripted conversation over every kind of tool. The model
// only ever sees aliases (its workspace id stays raw); the server only ever
// receives the exact UUIDs.
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import { expect, it } from "vitest";
import { allTools } from "../src/gen/ai_tools.gen.js";
import {
  CreateLinkRequestSchema,
  DeleteLinkRequestSchema,
  LinkStatus,
  ListLinksRequestSchema,
  UpdateLinkRequestSchema,
} from "../src/gen/linkhub/v1/links_pb.js";
import { CreatePageThemeRequestSchema } from "../src/gen/linkhub/v1/themes_pb.js";
import {
  CreateStepRequestSchema,
  ListStepsRequestSchema,
} from "../src/gen/linkhub/v1/workflows_pb.js";
import {
  Model,
  expectRecordedFrom,
  newUUID,
  resetServer,
  useServer,
  uuidRe,
  want,
} from "./support.js";

const env = useServer();

it("exports every tool of e2e/proto, auto-executed but links_archive", () => {
  const m = new Model(env);
  const names = allTools().map((t) => t.name);
  expect(names).toEqual([...names].sort());
  expect(names).toContain("links_create");
  // links_archive has no auto_execute: MCP serves it (after an approval),
  // the executor does not.
  for (const n of names) {
    expect(m.executor.canExecute(n), n).toBe(n !== "links_archive");
  }
});

it("scripted conversation: aliases for the model, UUIDs for the server", async () => {
  await resetServer(env);
  const ws = newUUID();
  const m = new Model(env, ws);

  let r = await m.call("page_themes_create", {
    workspace_id: ws,
    name: "Spring",
    background_color: "#ffeedd",
    font: "Inter",
    palette: [{ key: "accent", value: "#ff0066" }],
  });
  expect(r.page_theme.id).toBe("theme-1");
  expect(r.page_theme.workspace_id).toBe(ws);
  r = await m.call("links_create", {
    workspace_id: ws,
    target_url: "https://example.com/spring",
    slug: null,
    page_theme_id: "theme-1",
    labels: [{ key: "campaign", value: "spring" }],
    title: "Spring sale",
    expire_after: "86400s",
  });
  expect([r.link.id, r.link.page_theme_id, r.link.workspace_id]).toEqual([
    "link-1",
    "theme-1",
    ws,
  ]);
  r = await m.call("links_create", {
    workspace_id: ws,
    target_url: "https://example.com/summer",
    slug: "summer",
    page_theme_id: "",
    labels: [],
    title: null,
    expire_after: null,
  });
  expect(r.link.id).toBe("link-2");

  r = await m.call("links_list", { workspace_id: ws, page_theme_id: null });
  expect(r.links.map((l: { id: string }) => l.id)).toEqual([
    "link-1",
    "link-2",
  ]);

  // What the server really holds, learnt outside the conversation.
  const links = (await env.links.listLinks({ workspaceId: ws })).links;
  expect(links).toHaveLength(2);
  const themeID = links[0]!.pageThemeId;
  const [link1ID, link2ID] = [links[0]!.id, links[1]!.id];
  for (const id of [themeID, link1ID, link2ID]) {
    expect(id).toMatch(new RegExp(`^${uuidRe.source}$`));
    expect(id).not.toBe(ws);
  }

  r = await m.call("steps_create", {
    link_id: "link-1",
    send_email: null,
    open_link: { link_id: "link-2" },
    wait: null,
  });
  expect([r.step.id, r.step.link_id, r.step.open_link.link_id]).toEqual([
    "step-1",
    "link-1",
    "link-2",
  ]);

  r = await m.call("links_update", {
    id: "link-2",
    title: "Summer",
    status: "LINK_STATUS_PAUSED",
    update_mask: "title,status",
  });
  expect([r.link.id, r.link.title, r.link.status]).toEqual([
    "link-2",
    "Summer",
    "LINK_STATUS_PAUSED",
  ]);

  expect(await m.call("links_delete", { id: "link-2" })).toEqual({});
  r = await m.call("ping", "{}");
  expect(r.server_time).not.toBe("");

  const am = m.executor.aliases;
  expect(am.resolveAlias("theme-1")).toBe(themeID);
  expect(am.resolveAlias("link-1")).toBe(link1ID);
  expect(am.resolveAlias("link-2")).toBe(link2ID);
  const steps = (await env.workflows.listSteps({ linkId: link1ID })).steps;
  expect(steps.map((s) => s.id)).toEqual([am.resolveAlias("step-1")]);

  await expectRecordedFrom(env, 0, [
    want(
      "linkhub.v1.PageThemeService/CreatePageTheme",
      CreatePageThemeRequestSchema,
      {
        workspaceId: ws,
        name: "Spring",
        backgroundColor: "#ffeedd",
        font: "Inter",
        palette: { accent: "#ff0066" },
      },
    ),
    want("linkhub.v1.LinkService/CreateLink", CreateLinkRequestSchema, {
      workspaceId: ws,
      targetUrl: "https://example.com/spring",
      pageThemeId: themeID,
      labels: { campaign: "spring" },
      title: "Spring sale",
      expireAfter: { seconds: 86400n },
    }),
    want("linkhub.v1.LinkService/CreateLink", CreateLinkRequestSchema, {
      workspaceId: ws,
      targetUrl: "https://example.com/summer",
      slug: "summer",
    }),
    want("linkhub.v1.LinkService/ListLinks", ListLinksRequestSchema, {
      workspaceId: ws,
    }),
    want("linkhub.v1.LinkService/ListLinks", ListLinksRequestSchema, {
      workspaceId: ws,
    }), // ours
    want("linkhub.v1.WorkflowService/CreateStep", CreateStepRequestSchema, {
      linkId: link1ID,
      action: { case: "openLink", value: { linkId: link2ID } },
    }),
    want("linkhub.v1.LinkService/UpdateLink", UpdateLinkRequestSchema, {
      id: link2ID,
      title: "Summer",
      status: LinkStatus.PAUSED,
      updateMask: { paths: ["title", "status"] },
    }),
    want("linkhub.v1.LinkService/DeleteLink", DeleteLinkRequestSchema, {
      id: link2ID,
    }),
    want("linkhub.v1.WorkflowService/Ping", EmptySchema, {}),
    want("linkhub.v1.WorkflowService/ListSteps", ListStepsRequestSchema, {
      linkId: link1ID,
    }), // ours
  ]);
});
