// Redis Cluster (issue 34, point 1): the store workers of Go, Python and
// TypeScript on a local cluster of three primaries with a replica each,
// each worker given one node as its seed (--redis-cluster). Conversations
// go on through the three languages whichever primary holds them, and
// each language loads a tool into them (issue 36); a manual failover
// (CLUSTER FAILOVER on the replica) keeps a conversation whole, its loaded
// tools too; after its primary is killed (SIGKILL) the conversation is
// served again once the replica has taken over, with each alias still
// naming one UUID.
import { randomUUID } from "node:crypto";
import {
  startServerProcess,
  type ServerProcess,
} from "@protoc-gen-ai-tools/e2e-server";
import {
  startRedisCluster,
  type RedisCluster,
} from "@protoc-gen-ai-tools/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  keyOf,
  linkArgs,
  readLayout,
  resultOf,
  Seen,
  type ShownLink,
} from "./checks.js";
import {
  closeAll,
  continueAcross,
  ms,
  parseHash,
  spawnWorkerSet,
  untilServed,
  type WorkerSet,
} from "./faults.js";
import { buildWorkers, languages } from "./workers.js";

let server: ServerProcess;
let cluster: RedisCluster;
let workers: WorkerSet;

beforeAll(async () => {
  buildWorkers();
  [server, cluster] = await Promise.all([
    startServerProcess(),
    startRedisCluster(),
  ]);
  workers = spawnWorkerSet(server.address, cluster.url, { cluster: true });
});

afterAll(async () => {
  await closeAll(workers);
  await cluster?.stop();
  await server?.close();
});

/** A conversation's hash, read on the primary serving it. */
async function hashOf(handle: string): Promise<Record<string, string>> {
  const { primary } = await cluster.shardOf(keyOf(handle));
  return parseHash(await primary.cli("HGETALL", keyOf(handle)));
}

/** A conversation and what was shown in it. */
interface Conversation {
  readonly handle: string;
  readonly seen: Seen;
  /** The port of the primary serving it when started. */
  readonly port: number;
}

/** Start a conversation in the first language and go on through the three. */
async function converse(label: string): Promise<Conversation> {
  const handle = await workers.get(languages[0]!)!.start();
  const seen = new Seen(randomUUID());
  await continueAcross(workers, handle, seen, label);
  const { primary } = await cluster.shardOf(keyOf(handle));
  return { handle, seen, port: primary.port };
}

/** Every alias shown resolves, in every language, to what was shown. */
async function expectWhole(c: Conversation, label: string): Promise<void> {
  for (const l of languages) {
    for (const [alias, title] of c.seen.titles) {
      if (!alias.startsWith("link-")) continue;
      const { link } = resultOf<{ link: ShownLink }>(
        await workers.get(l)!.call(c.handle, "links_get", { id: alias }),
        `${label}: ${l} links_get ${alias}`,
      );
      expect(link, `${label}: ${l} ${alias}`).toMatchObject({
        id: alias,
        title,
      });
    }
  }
}

/** The tools each language loads into every conversation, in turn. */
const tools = languages.map((l) => `${l}_tool`);

/**
 * Each language loads its tool into the conversation, in turn, then each
 * reads the list back: one key, so one slot, whichever primary holds it.
 */
async function loadAcross(handle: string, label: string): Promise<void> {
  for (const [i, l] of languages.entries()) {
    const a = (await workers.get(l)!.send({
      op: "loadTools",
      handle,
      tools: [tools[i]],
    })) as { loaded?: string[] };
    expect(a.loaded, `${label}: ${l} loadTools`).toEqual(tools.slice(0, i + 1));
  }
  await expectLoaded(handle, label);
}

/** Every language reads the three tools back, in load order. */
async function expectLoaded(handle: string, label: string): Promise<void> {
  for (const l of languages) {
    const a = (await workers.get(l)!.send({ op: "loadedTools", handle })) as {
      loaded?: string[];
    };
    expect(a.loaded, `${label}: ${l} loadedTools`).toEqual(tools);
  }
}

const conversations: Conversation[] = [];
/** The ports of the shard failed over by CLUSTER FAILOVER. */
const failedOver: number[] = [];

it("conversations go on through the three languages on every primary", async () => {
  // Handles are random: start conversations until each primary holds one.
  for (let i = 0; conversations.length < 40; i++) {
    const c = await converse(`conversation ${i}`);
    conversations.push(c);
    if (new Set(conversations.map((x) => x.port)).size === 3) break;
  }
  expect(new Set(conversations.map((c) => c.port)).size).toBe(3);
  for (const c of conversations) {
    await continueAcross(workers, c.handle, c.seen, "again");
    await loadAcross(c.handle, c.handle);
    readLayout(await hashOf(c.handle), c.handle);
  }
});

it("CLUSTER FAILOVER of a conversation's shard: the conversation is whole in every language", async () => {
  const c = conversations[0]!;
  const began = performance.now();
  const { primary } = await cluster.failover(keyOf(c.handle));
  const took = performance.now() - began;
  expect(primary.port).not.toBe(c.port);
  failedOver.push(primary.port, c.port);
  const since = performance.now();
  const figures = [];
  for (const l of languages) {
    const w = workers.get(l)!;
    const served = await untilServed(w, since, () =>
      w.call(c.handle, "links_get", { id: "link-1" }),
    );
    figures.push(`${l} ${ms(served.ms)} (${served.failed.length} failed)`);
  }
  await expectWhole(c, "after CLUSTER FAILOVER");
  await expectLoaded(c.handle, "after CLUSTER FAILOVER");
  await continueAcross(workers, c.handle, c.seen, "after CLUSTER FAILOVER");
  readLayout(await hashOf(c.handle), "after CLUSTER FAILOVER");
  console.log(
    `cluster failover (CLUSTER FAILOVER): replica promoted in ${ms(took)}; served again after ${figures.join(", ")}`,
  );
});

it("SIGKILL of a conversation's primary: served again after the takeover, each alias still one UUID", async () => {
  // Not on the workers' seed node (a client losing its seed is not the
  // point), nor on the shard failed over above.
  const touched = [cluster.nodes[0]!.port, ...failedOver];
  let c: Conversation | undefined;
  for (const x of conversations) {
    const { primary, replicas } = await cluster.shardOf(keyOf(x.handle));
    const ports = [primary, ...replicas].map((n) => n.port);
    if (!ports.some((p) => touched.includes(p))) c = x;
  }
  expect(c, "a conversation on an untouched shard").toBeDefined();
  const key = keyOf(c!.handle);
  const { handle, seen } = c!;
  const before = readLayout(await hashOf(handle), "before the kill").aliases;
  const { takeover } = await cluster.killPrimary(key);
  const began = performance.now();
  const tookOver = takeover.then(() => performance.now() - began);
  const served = await Promise.all(
    languages.map((l) => {
      const w = workers.get(l)!;
      return untilServed(w, began, () =>
        w.call(handle, "links_list", {
          workspace_id: seen.ws,
          page_theme_id: null,
        }),
      );
    }),
  );
  const took = await tookOver;
  // Served (a replica may be older than the last write: asynchronous
  // replication), each alias listed once, each naming one UUID.
  for (const [i, s] of served.entries()) {
    const { links } = s.answer.result as { links: ShownLink[] };
    const ids = links.map((l) => l.id);
    expect(new Set(ids).size, `${languages[i]}: aliases listed`).toBe(
      ids.length,
    );
    expect(ids.length, `${languages[i]}: links listed`).toBeGreaterThan(0);
  }
  const after = readLayout(await hashOf(handle), "after the takeover").aliases;
  // New links get new aliases, each naming its own UUID. A client may
  // still try the dead node until it reloads its slot map: those calls
  // are store-unavailable, counted.
  const made = [];
  const late = [];
  for (const l of languages) {
    const w = workers.get(l)!;
    const { answer, failed } = await untilServed(w, performance.now(), () =>
      w.call(
        handle,
        "links_create",
        linkArgs(seen.ws, `after ${l}`, "theme-1"),
      ),
    );
    made.push(
      resultOf<{ link: ShownLink }>(answer, `${l} links_create`).link.id,
    );
    late.push(`${l} ${failed.length}`);
  }
  expect(new Set(made).size).toBe(languages.length);
  const last = readLayout(await hashOf(handle), "after new links").aliases;
  expect(new Set(made.map((alias) => last.get(alias))).size).toBe(
    languages.length,
  );
  for (const alias of made) expect(after.has(alias), alias).toBe(false);
  console.log(
    `cluster primary SIGKILLed: takeover seen by every node ${ms(took)} after the kill; served again after ${served.map((s, i) => `${languages[i]} ${ms(s.ms)} (${s.failed.length} store-unavailable)`).join(", ")}; aliases before ${before.size}, after ${after.size}; store-unavailable after that: ${late.join(", ")}`,
  );
});
