import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ResourceInfoSchema } from "../src/gen/linkhub/v1/control_pb.js";
import { ExportLinksResponseSchema } from "../src/gen/linkhub/v1/exports_pb.js";
import {
  expectConnectError,
  startHarness,
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

describe("ExportService and google.longrunning.Operations", () => {
  it("starts an operation that GetOperation finds done with its response", async () => {
    for (const targetUrl of ["https://a.example.com", "https://b.example.com"])
      await h.links.createLink({ workspaceId: "ws-exp", targetUrl });
    await h.links.createLink({
      workspaceId: "ws-other",
      targetUrl: "https://c.example.com",
    });
    const started = await h.exports.exportLinks({ workspaceId: "ws-exp" });
    expect(started.name).toBe("workspaces/ws-exp/operations/1");
    expect(started.done).toBe(false);
    expect(started.result.case).toBeUndefined();

    const polled = await h.operations.getOperation({ name: started.name });
    expect(polled.name).toBe(started.name);
    expect(polled.done).toBe(true);
    expect(polled.result.case).toBe("response");
    const response =
      polled.result.case === "response"
        ? anyUnpack(polled.result.value, ExportLinksResponseSchema)
        : undefined;
    expect(response?.linkCount).toBe(2);
    expect(response?.uri).toBe(
      "https://exports.example.com/workspaces/ws-exp/operations/1.csv",
    );

    const second = await h.exports.exportLinks({ workspaceId: "ws-other" });
    expect(second.name).toBe("workspaces/ws-other/operations/2");
  });

  it("records the name GetOperation received", async () => {
    const { name } = await h.exports.exportLinks({ workspaceId: "ws-rec" });
    await h.operations.getOperation({ name });
    const { requests } = await h.control.getRecorded({});
    expect(
      requests.map((r) => [r.procedure, JSON.parse(r.requestJson) as unknown]),
    ).toEqual([
      ["linkhub.v1.ExportService/ExportLinks", { workspaceId: "ws-rec" }],
      [
        "google.longrunning.Operations/GetOperation",
        { name: "workspaces/ws-rec/operations/1" },
      ],
    ]);
  });

  it("answers NOT_FOUND for an unknown operation, and numbers from 1 after a reset", async () => {
    await h.exports.exportLinks({ workspaceId: "ws-a" });
    const err = await expectConnectError(
      h.operations.getOperation({ name: "workspaces/ws-a/operations/9" }),
      Code.NotFound,
    );
    expect(err.rawMessage).toBe(
      'operation "workspaces/ws-a/operations/9" not found',
    );
    expect(err.findDetails(ResourceInfoSchema)[0]?.resourceType).toBe(
      "operation",
    );
    await h.control.reset({});
    const again = await h.exports.exportLinks({ workspaceId: "ws-a" });
    expect(again.name).toBe("workspaces/ws-a/operations/1");
  });

  it("refuses an empty workspace_id", async () => {
    await expectConnectError(
      h.exports.exportLinks({ workspaceId: "" }),
      Code.InvalidArgument,
    );
  });
});
