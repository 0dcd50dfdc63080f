// Scenario 6: fifty conversations at once, one executor each, all on one
// transport. Each numbers its aliases from 1, and they resolve to its own
// entities only.
import { expect, it } from "vitest";
import { GetLinkRequestSchema } from "../src/gen/linkhub/v1/links_pb.js";
import {
  Model,
  aliasRe,
  decodeRecorded,
  newUUID,
  recorded,
  resetServer,
  useServer,
  uuidRe,
} from "./support.js";

const env = useServer();

it("50 parallel conversations stay apart", async () => {
  await resetServer(env);
  const results = await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const ws = newUUID();
      const m = new Model(env, ws);
      for (let k = 1; k <= 2; k++) {
        const r = await m.call("page_themes_create", {
          workspace_id: ws,
          name: `c${i} theme ${k}`,
          background_color: "",
          font: "",
          palette: [],
        });
        expect(r.page_theme.id).toBe(`theme-${k}`);
      }
      for (let k = 1; k <= 3; k++) {
        const r = await m.call("links_create", {
          workspace_id: ws,
          target_url: `https://example.com/c${i}/${k}`,
          slug: null,
          page_theme_id: `theme-${1 + (k % 2)}`,
          labels: [],
          title: `c${i} link ${k}`,
          expire_after: null,
        });
        expect([r.link.id, r.link.page_theme_id]).toEqual([
          `link-${k}`,
          `theme-${1 + (k % 2)}`,
        ]);
      }
      let r = await m.call("links_list", {
        workspace_id: ws,
        page_theme_id: "theme-2",
      });
      expect(r.links.map((l: { id: string }) => l.id)).toEqual([
        "link-1",
        "link-3",
      ]);
      r = await m.call("links_get", { id: "link-2" });
      expect(r.link.title).toBe(`c${i} link 2`);
      r = await m.call("steps_create", {
        link_id: "link-3",
        send_email: null,
        open_link: { link_id: "link-2" },
        wait: null,
      });
      expect([r.step.id, r.step.link_id, r.step.open_link.link_id]).toEqual([
        "step-1",
        "link-3",
        "link-2",
      ]);
      r = await m.call("steps_list", { link_id: "link-3" });
      expect(r.steps.map((s: { id: string }) => s.id)).toEqual(["step-1"]);
      return { ws, m };
    }),
  );

  const wantGets: string[] = [];
  for (const [i, { ws, m }] of results.entries()) {
    const am = m.executor.aliases;
    const links = (await env.links.listLinks({ workspaceId: ws })).links;
    const themes = (await env.themes.listPageThemes({ workspaceId: ws }))
      .pageThemes;
    expect([links.length, themes.length], `conversation ${i}`).toEqual([3, 2]);
    links.forEach((l, k) =>
      expect(am.resolveAlias(`link-${k + 1}`)).toBe(l.id),
    );
    themes.forEach((t, k) =>
      expect(am.resolveAlias(`theme-${k + 1}`)).toBe(t.id),
    );
    expect(am.exportState().match(uuidRe), `conversation ${i}`).toHaveLength(6);
    wantGets.push(links[1]!.id);
  }
  const gets: string[] = [];
  for (const rec of await recorded(env)) {
    if (rec.procedure === "linkhub.v1.LinkService/GetLink") {
      const { schema, message } = decodeRecorded(rec);
      expect(schema).toBe(GetLinkRequestSchema);
      gets.push((message as unknown as { id: string }).id);
    }
    expect(rec.requestJson).not.toMatch(aliasRe);
  }
  expect(gets.sort()).toEqual(wantGets.sort());
});
