import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// What `npm pack` puts in the protoc-gen-ai-tools package (its prepack
// script copies the annotation protos from the repository's proto/).

const generator = resolve(import.meta.dirname, "..");
const root = join(generator, "..");

interface PackEntry {
  readonly path: string;
}

function packedFiles(): string[] {
  const res = spawnSync(
    "npm",
    ["pack", "--dry-run", "--json", "--ignore-scripts=false"],
    {
      cwd: generator,
      encoding: "utf8",
    },
  );
  expect(res.status, res.stderr).toBe(0);
  const [pack] = JSON.parse(res.stdout) as [{ files: PackEntry[] }];
  return pack.files.map((f) => f.path).sort();
}

describe("the npm package", () => {
  const files = packedFiles();

  it("ships the executable, its bundle, the annotation protos, README and LICENSE", () => {
    for (const path of [
      "LICENSE",
      "README.md",
      "package.json",
      "bin/protoc-gen-ai-tools",
      "bin/tune-v8.cjs",
      "bin/package.json",
      "dist/protoc-gen-ai-tools.cjs",
      "dist/index.js",
      "dist/index.d.ts",
      "proto/ai/tools/v1/annotations.proto",
    ]) {
      expect(files).toContain(path);
    }
    expect(files.filter((f) => f.startsWith("proto/"))).toEqual([
      "proto/ai/tools/v1/annotations.proto",
    ]);
    expect(files.filter((f) => !/^(bin|dist|proto)\//.test(f))).toEqual([
      "LICENSE",
      "README.md",
      "package.json",
    ]);
  });

  it("ships the repository's annotation proto and license, byte for byte", () => {
    expect(
      readFileSync(join(generator, "proto/ai/tools/v1/annotations.proto")),
    ).toEqual(readFileSync(join(root, "proto/ai/tools/v1/annotations.proto")));
    const license = readFileSync(join(root, "LICENSE"), "utf8");
    expect(license).toContain(
      "Apache License\n                           Version 2.0",
    );
    for (const dir of ["generator", "runtimes/ts", "runtimes/python"]) {
      expect(readFileSync(join(root, dir, "LICENSE"), "utf8")).toBe(license);
    }
  });

  it("links to the repository with absolute URLs in its README", () => {
    const readme = readFileSync(join(generator, "README.md"), "utf8");
    const targets = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      expect(target).toMatch(
        /^https:\/\/github\.com\/protoc-gen-ai-tools\/protoc-gen-ai-tools\b/,
      );
    }
  });
});
