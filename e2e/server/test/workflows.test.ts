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

async function createLink(): Promise<string> {
  const { link } = await h.links.createLink({
    workspaceId: "ws-steps",
    targetUrl: "https://example.com",
  });
  return link?.id ?? "";
}

describe("WorkflowService", () => {
  it("numbers a link's steps from 1 and lists them in order", async () => {
    const first = await createLink();
    const second = await createLink();
    const a = await h.workflows.createStep({
      linkId: first,
      action: {
        case: "sendEmail",
        value: { to: "a@example.com", subject: "Hi" },
      },
    });
    const b = await h.workflows.createStep({
      linkId: second,
      action: { case: "wait", value: { duration: { seconds: 60n } } },
    });
    const c = await h.workflows.createStep({
      linkId: first,
      action: { case: "openLink", value: { linkId: second } },
    });
    expect(a.step?.id).toMatch(uuidPattern);
    expect(a.step?.position).toBe(1);
    expect(b.step?.position).toBe(1);
    expect(c.step?.position).toBe(2);
    expect(c.step?.action).toMatchObject({
      case: "openLink",
      value: { linkId: second },
    });

    const { steps } = await h.workflows.listSteps({ linkId: first });
    expect(steps).toEqual([a.step, c.step]);
  });

  it("requires an existing link", async () => {
    const err = await expectConnectError(
      h.workflows.createStep({
        linkId: "ghost",
        action: { case: "wait", value: {} },
      }),
      Code.NotFound,
    );
    expect(err.rawMessage).toBe('link "ghost" not found');
    expect(err.findDetails(ResourceInfoSchema)[0]).toMatchObject({
      resourceType: "link",
      resourceId: "ghost",
    });
    await expectConnectError(
      h.workflows.listSteps({ linkId: "ghost" }),
      Code.NotFound,
    );
  });

  it("requires exactly one action", async () => {
    const linkId = await createLink();
    const err = await expectConnectError(
      h.workflows.createStep({ linkId }),
      Code.InvalidArgument,
    );
    const [violation] = err.findDetails(FieldViolationSchema);
    expect(violation?.field).toBe("action");
    expect(violation?.description).toBe(err.rawMessage);
    const { steps } = await h.workflows.listSteps({ linkId });
    expect(steps).toEqual([]);
  });

  it("requires the link an open_link step opens to exist", async () => {
    const linkId = await createLink();
    const err = await expectConnectError(
      h.workflows.createStep({
        linkId,
        action: { case: "openLink", value: { linkId: "elsewhere" } },
      }),
      Code.NotFound,
    );
    expect(err.findDetails(ResourceInfoSchema)[0]?.resourceId).toBe(
      "elsewhere",
    );
  });

  it("answers a ping with an RFC 3339 server time", async () => {
    const before = Date.now();
    const { serverTime } = await h.workflows.ping({});
    expect(serverTime).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/,
    );
    const at = Date.parse(serverTime);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});
