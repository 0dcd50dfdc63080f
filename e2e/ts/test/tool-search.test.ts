// Tool search against the real linkhub.v1 test server (issue 36 §3): the
// generated toolSearch ranks, the deferred tools load what a search found
// into the conversation store, and the loaded tool's call reaches the
// server with the UUID behind the model's alias. Then one loaded list on a
// real Redis shared by two executors, as two replicas serve a conversation.
import {
  createConversationExecutor,
  createDeferredTools,
  createMemoryConversationStore,
  parseSearchArguments,
  type ConversationStore,
} from "@protoc-gen-ai-tools/runtime";
import { createRedisConversationStore } from "@protoc-gen-ai-tools/runtime/redis";
import { startRedis } from "@protoc-gen-ai-tools/testkit";
import { createClient } from "redis";
import { describe, expect, it } from "vitest";
import {
  allTools,
  createExecutor,
  toolSearch,
} from "../src/gen/ai_tools.gen.js";
import { GetLinkRequestSchema } from "../src/gen/linkhub/v1/links_pb.js";
import { linkArgs } from "./store-worker-client.js";
import {
  expectRecordedFrom,
  linkIds,
  newUUID,
  recorded,
  resetServer,
  useServer,
  want,
  type Env,
} from "./support.js";

const env = useServer();

/** A conversation's executor and deferred tools over `store`. */
function replica(env: Env, store: ConversationStore) {
  return {
    executor: createConversationExecutor(createExecutor(env.transport), store),
    deferred: createDeferredTools({
      tools: allTools(),
      search: toolSearch,
      store,
    }),
  };
}

describe("search, load, call (memory store)", () => {
  it('"get a link by id" loads links_get; its call with link-1 reaches the server as the UUID', async () => {
    await resetServer(env);
    const { executor, deferred } = replica(
      env,
      createMemoryConversationStore(),
    );
    const handle = await executor.start();
    const ws = newUUID();
    const created = JSON.parse(
      await executor.execute(
        handle,
        "links_create",
        JSON.stringify(linkArgs(ws, "spring")),
      ),
    ) as { link: { id: string } };
    expect(created.link.id).toBe("link-1");
    const [uuid] = await linkIds(env, ws);

    // The model's client tool_search call (OpenAI sends an object).
    const args = parseSearchArguments({ query: "get a link by id" });
    const out = await deferred.search(handle, args.query, args.limit);
    expect(out.found[0]).toBe("links_get");
    expect(out.loaded).toEqual(out.found);
    expect(await deferred.loaded(handle)).toEqual(out.found);

    // The answer groups it in its service's namespace.
    const answer = deferred.openAiToolSearchOutput("call_1", out.found);
    const links = answer.tools.find((ns) => ns.name === "LinkService");
    expect(links?.tools.map((f) => f.name)).toContain("GetLink");

    // The model calls LinkService.GetLink with the alias it was shown.
    const tool = deferred.toolOf("LinkService", "GetLink");
    expect(tool).toBe("links_get");
    const from = (await recorded(env)).length;
    const got = JSON.parse(
      await executor.execute(handle, tool, '{"id":"link-1"}'),
    ) as { link: { id: string; title: string } };
    expect(got.link).toMatchObject({ id: "link-1", title: "spring" });
    await expectRecordedFrom(env, from, [
      want("linkhub.v1.LinkService/GetLink", GetLinkRequestSchema, {
        id: uuid!,
      }),
    ]);

    // Chat Completions and Gemini now send it after search_tools.
    const chat = await deferred.openAiChat(handle);
    expect(chat.map((t) => t.function.name)).toEqual([
      "search_tools",
      ...out.loaded,
    ]);
    const gemini = await deferred.gemini(handle);
    expect(gemini.functionDeclarations.map((d) => d.name)).toEqual([
      "search_tools",
      ...out.loaded,
    ]);
  });

  it("an unknown function of a known namespace goes back to the model", () => {
    const { deferred } = replica(env, createMemoryConversationStore());
    expect(() => deferred.toolOf("LinkService", "FetchLink")).toThrow(
      'no function "FetchLink" in namespace "LinkService"',
    );
  });

  it("every provider's request builds for linkhub", async () => {
    const store = createMemoryConversationStore();
    const { deferred } = replica(env, store);
    const handle = await store.create();
    const responses = await deferred.openAiResponses(handle, {
      search: "hosted",
    });
    expect(responses.map((t) => t.type)).toEqual([
      ...toolSearch.namespaces.map(() => "namespace"),
      "tool_search",
    ]);
    const anthropic = await deferred.anthropic(handle, { search: "bm25" });
    expect(anthropic).toHaveLength(allTools().length + 1);
  });
});

describe("one loaded list on a real Redis, two replicas", () => {
  it("both build the same requests, in load order, whichever searched", async () => {
    await resetServer(env);
    const redis = await startRedis();
    const clients = [0, 1].map(() => {
      const client = createClient({
        url: redis.url,
        disableOfflineQueue: true,
      });
      client.on("error", () => {}); // the store reports each failed call
      return client;
    });
    try {
      await Promise.all(clients.map((c) => c.connect()));
      const [a, b] = clients.map((client) =>
        replica(env, createRedisConversationStore({ client })),
      );
      const handle = await a!.executor.start();
      const first = await a!.deferred.search(handle, "get a link by id", 2);
      expect(first.loaded).toEqual(first.found);
      const second = await b!.deferred.search(handle, "create a page theme", 2);
      expect(second.loaded.slice(0, first.loaded.length)).toEqual(first.loaded);
      expect(second.found.every((n) => second.loaded.includes(n))).toBe(true);
      // Searching again for what is loaded changes nothing.
      const again = await a!.deferred.search(handle, "get a link by id", 2);
      expect(again.loaded).toEqual(second.loaded);
      expect(await a!.deferred.loaded(handle)).toEqual(second.loaded);
      const names = (tools: { function: { name: string } }[]) =>
        tools.map((t) => t.function.name);
      expect(names(await a!.deferred.openAiChat(handle))).toEqual(
        names(await b!.deferred.openAiChat(handle)),
      );
      // A call through replica b of a tool replica a's search loaded.
      const ws = newUUID();
      await a!.executor.execute(
        handle,
        "links_create",
        JSON.stringify(linkArgs(ws, "autumn")),
      );
      const [uuid] = await linkIds(env, ws);
      const from = (await recorded(env)).length;
      await b!.executor.execute(handle, "links_get", '{"id":"link-1"}');
      await expectRecordedFrom(env, from, [
        want("linkhub.v1.LinkService/GetLink", GetLinkRequestSchema, {
          id: uuid!,
        }),
      ]);
      // The conversation ended: its loaded list goes with it.
      await a!.executor.end(handle);
      await expect(
        b!.deferred.search(handle, "delete a link"),
      ).rejects.toMatchObject({ reason: "conversation-expired" });
    } finally {
      await Promise.all(clients.map((c) => c.quit()));
      await redis.stop();
    }
  });
});
