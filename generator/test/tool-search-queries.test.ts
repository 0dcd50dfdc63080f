import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The tool-search query sets of e2e/vectors/tool-search (issue 36, part 2)
// pass their own check, check-queries.mjs; and the check, run on a broken
// set beside a copy of itself, fails and names each problem.

const root = resolve(import.meta.dirname, "..", "..");
const script = join(root, "e2e", "vectors", "tool-search", "check-queries.mjs");

function check(path: string) {
  return spawnSync(process.execPath, [path], { encoding: "utf8" });
}

describe("tool-search query sets", () => {
  const work = mkdtempSync(join(tmpdir(), "ai-tools-queries-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("pass check-queries.mjs", () => {
    const r = check(script);
    expect(r.stdout + r.stderr).not.toMatch(/^ {2}/m);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^compute: \d+ queries/m);
  });

  it("a broken set fails the check with each problem named", () => {
    mkdirSync(join(work, "queries"));
    copyFileSync(script, join(work, "check-queries.mjs"));
    writeFileSync(join(work, "queries", "bad.tools.txt"), "b_tool\na_tool\n");
    const set = {
      api: "bad",
      title: "t",
      protos: "p",
      options: "o",
      toolCount: 2,
      recall: "r",
      queries: [
        { query: "stop it", relevant: ["a_tool"], source: "https://x.test/a" },
        { query: "Stop it", relevant: ["no_tool"], source: "http://x.test/b" },
      ],
    };
    writeFileSync(join(work, "queries", "bad.json"), JSON.stringify(set));
    const r = check(join(work, "check-queries.mjs"));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('"a_tool" is not after "b_tool"');
    expect(r.stdout).toContain("2 queries; write at least 50");
    expect(r.stdout).toContain('query "Stop it" repeats queries[0]');
    expect(r.stdout).toContain('tool "no_tool" is not in bad.tools.txt');
    expect(r.stdout).toContain('source "http://x.test/b" must be an https URL');
  });
});
