import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FieldViolationSchema,
  ResourceInfoSchema,
} from "../src/gen/linkhub/v1/control_pb.js";
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

const workspaceId = "ws-themes";

describe("PageThemeService", () => {
  it("creates and lists themes in creation order", async () => {
    const { pageTheme: dark } = await h.themes.createPageTheme({
      workspaceId,
      name: "Dark",
      backgroundColor: "#101010",
      font: "Inter",
      palette: { accent: "#ff0066" },
    });
    expect(dark?.id).toMatch(uuidPattern);
    expect(dark?.font).toBe("Inter");
    expect(dark?.palette).toEqual({ accent: "#ff0066" });
    expect(dark?.updateTime).toBeDefined();
    const { pageTheme: light } = await h.themes.createPageTheme({
      workspaceId,
      name: "Light",
    });
    expect(light?.font).toBeUndefined();
    await h.themes.createPageTheme({ workspaceId: "elsewhere", name: "X" });

    const { pageThemes } = await h.themes.listPageThemes({ workspaceId });
    expect(pageThemes.map((t) => t.name)).toEqual(["Dark", "Light"]);
  });

  it("updates the fields that are set", async () => {
    const { pageTheme } = await h.themes.createPageTheme({
      workspaceId,
      name: "Dark",
      backgroundColor: "#000000",
      font: "Inter",
    });
    const id = pageTheme?.id ?? "";
    const { pageTheme: updated } = await h.themes.updatePageTheme({
      id,
      backgroundColor: "#FFFFFF",
    });
    expect(updated?.name).toBe("Dark");
    expect(updated?.backgroundColor).toBe("#FFFFFF");
    expect(updated?.font).toBe("Inter");

    const { pageTheme: renamed } = await h.themes.updatePageTheme({
      id,
      name: "Night",
      font: "Mono",
    });
    expect(renamed?.name).toBe("Night");
    expect(renamed?.font).toBe("Mono");
    expect(renamed?.backgroundColor).toBe("#FFFFFF");
    const { pageThemes } = await h.themes.listPageThemes({ workspaceId });
    expect(pageThemes).toEqual([renamed]);
  });

  it("rejects a background color that is not #RRGGBB", async () => {
    const err = await expectConnectError(
      h.themes.createPageTheme({ workspaceId, backgroundColor: "red" }),
      Code.InvalidArgument,
    );
    expect(err.rawMessage).toBe(
      'background_color "red" is not a color of the form #RRGGBB',
    );
    expect(err.findDetails(FieldViolationSchema)[0]?.field).toBe(
      "background_color",
    );
  });

  it("fails with NOT_FOUND for an unknown theme", async () => {
    const err = await expectConnectError(
      h.themes.updatePageTheme({ id: "missing", name: "x" }),
      Code.NotFound,
    );
    expect(err.rawMessage).toBe('page_theme "missing" not found');
    expect(err.findDetails(ResourceInfoSchema)[0]).toMatchObject({
      resourceType: "page_theme",
      resourceId: "missing",
    });
  });
});
