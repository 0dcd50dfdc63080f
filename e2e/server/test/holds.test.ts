import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
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

const procedure = "linkhub.v1.LinkService/ListLinks";

/** Wait until the server holds n calls. */
async function held(n: number): Promise<void> {
  await expect.poll(async () => (await h.control.getHeld({})).holding).toBe(n);
}

it("ReleaseHeld lets a held call go on to its handler", async () => {
  await h.links.createLink({ workspaceId: "ws", targetUrl: "https://a.test" });
  await h.control.holdNext({ procedure });
  const call = h.links.listLinks({ workspaceId: "ws" });
  await held(1);
  expect(await h.control.releaseHeld({})).toMatchObject({ released: 1 });
  expect((await call).links).toHaveLength(1);
  expect(await h.control.getHeld({})).toMatchObject({
    holding: 0,
    cancelled: [],
  });
  expect((await h.control.releaseHeld({})).released).toBe(0);
});

it("a held call its client cancels is still cancelled, not released", async () => {
  await h.control.holdNext({ procedure });
  const abort = new AbortController();
  const call = h.links.listLinks(
    { workspaceId: "ws" },
    { signal: abort.signal },
  );
  await held(1);
  abort.abort();
  await expectConnectError(call, Code.Canceled);
  await expect
    .poll(async () => (await h.control.getHeld({})).cancelled)
    .toEqual([procedure]);
  expect((await h.control.releaseHeld({})).released).toBe(0);
});
