// Load test of the Redis conversation store (issue 12, point 3): 50
// conversations, each served by 2 worker processes at once (dist/store-
// worker.js, the generated executor on Redis), 100 calls per conversation
// and worker, against the shared test server (its own process) and a real
// redis-server. Every call must reach the right UUID: a link created by one
// worker and fetched by alias by the other comes back with its own title;
// at the end, the server's links and the conversation's aliases agree, and
// each conversation numbers link-1 … link-100 without gap or duplicate.
import { createRedisConversationStore } from "@protoc-gen-ai-tools/runtime/redis";
import { createClient } from "redis";
import { expect, it } from "vitest";
import { newUUID, resetServer, useServer } from "./support.js";
import {
  linkArgs,
  spawnStoreWorker,
  useRedis,
  type StoreWorker,
  type WorkerAnswer,
} from "./store-worker-client.js";

const env = useServer({ process: true });
const redisEnv = useRedis();

// 50 conversations × 100 calls in the nightly run (bash scripts/nightly.sh
// load sets AI_TOOLS_NIGHTLY=1), 10 × 20 as .ci/run's smoke; LOAD_CONVERSATIONS
// and LOAD_CALLS set either.
const nightly = process.env["AI_TOOLS_NIGHTLY"] === "1";
const conversations = Number(
  process.env["LOAD_CONVERSATIONS"] ?? (nightly ? 50 : 10),
);
const callsPerWorker = Number(
  process.env["LOAD_CALLS"] ?? (nightly ? 100 : 20),
);

interface Link {
  readonly id: string;
  readonly title: string;
}

function resultOf(a: WorkerAnswer, what: string): { link: Link } {
  if (a.result === undefined) {
    throw new Error(`${what}: ${JSON.stringify(a)}`);
  }
  return a.result as { link: Link };
}

// About 30 s on an idle 2-core machine; more on a busy one.
it(
  `${conversations} conversations × 2 worker processes × ${callsPerWorker} calls through Redis`,
  {
    timeout: 600_000,
  },
  async () => {
    await resetServer(env);
    const workers: StoreWorker[] = [0, 1].map(() =>
      spawnStoreWorker(
        env.server.address,
        redisEnv.server.url,
        2 * conversations,
      ),
    );
    const t0 = Date.now();
    let calls = 0;
    let gets = 0;
    const runConversation = async (c: number) => {
      const ws = newUUID();
      const handle = await workers[c % 2]!.start();
      const titles = new Map<string, string>(); // alias → title, as shown
      const aliasOf = new Map<string, string>(); // title → alias
      const drive = async (w: number) => {
        for (let i = 0; i < callsPerWorker; i++) {
          const known = [...titles.keys()];
          if (i % 2 === 1 && known.length > 0) {
            // Fetch a link by alias, most often one the other worker made.
            const alias = known[(i * 7 + w * 13 + c) % known.length]!;
            const { link } = resultOf(
              await workers[w]!.call(handle, "links_get", { id: alias }),
              `conversation ${c} worker ${w} links_get ${alias}`,
            );
            expect(link.id).toBe(alias);
            expect(link.title, `${alias} in conversation ${c}`).toBe(
              titles.get(alias),
            );
            gets++;
          } else {
            const title = `c${c}-w${w}-${i}`;
            const { link } = resultOf(
              await workers[w]!.call(
                handle,
                "links_create",
                linkArgs(ws, title),
              ),
              `conversation ${c} worker ${w} links_create`,
            );
            expect(link.title).toBe(title);
            expect(titles.has(link.id), `${link.id} shown twice`).toBe(false);
            titles.set(link.id, title);
            aliasOf.set(title, link.id);
          }
          calls++;
        }
      };
      await Promise.all([drive(0), drive(1)]);
      return { ws, handle, titles, aliasOf };
    };
    const results = await Promise.all(
      Array.from({ length: conversations }, (_, c) => runConversation(c)),
    );
    const seconds = (Date.now() - t0) / 1000;
    expect(await Promise.all(workers.map((w) => w.close()))).toEqual([0, 0]);

    // Against the server's data and the store.
    const client = createClient({ url: redisEnv.server.url });
    client.on("error", () => {}); // the store reports each failed call
    await client.connect();
    const store = createRedisConversationStore({ client });
    try {
      for (const { ws, handle, titles, aliasOf } of results) {
        const n = titles.size;
        expect(n).toBeGreaterThanOrEqual(callsPerWorker); // ≥ half the calls create
        expect([...titles.keys()].sort()).toEqual(
          Array.from({ length: n }, (_, i) => `link-${i + 1}`).sort(),
        );
        const state = JSON.parse((await store.load(handle)).state) as {
          aliases: Record<string, string>;
        };
        const links = (await env.links.listLinks({ workspaceId: ws })).links;
        expect(links).toHaveLength(n);
        for (const l of links) {
          const title = l.title ?? "";
          expect(state.aliases[aliasOf.get(title)!], title).toBe(l.id);
        }
        expect(Object.keys(state.aliases)).toHaveLength(n);
      }
    } finally {
      client.destroy();
    }
    console.log(
      `\nstore load (TypeScript): ${calls} calls (${gets} links_get by alias across processes) in ${conversations} conversations × 2 worker processes, ${seconds.toFixed(1)} s wall, ${(calls / seconds).toFixed(0)} calls/s; every alias consistent with the server's data\n`,
    );
    expect(calls).toBe(conversations * 2 * callsPerWorker);
  },
);
