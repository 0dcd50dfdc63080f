// What every store with loaded tools must do (docs/store.md, "Loaded
// tools"), run against the memory store and the Redis store alike.
import { Code } from "@connectrpc/connect";
import { expect, it } from "vitest";
import {
  toolLoadingOf,
  type ConversationStore,
  type ToolLoadingStore,
} from "../../src/index.js";
import { bareStore, toolErrorOf } from "./store-contract.js";
import { loadedToolsVectors, type LoadedToolsStep } from "./store-vectors.js";

/**
 * Run one step of a loaded-tools vector on the conversation (handle, epoch)
 * of s and check what it returns.
 */
export async function runLoadedToolsStep(
  s: ToolLoadingStore,
  handle: string,
  epoch: string,
  step: LoadedToolsStep,
): Promise<void> {
  if (step.loadTools !== undefined) {
    expect(await s.loadTools(handle, epoch, step.loadTools)).toEqual(
      step.loaded,
    );
  } else if (step.loadedTools) {
    expect(await s.loadedTools(handle)).toEqual(step.loaded);
  } else if (step.register !== undefined) {
    expect(await s.register(handle, epoch, step.register)).toBe(step.state);
  } else {
    expect((await s.load(handle)).state).toBe(step.state);
  }
}

/** The loaded-tools behaviour; store() is called in each test. */
export function loadedToolsContract(store: () => ConversationStore): void {
  for (const c of loadedToolsVectors.cases) {
    it(`loaded-tools vector: ${c.name}`, async () => {
      const s = toolLoadingOf(store());
      const h = await s.create();
      const { epoch } = await s.load(h);
      expect(await s.loadedTools(h)).toEqual([]);
      for (const step of c.steps) {
        await runLoadedToolsStep(s, h, epoch, step);
      }
    });
  }

  it("refuses another epoch, a missing conversation, a deleted one: conversation-expired", async () => {
    const s = toolLoadingOf(store());
    const h = await s.create();
    const { epoch } = await s.load(h);
    const other = epoch === "0".repeat(32) ? "1".repeat(32) : "0".repeat(32);
    const missing = "AAAAAAAAAAAAAAAAAAAAAA";
    for (const p of [
      s.loadTools(h, other, ["links_get"]),
      s.loadTools(missing, epoch, ["links_get"]),
      s.loadedTools(missing),
    ]) {
      const err = await toolErrorOf(p);
      expect(err.reason).toBe("conversation-expired");
      expect(err.code).toBe(Code.NotFound);
    }
    expect(await s.loadedTools(h)).toEqual([]);
    await s.loadTools(h, epoch, ["links_get"]);
    await s.delete(h);
    const err = await toolErrorOf(s.loadedTools(h));
    expect(err.message).toBe(
      `conversation "${h}" expired or unknown: start a new conversation`,
    );
  });

  it("refuses an empty tool name, loading none of the names", async () => {
    const s = toolLoadingOf(store());
    const h = await s.create();
    const { epoch } = await s.load(h);
    await expect(s.loadTools(h, epoch, ["links_get", ""])).rejects.toThrow(
      'cannot load the tool name "": pass the names of tools',
    );
    expect(await s.loadedTools(h)).toEqual([]);
  });

  it("keeps every name once when loads of one conversation overlap", async () => {
    const s = toolLoadingOf(store());
    const h = await s.create();
    const { epoch } = await s.load(h);
    const names = Array.from({ length: 20 }, (_, i) => `tool_${i % 7}`);
    await Promise.all(names.map((n) => s.loadTools(h, epoch, [n])));
    const loaded = await s.loadedTools(h);
    expect([...loaded].sort()).toEqual(
      Array.from({ length: 7 }, (_, i) => `tool_${i}`),
    );
    expect(loaded).toEqual(names.filter((n, i) => names.indexOf(n) === i));
  });
}

/** A store without the loaded-tools operations is named by toolLoadingOf. */
export function toolLoadingOfContract(store: () => ConversationStore): void {
  it("toolLoadingOf names the operations a store lacks", () => {
    const s = store();
    const bare = bareStore(s);
    expect(() => toolLoadingOf(bare)).toThrow(
      'the conversation store cannot keep loaded tools: give it loadTools(handle, epoch, names) and loadedTools(handle) (docs/store.md, "Loaded tools")',
    );
    expect(() =>
      toolLoadingOf({ ...bare, loadTools: () => Promise.resolve([]) }),
    ).toThrow("give it loadedTools(handle) (docs/store.md");
    expect(toolLoadingOf(s)).toBe(s);
  });
}
