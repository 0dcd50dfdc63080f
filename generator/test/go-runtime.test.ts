import { describe, expect, it } from "vitest";
import { goFileIdentifiers } from "../src/go/go-imports.js";
import {
  goRuntime,
  goRuntimeDeclarations,
  goRuntimeIdentifiers,
} from "../src/go/go-runtime.js";

// The inlined Go runtime (runtimes/go): which parts a file gets, which
// imports it needs, and which names it reserves. The goldens compile every
// combination under gofmt, vet and the Go tests (scripts/go-test.mjs).

const none = { aliases: false, executors: false, streaming: false };

describe("goRuntime", () => {
  it("is empty when no tool involves aliases or executors", () => {
    expect(goRuntime(none)).toEqual({ code: "", imports: [] });
  });

  it("leaves the alias manager and the alias regions out of executor-only files", () => {
    const { code, imports } = goRuntime({ ...none, executors: true });
    expect(code).not.toMatch(/AliasManager|e\.aliases|aitools:/);
    expect(code).toContain("type ToolError struct");
    expect(code).toContain("func fixArgs(");
    expect(code).not.toContain("func collect[");
    expect(imports.map((i) => i.path)).not.toContain("sync");
  });

  it("gives alias-only files the manager without grpc", () => {
    const { code, imports } = goRuntime({ ...none, aliases: true });
    expect(code).toContain("func (m *AliasManager) RegisterResponseJSON(");
    expect(code).not.toMatch(/ToolError|\bExecutor\b|aitools:/);
    expect(imports.some((i) => i.path.startsWith("google.golang.org/"))).toBe(
      false,
    );
  });

  it("keeps each helper once and imports exactly what the code uses", () => {
    const all = { aliases: true, executors: true, streaming: true };
    const { code, imports } = goRuntime(all);
    for (const helper of [
      "func sortedKeys[",
      "func decodeJSON(",
      "func encodeJSON(",
      "func nextUUID(",
      "func quote(",
    ]) {
      expect(code.split(helper).length - 1, helper).toBe(1);
    }
    expect(code).toContain("func collect[");
    expect(code).not.toMatch(/^package |^import |aitools:/m);
    for (const imp of imports) {
      expect(code, imp.path).toMatch(new RegExp(`\\b${imp.name}\\.`));
    }
    expect(code).not.toMatch(/\n\n\n/);
  });
});

describe("reserved names", () => {
  it("reserves every exported package-level name of the runtime", () => {
    const exported = goRuntimeDeclarations.filter((n) => /^[A-Z]/.test(n));
    expect(exported).toEqual([
      "AliasManager",
      "Executor",
      "NewAliasManager",
      "NewExecutor",
      "ToolError",
    ]);
    expect(goRuntimeIdentifiers.has("aliases")).toBe(true);
    expect(goFileIdentifiers).toContain("AllTools");
  });
});
