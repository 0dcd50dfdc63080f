// Cancellation through the generated MCP server (docs/mcp.md, "Deadlines and
// cancellation"): a client's notifications/cancelled, or the client going
// away, cancels the gRPC call. The test server holds the call until it sees
// the cancellation (TestControlService.HoldNext / GetHeld).
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it, vi } from "vitest";
import {
  callOk,
  connectHttp,
  connectStdio,
  newLinkArgs,
  startHttp,
  type Revision,
} from "./mcp-support.js";
import { newUUID, resetServer, useServer } from "./support.js";

const env = useServer();
const getLink = "linkhub.v1.LinkService/GetLink";

/** A held links_get, ended by `end` once the server holds it. */
async function expectCancelled(
  client: Client,
  end: (abort: AbortController) => Promise<void>,
): Promise<void> {
  await resetServer(env);
  const created = await callOk(
    client,
    "links_create",
    newLinkArgs(newUUID(), "x"),
  );
  // Over HTTP with handles (2026-07-28), link-1 lives in this conversation.
  const handle = created._meta?.["ai-tools/conversation"];
  await env.control.holdNext({ procedure: getLink });
  const abort = new AbortController();
  const call = client
    .callTool(
      {
        name: "links_get",
        arguments: { id: "link-1" },
        ...(handle === undefined
          ? {}
          : { _meta: { "ai-tools/conversation": handle } }),
      },
      { signal: abort.signal },
    )
    .then(
      () => "answered",
      () => "failed",
    );
  await vi.waitFor(async () =>
    expect((await env.control.getHeld({})).holding).toBe(1),
  );
  await end(abort);
  expect(await call).toBe("failed");
  await vi.waitFor(async () =>
    expect(await env.control.getHeld({})).toMatchObject({
      holding: 0,
      cancelled: [getLink],
    }),
  );
}

const revisions: Revision[] = ["2026-07-28", "2025-11-25"];

describe("stdio", () => {
  for (const revision of revisions) {
    it(`notifications/cancelled cancels the gRPC call (${revision})`, async () => {
      const client = await connectStdio(env, revision);
      await expectCancelled(client, (abort) => {
        abort.abort();
        return Promise.resolve();
      });
    });
  }

  it("a client that goes away cancels the gRPC call", async () => {
    const client = await connectStdio(env, "2026-07-28");
    await expectCancelled(client, () => client.close());
  });
});

describe("HTTP", () => {
  for (const revision of revisions) {
    it(`notifications/cancelled and a client that goes away cancel the gRPC call (${revision})`, async () => {
      const http = await startHttp(env);
      const a = await connectHttp(http, revision);
      await expectCancelled(a, (abort) => {
        abort.abort();
        return Promise.resolve();
      });
      const b = await connectHttp(http, revision);
      await expectCancelled(b, () => b.close());
    });
  }
});
