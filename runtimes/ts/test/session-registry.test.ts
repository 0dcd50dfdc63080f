import { describe, expect, it } from "vitest";
import {
  createExecutor,
  createSessionRegistry,
  type Executor,
} from "../src/index.js";
import type { Transport } from "@connectrpc/connect";
import { aitestAliases, aitestMethods } from "./support/aitest-tools.js";

// The executors are never called here: a transport that fails loudly.
const transport = {} as Transport;

function setup(idleTtlMs = 1000) {
  let t = 0;
  let created = 0;
  const registry = createSessionRegistry({
    factory: (): Executor => {
      created++;
      return createExecutor(transport, {
        methods: aitestMethods,
        aliases: aitestAliases,
      });
    },
    idleTtlMs,
    clock: () => t,
  });
  return {
    registry,
    advance: (ms: number) => (t += ms),
    created: () => created,
  };
}

describe("session registry", () => {
  it("gives one executor per conversation", () => {
    const { registry } = setup();
    const a = registry.get("a");
    expect(registry.get("a")).toBe(a);
    expect(registry.get("b")).not.toBe(a);
    expect(registry.size).toBe(2);
  });

  it("keeps a conversation's aliases between calls", () => {
    const { registry } = setup();
    registry
      .get("a")
      .aliases.register("acct", "0a1b2c3d-0000-4000-8000-000000000001");
    expect(registry.get("a").aliases.resolveAlias("acct-1")).toBe(
      "0a1b2c3d-0000-4000-8000-000000000001",
    );
    expect(registry.get("b").aliases.resolveAlias("acct-1")).toBe("acct-1");
  });

  it("evicts a conversation idle for the TTL", () => {
    const { registry, advance } = setup(1000);
    const a = registry.get("a");
    advance(999);
    expect(registry.get("a")).toBe(a); // used: idle time starts again
    advance(999);
    expect(registry.get("a")).toBe(a);
    advance(1000);
    expect(registry.size).toBe(0);
    expect(registry.get("a")).not.toBe(a);
  });

  it("evicts only the idle ones", () => {
    const { registry, advance } = setup(1000);
    const a = registry.get("a");
    advance(600);
    const b = registry.get("b");
    advance(600);
    expect(registry.get("b")).toBe(b);
    expect(registry.size).toBe(1);
    expect(registry.get("a")).not.toBe(a);
  });

  it("gives an empty id a throwaway executor", () => {
    const { registry, created } = setup();
    const x = registry.get("");
    const y = registry.get("");
    expect(x).not.toBe(y);
    expect(created()).toBe(2);
    expect(registry.size).toBe(0);
  });

  it("removes a conversation", () => {
    const { registry } = setup();
    registry.get("a");
    registry.get("b");
    expect(registry.remove("a")).toBe(true);
    expect(registry.remove("a")).toBe(false);
    expect(registry.has("a")).toBe(false);
    expect(registry.has("b")).toBe(true);
    expect(registry.size).toBe(1);
  });

  it("sweeps the idle conversations on request, and has() drops them too", () => {
    const { registry, advance } = setup(1000);
    registry.get("a");
    registry.get("b");
    advance(500);
    registry.get("c");
    expect(registry.sweep()).toBe(0);
    advance(500);
    expect(registry.sweep()).toBe(2);
    expect(registry.has("c")).toBe(true);
    advance(500);
    expect(registry.has("c")).toBe(false);
    expect(registry.size).toBe(0);
  });

  it("holds whatever the factory makes", () => {
    let n = 0;
    const registry = createSessionRegistry({
      factory: () => ({ n: ++n }),
      idleTtlMs: 1000,
    });
    expect(registry.get("a")).toEqual({ n: 1 });
    expect(registry.get("a")).toEqual({ n: 1 });
    expect(registry.get("b")).toEqual({ n: 2 });
  });

  it("treats ids like __proto__ as ordinary ids", () => {
    const { registry } = setup();
    const p = registry.get("__proto__");
    expect(registry.get("__proto__")).toBe(p);
    expect(registry.get("constructor")).not.toBe(p);
  });

  it("refuses a TTL that is not positive", () => {
    expect(() =>
      createSessionRegistry({ factory: () => ({}) as Executor, idleTtlMs: 0 }),
    ).toThrow("idleTtlMs must be positive, got 0");
  });
});
