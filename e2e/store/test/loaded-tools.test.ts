// Loaded tools across languages and layout versions (issue 36; docs/store.md,
// "Loaded tools"): the store workers of Go, Python and TypeScript share one
// redis-server and the linkhub.v1 test server, all started here on free
// local ports. A conversation whose tools one language loaded is read and
// extended by the others, and served meanwhile by the read path of layout 1
// as it was before loaded tools (the workers' "call": load, then register,
// scripts and readers unchanged since 4820ec6), which ignores the t: and tn
// fields; a conversation written by that path only gets its tools loaded by
// the new code. The hash is checked field by field after each run.
import { randomUUID } from "node:crypto";
import {
  startServerProcess,
  type ServerProcess,
} from "@protoc-gen-ai-tools/e2e-server";
import { startRedis, type RedisServer } from "@protoc-gen-ai-tools/testkit";
import { createClient } from "redis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keyOf, themeArgs, type ShownTheme } from "./checks.js";
import {
  buildWorkers,
  languages,
  spawnWorker,
  type Answer,
  type Language,
  type Worker,
} from "./workers.js";

let server: ServerProcess;
let redis: RedisServer;
let client: ReturnType<typeof createClient>;
const workers = new Map<Language, Worker>();

beforeAll(async () => {
  buildWorkers();
  server = await startServerProcess();
  redis = await startRedis();
  for (const language of languages) {
    workers.set(language, spawnWorker(language, server.address, redis.url, 1));
  }
  client = createClient({ url: redis.url });
  await client.connect();
});

afterAll(async () => {
  await Promise.allSettled([...workers.values()].map((w) => w.close()));
  client?.destroy();
  await redis?.stop();
  await server?.close();
});

const worker = (language: Language): Worker => workers.get(language)!;

type LoadedAnswer = Answer & { readonly loaded?: readonly string[] };

/** The loaded list a worker answers (fails naming the worker otherwise). */
async function loaded(
  language: Language,
  request:
    | { op: "loadTools"; handle: string; tools: string[] }
    | {
        op: "loadedTools";
        handle: string;
      },
): Promise<readonly string[]> {
  const a = (await worker(language).send(request)) as LoadedAnswer;
  expect(a.error, `${language} ${request.op}`).toBeUndefined();
  return a.loaded!;
}

/** Create a theme through a worker's call (the layout-1 read path). */
async function createTheme(
  language: Language,
  handle: string,
  ws: string,
  name: string,
): Promise<string> {
  const a = await worker(language).call(
    handle,
    "page_themes_create",
    themeArgs(ws, name),
  );
  expect(a.error, `${language} page_themes_create`).toBeUndefined();
  return (a.result as { page_theme: ShownTheme }).page_theme.id;
}

/** Every ordered pair of two different languages. */
const pairs = languages.flatMap((a) =>
  languages.filter((b) => b !== a).map((b) => [a, b] as const),
);

for (const [writer, reader] of pairs) {
  it(`tools loaded by ${writer} are read and extended by ${reader}, the aliases served by both read paths`, async () => {
    const ws = randomUUID();
    const handle = await worker(writer).start();
    expect(await createTheme(writer, handle, ws, "one")).toBe("theme-1");
    expect(
      await loaded(writer, {
        op: "loadTools",
        handle,
        tools: ["links_get", "links_create", "links_get"],
      }),
    ).toEqual(["links_get", "links_create"]);
    expect(await loaded(reader, { op: "loadedTools", handle })).toEqual([
      "links_get",
      "links_create",
    ]);
    // The layout-1 path (load, register) beside the t: and tn fields.
    expect(await createTheme(reader, handle, ws, "two")).toBe("theme-2");
    const listed = await worker(writer).call(handle, "page_themes_list", {
      workspace_id: ws,
    });
    expect(
      (listed.result as { page_themes: ShownTheme[] }).page_themes
        .map((t) => t.id)
        .sort(),
    ).toEqual(["theme-1", "theme-2"]);
    expect(
      await loaded(reader, {
        op: "loadTools",
        handle,
        tools: ["links_list", "links_create"],
      }),
    ).toEqual(["links_get", "links_create", "links_list"]);
    const hash = await client.hGetAll(keyOf(handle));
    expect(
      Object.fromEntries(
        Object.entries(hash).filter(([f]) => f.startsWith("t") || f === "v"),
      ),
    ).toEqual({
      v: "1",
      "t:links_get": "1",
      "t:links_create": "2",
      "t:links_list": "3",
      tn: "3",
    });
    expect(
      Object.keys(hash)
        .filter((f) => f.startsWith("a:"))
        .sort(),
    ).toEqual(["a:theme-1", "a:theme-2"]);
    expect(await worker(reader).end(handle)).toEqual({ ok: true });
    for (const language of languages) {
      for (const op of ["loadedTools", "loadTools"]) {
        expect(
          await worker(language).send({ op, handle, tools: ["links_get"] }),
          `${language} ${op}`,
        ).toEqual({
          error: {
            reason: "conversation-expired",
            code: "NOT_FOUND",
            message: `conversation "${handle}" expired or unknown: start a new conversation`,
          },
        });
      }
    }
  });
}

it("a conversation written by the layout-1 path only gets its tools loaded by each language, in turn", async () => {
  const ws = randomUUID();
  const handle = await worker("py").start();
  for (const [i, language] of languages.entries()) {
    await createTheme(language, handle, ws, `t${i}`);
  }
  expect(await loaded("go", { op: "loadedTools", handle })).toEqual([]);
  const expected: string[] = [];
  for (const language of languages) {
    const tool = `${language}_tool`;
    expected.push(tool);
    expect(
      await loaded(language, { op: "loadTools", handle, tools: [tool] }),
    ).toEqual(expected);
  }
  for (const language of languages) {
    expect(await loaded(language, { op: "loadedTools", handle })).toEqual(
      expected,
    );
  }
  expect(await createTheme("ts", handle, ws, "last")).toBe("theme-4");
});
