// Redis as production runs it (issue 34, point 1), with the store workers
// of Go, Python and TypeScript: one redis-server serving TLS only, the
// workers connecting as an ACL user with the store's least-privilege rules
// (the default user has a password they do not know). A conversation goes
// on through the three languages; a hung Redis (SIGSTOP) fails within the
// store's timeout in each; a dropped connection (CLIENT KILL) crashes no
// worker; a restart empties Redis and every language says so; the alias
// cap refuses alike in the three and sends nothing.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  startServerProcess,
  type ServerProcess,
} from "@protoc-gen-ai-tools/e2e-server";
import { startRedis, type RedisServer } from "@protoc-gen-ai-tools/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyOf, readLayout, resultOf, Seen, themeArgs } from "./checks.js";
import {
  closeAll,
  continueAcross,
  ms,
  parseHash,
  spawnWorkerSet,
  untilServed,
  type WorkerSet,
} from "./faults.js";
import { serverData, type ServerData } from "./linkhub.js";
import { buildWorkers, languages } from "./workers.js";

/** The store timeout of the hang run (contract A). */
const timeoutMs = 500;
/** The alias cap of the cap run. */
const cap = 3;

let server: ServerProcess;
let data: ServerData;
let redis: RedisServer;
/** Default store options. */
let plain: WorkerSet;
/** --store-timeout 500 --max-aliases 3. */
let tight: WorkerSet;

beforeAll(async () => {
  buildWorkers();
  [server, redis] = await Promise.all([
    startServerProcess(),
    startRedis({ tls: true, aclUser: "ai-tools" }),
  ]);
  data = serverData(server.address);
  const redisCa = redis.caPath!;
  plain = spawnWorkerSet(server.address, redis.userUrl, { redisCa });
  tight = spawnWorkerSet(server.address, redis.userUrl, {
    redisCa,
    storeTimeoutMs: timeoutMs,
    maxAliases: cap,
  });
});

afterAll(async () => {
  await closeAll(plain, tight);
  await redis?.stop();
  await server?.close();
});

/** How many requests the test server has recorded. */
const recordedCount = async () =>
  (await data.control.getRecorded({})).requests.length;

/** A conversation's hash, read as the administrator. */
const hashOf = async (handle: string) =>
  parseHash(await redis.cli("HGETALL", keyOf(handle)));

it("over TLS as the ACL user, a conversation goes on through the three languages, its tools loaded by each", async () => {
  expect(redis.userUrl).toMatch(/^rediss:\/\/ai-tools:[0-9a-f]+@localhost:/);
  expect(readFileSync(redis.caPath!, "utf8")).toContain("BEGIN CERTIFICATE");
  const seen = new Seen(randomUUID());
  const handle = await plain.get("go")!.start();
  await continueAcross(plain, handle, seen, "round 1");
  await continueAcross(plain, handle, seen, "round 2");
  // Each language loads a tool as the ACL user (issue 36), all read them.
  const tools = languages.map((l) => `${l}_tool`);
  for (const [i, l] of languages.entries()) {
    expect(
      await plain.get(l)!.send({ op: "loadTools", handle, tools: [tools[i]] }),
      `${l} loadTools`,
    ).toEqual({ loaded: tools.slice(0, i + 1) });
  }
  for (const l of languages) {
    expect(
      await plain.get(l)!.send({ op: "loadedTools", handle }),
      `${l} loadedTools`,
    ).toEqual({ loaded: tools });
  }
  const { aliases } = readLayout(await hashOf(handle), "the TLS conversation");
  expect(aliases.size).toBe(1 + 2 * languages.length);
  // Every worker is connected, as the ACL user and over TLS only (the
  // server has no plain port): the default user's clients are ours.
  const clients = (await redis.cli("CLIENT", "LIST")).split("\n");
  const users = clients.map((c) => /\buser=(\S+)/.exec(c)?.[1]);
  expect(users.filter((u) => u === "ai-tools").length).toBeGreaterThanOrEqual(
    languages.length,
  );
  expect(new Set(users)).toEqual(new Set(["ai-tools", "default"]));
  expect(await plain.get("py")!.end(handle)).toEqual({ ok: true });
});

it(`a hung Redis (SIGSTOP): store-unavailable within the ${timeoutMs} ms store timeout in each language, nothing sent; after SIGCONT the next call works`, async () => {
  const ws = randomUUID();
  const handle = await tight.get("ts")!.start();
  resultOf(
    await tight
      .get("ts")!
      .call(handle, "page_themes_create", themeArgs(ws, "h")),
    "page_themes_create",
  );
  const list = { workspace_id: ws };
  const before = await recordedCount();
  redis.pause();
  let answers;
  try {
    answers = await Promise.all(
      languages.map(async (l) => {
        const began = performance.now();
        const a = await tight.get(l)!.call(handle, "page_themes_list", list);
        return { language: l, a, ms: performance.now() - began };
      }),
    );
  } finally {
    redis.resume();
  }
  for (const { language, a, ms: took } of answers) {
    expect(a.error, language).toMatchObject({
      reason: "store-unavailable",
      code: "UNAVAILABLE",
    });
    expect(a.error?.message, language).toContain(
      `redis did not answer within ${timeoutMs} ms`,
    );
    // Far below the clients' own give-up (Go 10 s, Python 59 s, TS never).
    expect(took, `${language}: ms to the error`).toBeLessThan(5_000);
  }
  expect(await recordedCount(), "calls sent while Redis hung").toBe(before);
  const after = [];
  for (const l of languages) {
    const a = await tight.get(l)!.call(handle, "page_themes_list", list);
    expect(a.result, `${l} after SIGCONT`).toMatchObject({
      page_themes: [{ id: "theme-1", name: "h" }],
    });
    after.push(l);
  }
  console.log(
    `hang (SIGSTOP, store timeout ${timeoutMs} ms): store-unavailable after ${answers.map((r) => `${r.language} ${ms(r.ms)}`).join(", ")}; the first call after SIGCONT served in ${after.join(", ")}`,
  );
});

it("a dropped connection (CLIENT KILL TYPE normal) during calls crashes no worker; the next call works, in a busy worker and an idle one", async () => {
  const ws = randomUUID();
  const handle = await plain.get("py")!.start();
  resultOf(
    await plain
      .get("go")!
      .call(handle, "page_themes_create", themeArgs(ws, "kept")),
    "page_themes_create",
  );
  const list = { workspace_id: ws };
  const listed = { page_themes: [{ id: "theme-1", name: "kept" }] };
  const calls = languages.flatMap((l) =>
    Array.from({ length: 20 }, () =>
      plain.get(l)!.call(handle, "page_themes_list", list),
    ),
  );
  const killed = Number(await redis.cli("CLIENT", "KILL", "TYPE", "normal"));
  expect(killed).toBeGreaterThanOrEqual(2 * languages.length);
  const during = await Promise.all(calls);
  // A call cut off is store-unavailable; the others as without the fault.
  for (const a of during) {
    if (a.error?.reason !== "store-unavailable") {
      expect(a.result, JSON.stringify(a)).toMatchObject(listed);
    }
  }
  const since = performance.now();
  const figures = [];
  for (const l of languages) {
    const w = plain.get(l)!;
    expect(w.child.exitCode, `${l} worker exit code`).toBeNull();
    const served = await untilServed(w, since, () =>
      w.call(handle, "page_themes_list", list),
    );
    expect(served.answer.result).toMatchObject(listed);
    expect(served.failed, `${l}: calls failed after the drop`).toEqual([]);
    // An idle worker (its connections killed while unused) too.
    const idle = tight.get(l)!;
    expect(idle.child.exitCode, `${l} idle worker exit code`).toBeNull();
    expect(await idle.send({ op: "start" }), `${l} idle worker`).toEqual({
      handle: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) as unknown,
    });
    figures.push(
      `${l} ${during.filter((a, i) => languages[Math.floor(i / 20)] === l && a.error?.reason === "store-unavailable").length}/20 cut`,
    );
  }
  console.log(
    `drop (CLIENT KILL TYPE normal, ${killed} clients): every worker alive, next call served at once; ${figures.join(", ")}`,
  );
});

it(`the alias cap (--max-aliases ${cap}): conversation-full, the same text in every language, nothing sent`, async () => {
  const ws = randomUUID();
  const handle = await tight.get("go")!.start();
  for (const l of languages) {
    resultOf(
      await tight
        .get(l)!
        .call(handle, "page_themes_create", themeArgs(ws, `cap ${l}`)),
      `${l} page_themes_create`,
    );
  }
  const before = await recordedCount();
  const refusals = await Promise.all(
    languages.map((l) =>
      tight
        .get(l)!
        .call(handle, "page_themes_create", themeArgs(ws, "one too many")),
    ),
  );
  for (const [i, a] of refusals.entries()) {
    expect(a, languages[i]).toEqual({
      error: {
        reason: "conversation-full",
        code: "RESOURCE_EXHAUSTED",
        message: `conversation "${handle}" holds ${cap} aliases, its limit: start a new conversation (this call was not sent)`,
      },
    });
  }
  expect(await recordedCount(), "refused calls sent").toBe(before);
  // A new conversation is not full.
  const next = await tight.get("py")!.start();
  expect(
    await tight.get("ts")!.call(next, "page_themes_list", { workspace_id: ws }),
  ).toHaveProperty("result.page_themes");
});

it("a restart of Redis (empty): each language says conversation-expired for the old handle, then new conversations work", async () => {
  const seen = new Seen(randomUUID());
  const handle = await plain.get("ts")!.start();
  await continueAcross(plain, handle, seen, "before the restart");
  await redis.restart();
  const since = performance.now();
  const served = await Promise.all(
    languages.map((l) => {
      const w = plain.get(l)!;
      return untilServed(w, since, async () => {
        const a = await w.send({ op: "start" });
        return a.handle !== undefined ? { result: a.handle } : a;
      });
    }),
  );
  for (const l of languages) {
    expect(
      await plain.get(l)!.call(handle, "links_get", { id: "link-1" }),
      l,
    ).toEqual({
      error: {
        reason: "conversation-expired",
        code: "NOT_FOUND",
        message: `conversation "${handle}" expired or unknown: start a new conversation`,
      },
    });
  }
  const figures = served.map(
    (s, i) =>
      `${languages[i]} ${ms(s.ms)} (${s.failed.length} store-unavailable)`,
  );
  await continueAcross(
    plain,
    await plain.get("go")!.start(),
    new Seen(randomUUID()),
    "after the restart",
  );
  console.log(
    `restart (SIGKILL + start, empty): served again after ${figures.join(", ")}`,
  );
});
