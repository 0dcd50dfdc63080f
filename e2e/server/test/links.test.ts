import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FieldViolationSchema,
  ResourceInfoSchema,
} from "../src/gen/linkhub/v1/control_pb.js";
import { LinkStatus } from "../src/gen/linkhub/v1/links_pb.js";
import {
  expectConnectError,
  startHarness,
  uuidPattern,
  type Harness,
} from "./support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.control.reset({});
});

const workspaceId = "7d1a1f7e-6c55-4b8e-9f0a-2f6c1d3e4b5a";

describe("CreateLink", () => {
  it("stores a link with generated fields", async () => {
    const before = Date.now();
    const { link } = await h.links.createLink({
      workspaceId,
      targetUrl: "https://example.com/spring",
      labels: { campaign: "spring" },
      title: "Spring sale",
      expireAfter: { seconds: 86400n },
    });
    expect(link).toBeDefined();
    expect(link?.id).toMatch(uuidPattern);
    expect(link?.workspaceId).toBe(workspaceId);
    expect(link?.targetUrl).toBe("https://example.com/spring");
    expect(link?.slug).toMatch(/^[0-9a-f]{8}$/);
    expect(link?.labels).toEqual({ campaign: "spring" });
    expect(link?.title).toBe("Spring sale");
    expect(link?.expireAfter?.seconds).toBe(86400n);
    expect(link?.status).toBe(LinkStatus.ACTIVE);
    expect(link?.clickCount).toBe(0n);
    const created = Number(link?.createTime?.seconds) * 1000;
    expect(created).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(created).toBeLessThanOrEqual(Date.now());
  });

  it("keeps a given slug and leaves title unset when absent", async () => {
    const { link } = await h.links.createLink({
      workspaceId,
      targetUrl: "http://example.com",
      slug: "spring-sale",
    });
    expect(link?.slug).toBe("spring-sale");
    expect(link?.title).toBeUndefined();
    expect(link?.expireAfter).toBeUndefined();
  });

  it.each([
    "",
    "example.com/x",
    "/relative",
    "ftp://example.com/file",
    "mailto:a@b.c",
  ])("rejects target_url %j with a field violation", async (targetUrl) => {
    const err = await expectConnectError(
      h.links.createLink({ workspaceId, targetUrl }),
      Code.InvalidArgument,
    );
    expect(err.rawMessage).toBe(
      `target_url ${JSON.stringify(targetUrl)} is not an absolute http(s) URL`,
    );
    const [violation, ...rest] = err.findDetails(FieldViolationSchema);
    expect(rest).toEqual([]);
    expect(violation?.field).toBe("target_url");
    expect(violation?.description).toBe(err.rawMessage);
    const { links } = await h.links.listLinks({ workspaceId });
    expect(links).toEqual([]);
  });

  it("rejects an unknown page theme with resource info", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    const err = await expectConnectError(
      h.links.createLink({
        workspaceId,
        targetUrl: "https://example.com",
        pageThemeId: missing,
      }),
      Code.NotFound,
    );
    expect(err.rawMessage).toBe(`page_theme "${missing}" not found`);
    const [info] = err.findDetails(ResourceInfoSchema);
    expect(info?.resourceType).toBe("page_theme");
    expect(info?.resourceId).toBe(missing);
  });

  it("accepts an existing page theme", async () => {
    const { pageTheme } = await h.themes.createPageTheme({
      workspaceId,
      name: "Dark",
    });
    const { link } = await h.links.createLink({
      workspaceId,
      targetUrl: "https://example.com",
      pageThemeId: pageTheme?.id ?? "",
    });
    expect(link?.pageThemeId).toBe(pageTheme?.id);
  });
});

describe("GetLink", () => {
  it("returns a stored link", async () => {
    const { link } = await h.links.createLink({
      workspaceId,
      targetUrl: "https://example.com/a",
    });
    const got = await h.links.getLink({ id: link?.id ?? "" });
    expect(got.link).toEqual(link);
  });

  it("fails with NOT_FOUND and resource info for an unknown id", async () => {
    const err = await expectConnectError(
      h.links.getLink({ id: "no-such-link" }),
      Code.NotFound,
    );
    expect(err.rawMessage).toBe('link "no-such-link" not found');
    const [info] = err.findDetails(ResourceInfoSchema);
    expect(info?.resourceType).toBe("link");
    expect(info?.resourceId).toBe("no-such-link");
  });
});

describe("ListLinks", () => {
  it("lists a workspace's links in creation order, filtered by theme", async () => {
    const { pageTheme } = await h.themes.createPageTheme({
      workspaceId,
      name: "Light",
    });
    const themeId = pageTheme?.id ?? "";
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { link } = await h.links.createLink({
        workspaceId,
        targetUrl: `https://example.com/${i}`,
        pageThemeId: i % 2 === 0 ? themeId : "",
      });
      ids.push(link?.id ?? "");
    }
    await h.links.createLink({
      workspaceId: "other-workspace",
      targetUrl: "https://example.com/other",
    });

    const all = await h.links.listLinks({ workspaceId });
    expect(all.links.map((l) => l.id)).toEqual(ids);
    const themed = await h.links.listLinks({
      workspaceId,
      pageThemeId: themeId,
    });
    expect(themed.links.map((l) => l.id)).toEqual([ids[0], ids[2], ids[4]]);
    const unset = await h.links.listLinks({ workspaceId, pageThemeId: "" });
    expect(unset.links).toHaveLength(5);
    const none = await h.links.listLinks({ workspaceId: "nobody" });
    expect(none.links).toEqual([]);
  });
});

describe("UpdateLink", () => {
  async function createLink() {
    const { link } = await h.links.createLink({
      workspaceId,
      targetUrl: "https://example.com/old",
      title: "Old",
    });
    return link?.id ?? "";
  }

  it("applies only the masked fields, in JSON or proto spelling", async () => {
    const id = await createLink();
    const { link } = await h.links.updateLink({
      id,
      targetUrl: "https://example.com/new",
      title: "Ignored",
      status: LinkStatus.PAUSED,
      updateMask: { paths: ["targetUrl", "status"] },
    });
    expect(link?.targetUrl).toBe("https://example.com/new");
    expect(link?.title).toBe("Old");
    expect(link?.status).toBe(LinkStatus.PAUSED);

    const again = await h.links.updateLink({
      id,
      title: "New",
      updateMask: { paths: ["title"] },
    });
    expect(again.link?.title).toBe("New");
    expect(again.link?.targetUrl).toBe("https://example.com/new");
    const got = await h.links.getLink({ id });
    expect(got.link).toEqual(again.link);
  });

  it("clears a masked optional field that is absent", async () => {
    const id = await createLink();
    const { link } = await h.links.updateLink({
      id,
      updateMask: { paths: ["title"] },
    });
    expect(link?.title).toBeUndefined();
  });

  it("applies every set field when the mask is empty", async () => {
    const id = await createLink();
    const { pageTheme } = await h.themes.createPageTheme({ workspaceId });
    const { link } = await h.links.updateLink({
      id,
      title: "Renamed",
      pageThemeId: pageTheme?.id ?? "",
    });
    expect(link?.title).toBe("Renamed");
    expect(link?.pageThemeId).toBe(pageTheme?.id);
    expect(link?.targetUrl).toBe("https://example.com/old");
    expect(link?.status).toBe(LinkStatus.ACTIVE);

    const cleared = await h.links.updateLink({ id, pageThemeId: "" });
    expect(cleared.link?.pageThemeId).toBe("");
  });

  it("validates like CreateLink and changes nothing on failure", async () => {
    const id = await createLink();
    const bad = await expectConnectError(
      h.links.updateLink({ id, targetUrl: "not a url", title: "Lost" }),
      Code.InvalidArgument,
    );
    expect(bad.findDetails(FieldViolationSchema)[0]?.field).toBe("target_url");

    const missingTheme = await expectConnectError(
      h.links.updateLink({ id, pageThemeId: "gone" }),
      Code.NotFound,
    );
    expect(missingTheme.findDetails(ResourceInfoSchema)[0]).toMatchObject({
      resourceType: "page_theme",
      resourceId: "gone",
    });

    const badPath = await expectConnectError(
      h.links.updateLink({ id, updateMask: { paths: ["slug"] } }),
      Code.InvalidArgument,
    );
    expect(badPath.rawMessage).toContain('update_mask path "slug"');
    expect(badPath.findDetails(FieldViolationSchema)[0]?.field).toBe(
      "update_mask",
    );

    const badStatus = await expectConnectError(
      h.links.updateLink({ id, updateMask: { paths: ["status"] } }),
      Code.InvalidArgument,
    );
    expect(badStatus.rawMessage).toBe(
      'status "LINK_STATUS_UNSPECIFIED" is not LINK_STATUS_ACTIVE or LINK_STATUS_PAUSED',
    );

    const { link } = await h.links.getLink({ id });
    expect(link?.title).toBe("Old");
    expect(link?.targetUrl).toBe("https://example.com/old");
  });

  it("fails with NOT_FOUND for an unknown id", async () => {
    const err = await expectConnectError(
      h.links.updateLink({ id: "nope", title: "x" }),
      Code.NotFound,
    );
    expect(err.findDetails(ResourceInfoSchema)[0]?.resourceId).toBe("nope");
  });
});

describe("DeleteLink", () => {
  it("removes the link and its steps", async () => {
    const { link } = await h.links.createLink({
      workspaceId,
      targetUrl: "https://example.com",
    });
    const id = link?.id ?? "";
    await h.workflows.createStep({
      linkId: id,
      action: { case: "sendEmail", value: { to: "a@example.com" } },
    });
    expect(await h.links.deleteLink({ id })).toEqual(
      expect.objectContaining({ $typeName: "google.protobuf.Empty" }),
    );
    await expectConnectError(h.links.getLink({ id }), Code.NotFound);
    await expectConnectError(
      h.workflows.listSteps({ linkId: id }),
      Code.NotFound,
    );
    const err = await expectConnectError(
      h.links.deleteLink({ id }),
      Code.NotFound,
    );
    expect(err.rawMessage).toBe(`link "${id}" not found`);
  });
});

describe("ArchiveLink", () => {
  it("pauses the link, keeps it, and returns it", async () => {
    const { link } = await h.links.createLink({
      workspaceId,
      targetUrl: "https://example.com",
    });
    const id = link?.id ?? "";
    const archived = await h.links.archiveLink({ linkId: id });
    expect(archived.link).toEqual({ ...link, status: LinkStatus.PAUSED });
    expect((await h.links.getLink({ id })).link).toEqual(archived.link);
  });

  it("fails with NOT_FOUND for an unknown id", async () => {
    const err = await expectConnectError(
      h.links.archiveLink({ linkId: "no-such-link" }),
      Code.NotFound,
    );
    expect(err.rawMessage).toBe('link "no-such-link" not found');
  });
});
