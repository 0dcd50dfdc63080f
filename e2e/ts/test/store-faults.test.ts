// Faults of the Redis conversation store end to end (issue 12, point 4),
// with the worker processes of dist/store-worker.js against the test
// server: a worker killed with SIGKILL in the middle of its calls loses no
// alias it showed; Redis killed makes calls fail store-unavailable (never
// a wrong link), and Redis restarted empty refuses the old conversation as
// expired while new ones work.
import { expect, it } from "vitest";
import { newUUID, useServer } from "./support.js";
import {
  linkArgs,
  spawnStoreWorker,
  useRedis,
  type WorkerAnswer,
} from "./store-worker-client.js";

const env = useServer({ process: true });
const redisEnv = useRedis();

type Link = { link: { id: string; title: string } };
const linkOf = (a: WorkerAnswer) => (a.result as Link | undefined)?.link;

it("a worker killed with SIGKILL mid-run loses no alias it showed", async () => {
  const ws = newUUID();
  const doomed = spawnStoreWorker(env.server.address, redisEnv.server.url, 8);
  const handle = await doomed.start();
  const shown = new Map<string, string>(); // alias → title
  const calls = Array.from({ length: 400 }, (_, i) =>
    doomed.call(handle, "links_create", linkArgs(ws, `t${i}`)).then((a) => {
      const link = linkOf(a);
      if (link !== undefined) shown.set(link.id, link.title);
    }),
  );
  while (shown.size < 40) {
    await new Promise((r) => setTimeout(r, 5));
  }
  doomed.child.kill("SIGKILL");
  await doomed.close();
  void Promise.allSettled(calls);
  expect(shown.size).toBeGreaterThanOrEqual(40);

  // Another worker resolves every alias shown to the link it named.
  const next = spawnStoreWorker(env.server.address, redisEnv.server.url, 8);
  const answers = await Promise.all(
    [...shown.keys()].map((alias) =>
      next.call(handle, "links_get", { id: alias }),
    ),
  );
  [...shown].forEach(([alias, title], i) => {
    expect(linkOf(answers[i]!), JSON.stringify(answers[i])).toEqual(
      expect.objectContaining({ id: alias, title }),
    );
  });
  expect(await next.close()).toBe(0);
});

it("Redis killed: store-unavailable; restarted empty: the old conversation expired, new ones work", async () => {
  const ws = newUUID();
  const w = spawnStoreWorker(env.server.address, redisEnv.server.url, 1);
  const handle = await w.start();
  expect(
    linkOf(await w.call(handle, "links_create", linkArgs(ws, "a")))?.id,
  ).toBe("link-1");

  await redisEnv.server.kill();
  const down = await w.call(handle, "links_get", { id: "link-1" });
  expect(down.error).toEqual(
    expect.objectContaining({
      reason: "store-unavailable",
      code: "UNAVAILABLE",
    }),
  );
  expect(down.result).toBeUndefined();

  await redisEnv.server.restart();
  let lost: WorkerAnswer | undefined;
  const deadline = Date.now() + 15_000;
  do {
    // Until the client has reconnected, the store is still unavailable.
    await new Promise((r) => setTimeout(r, 100));
    lost = await w.call(handle, "links_get", { id: "link-1" });
  } while (lost.error?.reason === "store-unavailable" && Date.now() < deadline);
  expect(lost.error).toEqual({
    reason: "conversation-expired",
    code: "NOT_FOUND",
    message: `conversation "${handle}" expired or unknown: start a new conversation`,
  });
  const fresh = await w.start();
  expect(
    linkOf(await w.call(fresh, "links_create", linkArgs(ws, "b")))?.id,
  ).toBe("link-1");
  expect(await w.close()).toBe(0);
});
