// The mixed-language run of the conversation store (issue 12, points 1–3):
// the store workers of Go (e2e/go/cmd/linkhub-worker), Python
// (e2e/py/scripts/store_worker.py) and TypeScript (e2e/ts/src/
// store-worker.ts), two processes each, share one redis-server and the
// linkhub.v1 test server, all started here on free local ports. A
// conversation started in one language goes on in the others; 50
// conversations × 100 calls land each call on a random one of the six.
import { randomUUID } from "node:crypto";
import {
  startServerProcess,
  type ServerProcess,
} from "@protoc-gen-ai-tools/e2e-server";
import { startRedis, type RedisServer } from "@protoc-gen-ai-tools/testkit";
import { createClient } from "redis";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  aliasRe,
  checkConversation,
  createLinkAsShown,
  createThemeAsShown,
  expectLinkAsShown,
  keyOf,
  linkArgs,
  resultOf,
  Seen,
  themeArgs,
  type ShownLink,
  type ShownTheme,
} from "./checks.js";
import { serverData, type ServerData } from "./linkhub.js";
import {
  buildWorkers,
  cpuSecondsOf,
  languages,
  spawnWorker,
  type Language,
  type Worker,
} from "./workers.js";

// 50 conversations × 100 calls in the nightly run (bash scripts/nightly.sh
// load sets AI_TOOLS_NIGHTLY=1), 10 × 20 as .ci/run's smoke; LOAD_CONVERSATIONS
// and LOAD_CALLS set either.
const nightly = process.env["AI_TOOLS_NIGHTLY"] === "1";
const conversations = Number(
  process.env["LOAD_CONVERSATIONS"] ?? (nightly ? 50 : 10),
);
const callsPerConversation = Number(
  process.env["LOAD_CALLS"] ?? (nightly ? 100 : 20),
);
/** Two drivers per conversation, so that its calls also overlap. */
const drivers = 2;

let server: ServerProcess;
let data: ServerData;
let redis: RedisServer;
let client: ReturnType<typeof createClient>;
const workers: Worker[] = [];

/** The i-th worker of a language (two each). */
const workerOf = (language: Language, i = 0): Worker =>
  workers.filter((w) => w.language === language)[i]!;

beforeAll(async () => {
  buildWorkers();
  server = await startServerProcess();
  redis = await startRedis();
  data = serverData(server.address);
  for (const language of languages) {
    for (let i = 0; i < 2; i++) {
      workers.push(spawnWorker(language, server.address, redis.url, 100));
    }
  }
  client = createClient({ url: redis.url });
  await client.connect();
});

afterAll(async () => {
  await Promise.allSettled(workers.map((w) => w.close()));
  client?.destroy();
  await redis?.stop();
  await server?.close();
});

/** The requests the server has recorded so far. */
async function recorded(): Promise<{ requestJson: string }[]> {
  return (await data.control.getRecorded({})).requests;
}

it("the three workers answer one protocol alike", async () => {
  const handle = await workerOf("go").start();
  expect(handle).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const ws = randomUUID();
  expect(
    await workerOf("ts").call(handle, "page_themes_create", themeArgs(ws, "p")),
  ).toMatchObject({ result: { page_theme: { id: "theme-1", name: "p" } } });
  // Requests that change nothing: the same answer from each.
  const requests: object[] = [
    {
      op: "call",
      handle,
      tool: "page_themes_list",
      args: `{"workspace_id":"${ws}"}`,
    },
    { op: "call", handle, tool: "links_get", args: { id: "theme-1" } },
    { op: "call", handle, tool: "no_such_tool", args: {} },
    { op: "call", handle: "", tool: "links_get", args: { id: "link-1" } },
    { op: "bogus" },
  ];
  for (const request of requests) {
    const answers = [];
    for (const l of languages) answers.push(await workerOf(l).send(request));
    for (const [i, a] of answers.entries()) {
      expect(a, `${languages[i]}: ${JSON.stringify(request)}`).toEqual(
        answers[0],
      );
    }
  }
  expect(await workerOf("py").end(handle)).toEqual({ ok: true });
});

it("one conversation hops Python → Go → TypeScript → Python …", async () => {
  const ws = randomUUID();
  const seen = new Seen(ws);
  const handle = await workerOf("py").start();
  const hops = 9;
  for (let hop = 0; hop < hops; hop++) {
    const w = workerOf(languages[hop % languages.length]!);
    const where = (tool: string) => `hop ${hop} (${w.language}) ${tool}`;
    const links = seen.created.link;
    if (links > 0) {
      // The link the previous language made, resolved here.
      await expectLinkAsShown(w, handle, `link-${links}`, seen, where);
    }
    if (hop % 3 === 0) {
      await createThemeAsShown(w, handle, seen, `hop ${hop} theme`, where);
    }
    // A theme alias most often made by another language.
    const theme = `theme-${1 + ((hop * 2) % seen.created.theme)}`;
    await createLinkAsShown(w, handle, seen, `hop ${hop} link`, theme, where);
  }

  // Every language shows the whole conversation alike, and resolves a
  // theme alias as a filter to the same links.
  const sameIn = async (tool: string, args: object): Promise<unknown> => {
    const answers = await Promise.all(
      languages.map((l) => workerOf(l, 1).call(handle, tool, args)),
    );
    for (const [i, a] of answers.entries()) {
      resultOf(a, `${languages[i]} ${tool}`);
      seen.result(`${languages[i]} ${tool}`, a.result);
      expect(a, `${languages[i]} ${tool} as ${languages[0]}`).toEqual(
        answers[0],
      );
    }
    return answers[0]!.result;
  };
  const listed = (await sameIn("links_list", {
    workspace_id: ws,
    page_theme_id: null,
  })) as { links: ShownLink[] };
  expect(listed.links.map((l) => l.id).sort()).toEqual(
    Array.from({ length: hops }, (_, i) => `link-${i + 1}`).sort(),
  );
  for (const l of listed.links)
    seen.show("links_list", l.id, l.title, l.page_theme_id);
  const themed = (await sameIn("links_list", {
    workspace_id: ws,
    page_theme_id: "theme-2",
  })) as { links: ShownLink[] };
  expect(themed.links.map((l) => l.id).sort()).toEqual(
    [...seen.themeOf]
      .filter(([, t]) => t === "theme-2")
      .map(([l]) => l)
      .sort(),
  );
  const themes = (await sameIn("page_themes_list", { workspace_id: ws })) as {
    page_themes: ShownTheme[];
  };
  expect(themes.page_themes).toHaveLength(seen.created.theme);
  for (const t of themes.page_themes)
    seen.show("page_themes_list", t.id, t.name);

  // The refusals are the same text in every language, and send nothing.
  const before = (await recorded()).length;
  const refusals: [string, object][] = [
    ["links_get", { id: "link-99" }],
    ["links_create", linkArgs(ws, "never", "theme-42")],
    ["links_get", { id: 7 }],
  ];
  for (const [tool, args] of refusals) {
    const answers = await Promise.all(
      languages.map((l) => workerOf(l).call(handle, tool, args)),
    );
    expect(answers[0]!.error, `${tool} ${JSON.stringify(args)}`).toBeDefined();
    for (const [i, a] of answers.entries()) {
      expect(a, `${languages[i]}: ${tool}`).toEqual(answers[0]);
    }
  }
  const unknown = await workerOf("go").call(handle, "links_get", {
    id: "link-99",
  });
  expect(unknown.error).toEqual({
    reason: "unknown-alias",
    code: "INVALID_ARGUMENT",
    message: `invalid arguments, nothing was sent:\n- "id": unknown alias "link-99"; valid link aliases: ${Array.from({ length: hops }, (_, i) => `link-${i + 1}`).join(", ")}`,
  });
  expect((await recorded()).length, "refused calls reached the server").toBe(
    before,
  );

  // The hash is the layout, and the server's data.
  const fields = await client.hGetAll(keyOf(handle));
  await checkConversation(data, fields, seen, "the hopping conversation");
  // v, epoch, a:… and u:… per alias, n:link and n:theme.
  expect(Object.keys(fields)).toHaveLength(
    2 + 2 * (hops + seen.created.theme) + 2,
  );
  expect(seen.problems).toEqual([]);

  // Ended in one language, expired in all three.
  expect(await workerOf("ts").end(handle)).toMatchObject({ ok: true });
  await expectExpiredEverywhere(handle);
});

it("a conversation ended in any language is expired in the others", async () => {
  for (const [i, ender] of languages.entries()) {
    const starter = languages[(i + 1) % languages.length]!;
    const caller = languages[(i + 2) % languages.length]!;
    const ws = randomUUID();
    const handle = await workerOf(starter).start();
    const made = resultOf<{ page_theme: ShownTheme }>(
      await workerOf(caller).call(
        handle,
        "page_themes_create",
        themeArgs(ws, "t"),
      ),
      `${caller} page_themes_create`,
    );
    expect(made.page_theme.id).toBe("theme-1");
    expect(await workerOf(ender).end(handle), `${ender} end`).toEqual({
      ok: true,
    });
    await expectExpiredEverywhere(handle);
    // Ending an unknown handle is not an error.
    expect(await workerOf(starter).end(handle)).toMatchObject({ ok: true });
  }
});

/** Calls on handle fail as conversation-expired, alike in every language. */
async function expectExpiredEverywhere(handle: string): Promise<void> {
  expect(await client.exists(keyOf(handle)), "the key after end").toBe(0);
  for (const l of languages) {
    const a = await workerOf(l, 1).call(handle, "links_get", { id: "link-1" });
    expect(a.error, `${l} after end`).toEqual({
      reason: "conversation-expired",
      code: "NOT_FOUND",
      message: `conversation "${handle}" expired or unknown: start a new conversation`,
    });
  }
}

/** A small seeded generator (mulberry32): integers in [0, n). */
function seeded(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

// About 20 s on a quiet 2-core machine; the timeout allows a busy one.
it(
  `${conversations} conversations × ${callsPerConversation} calls, each on a random one of 6 workers (2 per language)`,
  { timeout: 600_000 },
  async () => {
    const pick = seeded(12);
    const convs = await Promise.all(
      Array.from({ length: conversations }, async () => ({
        handle: await workers[pick(workers.length)]!.start(),
        seen: new Seen(randomUUID()),
      })),
    );
    const callsBy = new Map<Language, number>(languages.map((l) => [l, 0]));
    const cpuBefore = new Map(workers.map((w) => [w, w.cpuSeconds()]));
    const serverBefore = cpuSecondsOf(server.pid);
    const redisBefore = cpuSecondsOf(redis.pid);
    const selfBefore = process.cpuUsage();
    const recordedBefore = (await recorded()).length;
    const began = performance.now();

    /** One driver's share of a conversation's calls, each on a random worker. */
    const drive = async (c: number, d: number): Promise<void> => {
      const { handle, seen } = convs[c]!;
      const rnd = seeded(1000 * c + d);
      for (let k = 0; k < callsPerConversation / drivers; k++) {
        const w = workers[rnd(workers.length)]!;
        callsBy.set(w.language, callsBy.get(w.language)! + 1);
        const where = `conversation ${c}, driver ${d}, call ${k} (${w.language})`;
        /** The call's result, checked for UUIDs; undefined when it failed. */
        const ask = async <T>(tool: string, args: object) => {
          const a = await w.call(handle, tool, args);
          if (a.error !== undefined) {
            seen.problems.push(`${where} ${tool}: ${JSON.stringify(a.error)}`);
            return undefined;
          }
          seen.result(`${where} ${tool}`, a.result);
          return a.result as T;
        };
        /**
         * An alias a create showed: never shown by another create. A get
         * may have shown it already, with the same title (show checks
         * that): the two drivers' creates can return out of order, and
         * the other driver may get the alias of a create whose result is
         * still on its way.
         */
        const fresh = (alias: string, title: string, theme?: string) => {
          if (seen.createdAliases.has(alias)) {
            seen.problems.push(`${where}: ${alias} shown by two creates`);
          }
          seen.createdAliases.add(alias);
          seen.show(where, alias, title, theme);
        };
        if (k % 10 === 0) {
          const name = `c${c} d${d} theme ${k}`;
          seen.created.theme++;
          const r = await ask<{ page_theme: ShownTheme }>(
            "page_themes_create",
            themeArgs(seen.ws, name),
          );
          if (r !== undefined) fresh(r.page_theme.id, name);
        } else if (k % 2 === 1) {
          const title = `c${c} d${d} link ${k}`;
          const theme = `theme-${1 + rnd(seen.top("theme"))}`;
          seen.created.link++;
          const r = await ask<{ link: ShownLink }>(
            "links_create",
            linkArgs(seen.ws, title, theme),
          );
          if (r === undefined) continue;
          if (r.link.page_theme_id !== theme) {
            seen.problems.push(
              `${where}: ${r.link.id} shows theme ${r.link.page_theme_id}, not ${theme}`,
            );
          }
          fresh(r.link.id, title, r.link.page_theme_id);
        } else {
          const alias = `link-${1 + rnd(Math.max(seen.top("link"), 1))}`;
          const r = await ask<{ link: ShownLink }>("links_get", { id: alias });
          if (r === undefined) continue;
          if (r.link.id !== alias) {
            seen.problems.push(
              `${where}: links_get ${alias} shows ${r.link.id}`,
            );
          }
          seen.show(where, r.link.id, r.link.title, r.link.page_theme_id);
        }
      }
    };
    await Promise.all(
      convs.flatMap((_, c) =>
        Array.from({ length: drivers }, (_, d) => drive(c, d)),
      ),
    );
    const seconds = (performance.now() - began) / 1000;
    const self = process.cpuUsage(selfBefore);
    const cpuOf = new Map<Language, number>(languages.map((l) => [l, 0]));
    for (const w of workers) {
      cpuOf.set(
        w.language,
        cpuOf.get(w.language)! + w.cpuSeconds() - cpuBefore.get(w)!,
      );
    }
    const serverCpu = cpuSecondsOf(server.pid) - serverBefore;
    const redisCpu = cpuSecondsOf(redis.pid) - redisBefore;
    const sent = (await recorded()).slice(recordedBefore);

    const problems = convs.flatMap((c) => c.seen.problems);
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
    const calls = [...callsBy.values()].reduce((a, b) => a + b, 0);
    expect(calls).toBe(conversations * callsPerConversation);
    for (const l of languages) expect(callsBy.get(l), l).toBeGreaterThan(0);
    // Every call reached the server, with UUIDs, never an alias.
    expect(sent).toHaveLength(calls);
    expect(sent.filter((r) => aliasRe.test(r.requestJson))).toEqual([]);
    // Each conversation's hash: no gap, every alias the entity shown, per
    // the server's data.
    for (const [c, { handle, seen }] of convs.entries()) {
      await checkConversation(
        data,
        await client.hGetAll(keyOf(handle)),
        seen,
        `conversation ${c}`,
      );
    }
    // Ended by random workers: every key is gone.
    const ends = await Promise.all(
      convs.map(({ handle }) => workers[pick(workers.length)]!.end(handle)),
    );
    expect(ends.filter((a) => a.ok !== true)).toEqual([]);
    expect(await client.exists(convs.map(({ handle }) => keyOf(handle)))).toBe(
      0,
    );

    const cpu = [...cpuOf.values()].reduce((a, b) => a + b, 0);
    const f = (s: number) => s.toFixed(1);
    console.log(
      [
        ``,
        `mixed-language store load: ${calls} calls (${languages.map((l) => `${l} ${callsBy.get(l)}`).join(", ")}) in ${conversations} conversations × ${drivers} drivers over 6 worker processes, ${f(seconds)} s wall, ${(calls / seconds).toFixed(0)} calls/s, 0 failures`,
        `CPU (user+sys): workers ${f(cpu)} s (${languages.map((l) => `${l} ${f(cpuOf.get(l)!)} s, ${((cpuOf.get(l)! / callsBy.get(l)!) * 1000).toFixed(2)} ms a call`).join("; ")}), test server ${f(serverCpu)} s, redis-server ${f(redisCpu)} s, this test ${f((self.user + self.system) / 1e6)} s`,
        ``,
      ].join("\n"),
    );
  },
);
