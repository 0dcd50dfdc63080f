import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  startHarness,
  expectConnectError,
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

describe("TestControlService", () => {
  it("records every request to the other services, oldest first, before validation", async () => {
    const { link } = await h.links.createLink({
      workspaceId: "ws",
      targetUrl: "https://example.com",
      labels: { b: "2", a: "1" },
    });
    await expectConnectError(
      h.links.createLink({ workspaceId: "ws", targetUrl: "nope" }),
      Code.InvalidArgument,
    );
    await expectConnectError(h.links.getLink({ id: "missing" }), Code.NotFound);
    await h.workflows.ping({});
    await h.samples.echoLoose({ big: 5n, note: "" });
    await h.control.getRecorded({});

    const { requests } = await h.control.getRecorded({});
    expect(
      requests.map((r) => ({
        procedure: r.procedure,
        requestJson: r.requestJson,
      })),
    ).toEqual([
      {
        procedure: "linkhub.v1.LinkService/CreateLink",
        requestJson:
          '{"workspaceId":"ws","targetUrl":"https://example.com","labels":{"b":"2","a":"1"}}',
      },
      {
        procedure: "linkhub.v1.LinkService/CreateLink",
        requestJson: '{"workspaceId":"ws","targetUrl":"nope"}',
      },
      {
        procedure: "linkhub.v1.LinkService/GetLink",
        requestJson: '{"id":"missing"}',
      },
      { procedure: "linkhub.v1.WorkflowService/Ping", requestJson: "{}" },
      {
        procedure: "linkhub.v1.SampleService/EchoLoose",
        requestJson: '{"big":"5","note":""}',
      },
    ]);
    expect(link).toBeDefined();
  });

  it("records a request that has no JSON form, and still handles it", async () => {
    const { link } = await h.links.createLink({
      workspaceId: "ws",
      targetUrl: "https://example.com",
    });
    const id = link?.id ?? "";
    const { link: updated } = await h.links.updateLink({
      id,
      title: "T",
      updateMask: { paths: ["title"] },
    });
    expect(updated?.title).toBe("T");
    await h.links
      .updateLink({
        id,
        title: "U",
        updateMask: { paths: ["targetUrl"] },
      })
      .catch(() => undefined);

    const { requests } = await h.control.getRecorded({});
    expect(requests.map((r) => r.requestJson).slice(1)).toEqual([
      `{"id":"${id}","title":"T","updateMask":"title"}`,
      JSON.stringify({
        $error:
          'cannot encode message google.protobuf.FieldMask to JSON: lowerCamelCase of path name "targetUrl" is irreversible',
      }),
    ]);
  });

  it("records each request's metadata, authorization included, without pseudo-headers", async () => {
    await h.links.listLinks(
      { workspaceId: "ws" },
      {
        headers: [
          ["Authorization", "Bearer backend-token"],
          ["x-user-id", "alice"],
          ["x-tenant", "a"],
          ["x-tenant", "b"],
        ],
      },
    );
    await h.links.listLinks({ workspaceId: "ws" });

    const [first, second] = (await h.control.getRecorded({})).requests;
    expect(first?.metadata).toMatchObject({
      authorization: "Bearer backend-token",
      "x-user-id": "alice",
      "x-tenant": "a, b",
      "content-type": "application/grpc+proto",
    });
    expect(
      Object.keys(first?.metadata ?? {}).filter((k) => k.startsWith(":")),
    ).toEqual([]);
    expect(second?.metadata).not.toHaveProperty("authorization");
    expect(second?.metadata).not.toHaveProperty("x-user-id");
  });

  it("reset forgets recordings and every entity", async () => {
    const { pageTheme } = await h.themes.createPageTheme({ workspaceId: "ws" });
    const { link } = await h.links.createLink({
      workspaceId: "ws",
      targetUrl: "https://example.com",
    });
    await h.workflows.createStep({
      linkId: link?.id ?? "",
      action: { case: "wait", value: {} },
    });
    expect((await h.control.getRecorded({})).requests).toHaveLength(3);

    await h.control.reset({});
    expect((await h.control.getRecorded({})).requests).toEqual([]);
    expect((await h.links.listLinks({ workspaceId: "ws" })).links).toEqual([]);
    expect(
      (await h.themes.listPageThemes({ workspaceId: "ws" })).pageThemes,
    ).toEqual([]);
    await expectConnectError(
      h.links.getLink({ id: link?.id ?? "" }),
      Code.NotFound,
    );
    await expectConnectError(
      h.themes.updatePageTheme({ id: pageTheme?.id ?? "" }),
      Code.NotFound,
    );
    // The calls after the reset are recorded afresh.
    expect((await h.control.getRecorded({})).requests).toHaveLength(4);
  });
});
