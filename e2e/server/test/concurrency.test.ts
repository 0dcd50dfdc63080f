import { afterAll, beforeAll, expect, it } from "vitest";
import { startHarness, type Harness } from "./support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

it("keeps state consistent under 50 parallel conversations", async () => {
  await h.control.reset({});
  const conversations = 50;
  const stepsEach = 4;
  const { link: shared } = await h.links.createLink({
    workspaceId: "shared",
    targetUrl: "https://example.com/shared",
  });
  const sharedId = shared?.id ?? "";

  const results = await Promise.all(
    Array.from({ length: conversations }, async (_, i) => {
      const workspaceId = `ws-${i}`;
      const { link } = await h.links.createLink({
        workspaceId,
        targetUrl: `https://example.com/${i}`,
      });
      const linkId = link?.id ?? "";
      for (let s = 0; s < stepsEach; s++) {
        await h.workflows.createStep({
          linkId,
          action: { case: "wait", value: { duration: { seconds: BigInt(s) } } },
        });
      }
      // Every conversation also adds one step to the shared link.
      const { step } = await h.workflows.createStep({
        linkId: sharedId,
        action: { case: "openLink", value: { linkId } },
      });
      const { links } = await h.links.listLinks({ workspaceId });
      const { steps } = await h.workflows.listSteps({ linkId });
      return { linkId, links, steps, sharedPosition: step?.position ?? 0 };
    }),
  );

  for (const { linkId, links, steps } of results) {
    expect(links.map((l) => l.id)).toEqual([linkId]);
    expect(steps.map((s) => s.position)).toEqual([1, 2, 3, 4]);
  }
  const positions = results.map((r) => r.sharedPosition).sort((a, b) => a - b);
  expect(positions).toEqual(
    Array.from({ length: conversations }, (_, i) => i + 1),
  );
  const { steps: sharedSteps } = await h.workflows.listSteps({
    linkId: sharedId,
  });
  expect(sharedSteps.map((s) => s.position)).toEqual(positions);

  const { requests } = await h.control.getRecorded({});
  const perConversation = 1 + stepsEach + 1 + 2;
  // The shared link's creation, the conversations, the shared ListSteps.
  expect(requests).toHaveLength(1 + conversations * perConversation + 1);
});
