import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../src",
);

/** The modules a source file imports, by specifier. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map(
    (m) => m[1]!,
  );
}

/** Every package a module and the modules it imports (relatively) import. */
function packagesReachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith(".")) {
        visit(path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts")));
      } else {
        packages.add(spec);
      }
    }
  };
  visit(path.join(src, entry));
  return packages;
}

describe("entry points", () => {
  it("the main entry does not import the MCP SDK", () => {
    const packages = [...packagesReachable("index.ts")];
    expect(
      packages.filter((p) => p.startsWith("@modelcontextprotocol")),
    ).toEqual([]);
  });

  it("the mcp entry imports the SDK", () => {
    expect(packagesReachable("mcp/index.ts")).toContain(
      "@modelcontextprotocol/server",
    );
  });
});
