// Scenarios 2, 3 and 7: exact resolution with twelve links; invented and
// stale aliases refused before any request; export and restore.
import { createAliasManager } from "@protoc-gen-ai-tools/runtime";
import { Code } from "@connectrpc/connect";
import { expect, it } from "vitest";
import { aliasConfig, createExecutor } from "../src/gen/ai_tools.gen.js";
import {
  CreateLinkRequestSchema,
  GetLinkRequestSchema,
  ListLinksRequestSchema,
  UpdateLinkRequestSchema,
} from "../src/gen/linkhub/v1/links_pb.js";
import { CreatePageThemeRequestSchema } from "../src/gen/linkhub/v1/themes_pb.js";
import type { Executor } from "@protoc-gen-ai-tools/runtime";
import {
  Model,
  createLinks,
  expectRecordedFrom,
  linkIds,
  newUUID,
  recorded,
  resetServer,
  toolError,
  useServer,
  want,
  type Want,
} from "./support.js";

const env = useServer();

it("twelve links: link-10, link-11 and link-12 are never read as link-1", async () => {
  await resetServer(env);
  const ws = newUUID();
  const m = new Model(env, ws);
  const aliases = await createLinks(m, ws, 12);
  expect(aliases).toEqual(
    Array.from({ length: 12 }, (_, i) => `link-${i + 1}`),
  );
  const ids = await linkIds(env, ws);
  expect(ids).toHaveLength(12);
  const from = (await recorded(env)).length;
  const wants: Want[] = [];
  for (const n of [10, 11, 12, 1]) {
    const alias = `link-${n}`;
    const id = ids[n - 1]!;
    let r = await m.call("links_get", { id: alias });
    expect([r.link.id, r.link.title]).toEqual([alias, `link ${n}`]);
    const title = `renamed ${n}`;
    r = await m.call("links_update", {
      id: alias,
      title,
      update_mask: "title",
    });
    expect([r.link.id, r.link.title]).toEqual([alias, title]);
    wants.push(
      want("linkhub.v1.LinkService/GetLink", GetLinkRequestSchema, { id }),
      want("linkhub.v1.LinkService/UpdateLink", UpdateLinkRequestSchema, {
        id,
        title,
        updateMask: { paths: ["title"] },
      }),
    );
  }
  await expectRecordedFrom(env, from, wants);
  const links = (await env.links.listLinks({ workspaceId: ws })).links;
  links.forEach((l, i) => {
    const n = i + 1;
    expect(l.title, `link ${n}`).toBe(
      n === 1 || n >= 10 ? `renamed ${n}` : `link ${n}`,
    );
  });
});

/** A call that must fail with exactly msg before any request is sent. */
async function expectRejected(
  e: Executor,
  tool: string,
  args: string,
  msg: string,
) {
  const before = (await recorded(env)).length;
  const err = await toolError(e.execute(tool, args));
  expect(err.message).toBe(msg);
  expect(err.reason).toBe("unknown-alias");
  expect(err.code).toBe(Code.InvalidArgument);
  expect(
    (await recorded(env)).length,
    `${tool} ${args}: a request reached the server`,
  ).toBe(before);
}

it("invented and stale aliases are refused with the valid ones, and nothing is sent", async () => {
  await resetServer(env);
  const ws = newUUID();
  const a = new Model(env, ws);
  await createLinks(a, ws, 3);
  await a.call("page_themes_create", {
    workspace_id: ws,
    name: "t",
    background_color: "",
    font: "",
    palette: [],
  });

  // Invented.
  await expectRejected(
    a.executor,
    "links_get",
    `{"id":"link-99"}`,
    `invalid arguments, nothing was sent:\n- "id": unknown alias "link-99"; valid link aliases: link-1, link-2, link-3`,
  );
  await expectRejected(
    a.executor,
    "steps_create",
    `{"link_id":"link-1","send_email":null,"open_link":{"link_id":"link-4"},"wait":null}`,
    `invalid arguments, nothing was sent:\n- "open_link.link_id": unknown alias "link-4"; valid link aliases: link-1, link-2, link-3`,
  );
  await expectRejected(
    a.executor,
    "links_update",
    `{"id":"link-2","page_theme_id":"theme-2","update_mask":"pageThemeId"}`,
    `invalid arguments, nothing was sent:\n- "page_theme_id": unknown alias "theme-2"; valid theme aliases: theme-1`,
  );
  await expectRejected(
    a.executor,
    "steps_list",
    `{"link_id":"step-1"}`,
    `invalid arguments, nothing was sent:\n- "link_id": unknown alias "step-1"; no step aliases exist yet: call a tool that returns steps first`,
  );

  // Stale: seen in another conversation. b has one link of its own.
  const b = new Model(env, ws);
  await createLinks(b, ws, 1);
  await expectRejected(
    b.executor,
    "links_get",
    `{"id":"link-3"}`,
    `invalid arguments, nothing was sent:\n- "id": unknown alias "link-3"; valid link aliases: link-1`,
  );
  await expectRejected(
    b.executor,
    "links_create",
    JSON.stringify({
      workspace_id: ws,
      target_url: "https://example.com/x",
      slug: null,
      page_theme_id: "theme-1",
      labels: [],
      title: null,
      expire_after: null,
    }),
    `invalid arguments, nothing was sent:\n- "page_theme_id": unknown alias "theme-1"; no theme aliases exist yet: call a tool that returns themes first`,
  );
  const fresh = createExecutor(env.transport);
  await expectRejected(
    fresh,
    "links_delete",
    `{"id":"link-1"}`,
    `invalid arguments, nothing was sent:\n- "id": unknown alias "link-1"; no link aliases exist yet: call a tool that returns links first`,
  );

  // Stale: from before a restore of a fresh state.
  a.executor.aliases.restoreState(
    createAliasManager(aliasConfig).exportState(),
  );
  await expectRejected(
    a.executor,
    "links_get",
    `{"id":"link-2"}`,
    `invalid arguments, nothing was sent:\n- "id": unknown alias "link-2"; no link aliases exist yet: call a tool that returns links first`,
  );

  // Free text that mentions an alias is not an alias: sent as written.
  const before = (await recorded(env)).length;
  const r = await a.call("links_create", {
    workspace_id: ws,
    target_url: "https://example.com/y",
    slug: null,
    page_theme_id: "",
    labels: [{ key: "note", value: "like link-99" }],
    title: "copy of link-99",
    expire_after: null,
  });
  expect([r.link.id, r.link.title]).toEqual(["link-1", "copy of link-99"]);
  await expectRecordedFrom(env, before, [
    want("linkhub.v1.LinkService/CreateLink", CreateLinkRequestSchema, {
      workspaceId: ws,
      targetUrl: "https://example.com/y",
      title: "copy of link-99",
      labels: { note: "like link-99" },
    }),
  ]);
});

it("export/restore: a new executor carries on where the conversation stopped", async () => {
  await resetServer(env);
  const ws = newUUID();
  const a = new Model(env, ws);
  let r = await a.call("page_themes_create", {
    workspace_id: ws,
    name: "t",
    background_color: "#000000",
    font: "",
    palette: [],
  });
  expect(r.page_theme.id).toBe("theme-1");
  await createLinks(a, ws, 2);
  const state = a.executor.aliases.exportState();
  const ids = await linkIds(env, ws);
  const themes = (await env.themes.listPageThemes({ workspaceId: ws }))
    .pageThemes;
  expect([ids.length, themes.length]).toEqual([2, 1]);
  const themeID = themes[0]!.id;
  expect(state).toBe(
    `{"aliases":{"link-1":"${ids[0]}","link-2":"${ids[1]}","theme-1":"${themeID}"},"counters":{"link":2,"theme":1},"version":1}`,
  );

  const b = new Model(env, ws);
  b.executor.aliases.restoreState(state);
  const from = (await recorded(env)).length;
  r = await b.call("links_get", `{"id":"link-2"}`);
  expect(r.link.id).toBe("link-2");
  r = await b.call("links_create", {
    workspace_id: ws,
    target_url: "https://example.com/3",
    slug: null,
    page_theme_id: "theme-1",
    labels: [],
    title: null,
    expire_after: null,
  });
  expect([r.link.id, r.link.page_theme_id]).toEqual(["link-3", "theme-1"]);
  r = await b.call("page_themes_create", {
    workspace_id: ws,
    name: "u",
    background_color: "",
    font: "",
    palette: [],
  });
  expect(r.page_theme.id).toBe("theme-2");
  r = await b.call("links_list", {
    workspace_id: ws,
    page_theme_id: "theme-1",
  });
  expect(r.links.map((l: { id: string }) => l.id)).toEqual(["link-3"]);
  const all = await linkIds(env, ws);
  expect(all).toHaveLength(3);
  expect(b.executor.aliases.resolveAlias("link-3")).toBe(all[2]);
  await expectRecordedFrom(env, from, [
    want("linkhub.v1.LinkService/GetLink", GetLinkRequestSchema, {
      id: ids[1]!,
    }),
    want("linkhub.v1.LinkService/CreateLink", CreateLinkRequestSchema, {
      workspaceId: ws,
      targetUrl: "https://example.com/3",
      pageThemeId: themeID,
    }),
    want(
      "linkhub.v1.PageThemeService/CreatePageTheme",
      CreatePageThemeRequestSchema,
      {
        workspaceId: ws,
        name: "u",
        font: "",
      },
    ),
    want("linkhub.v1.LinkService/ListLinks", ListLinksRequestSchema, {
      workspaceId: ws,
      pageThemeId: themeID,
    }),
    want("linkhub.v1.LinkService/ListLinks", ListLinksRequestSchema, {
      workspaceId: ws,
    }), // ours
  ]);
  // The first conversation is untouched by the second's progress.
  expect(a.executor.aliases.resolveAlias("link-3")).toBe("link-3");
});
