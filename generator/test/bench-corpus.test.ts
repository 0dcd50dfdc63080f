import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateCorpus } from "./support/bench-corpus.js";

// The benchmark corpus (scripts/bench/corpus.mjs) is seeded and
// deterministic; version 1 is kept byte for byte (the Go plugin's timing
// figure and earlier token figures were taken on it), version 2 adds the
// value messages used at several places of an entity.

function digest(files: { path: string; content: string }[]): string {
  return createHash("sha256")
    .update(files.map((f) => `${f.path}\n${f.content}`).join("\n"))
    .digest("hex");
}

describe("benchmark corpus", () => {
  it("keeps version 1 byte for byte", () => {
    // The digest of the first 3 files of corpus.mjs as it was before
    // version 2 (commit 786bc59^).
    expect(digest(generateCorpus("ai-tools-bench-1", 3, 1))).toBe(
      "e2e3dbd4cbfcdce1204f65456cfc8866b13b444e86a379035fb7ebfd235b256b",
    );
  });

  it("is deterministic, grows by adding files and defaults to version 2", () => {
    const five = generateCorpus("ai-tools-bench-1", 5);
    expect(digest(generateCorpus("ai-tools-bench-1", 5, 2))).toBe(digest(five));
    expect(digest(generateCorpus("ai-tools-bench-1", 3))).toBe(
      digest(five.slice(0, 3)),
    );
  });

  it("uses the value messages at several places of an entity in version 2", () => {
    for (const file of generateCorpus("ai-tools-bench-1", 5)) {
      for (const message of ["Money", "PostalAddress", "Actor", "Payload"]) {
        expect(file.content).toContain(`message ${message} {`);
      }
      expect(
        file.content.match(/^\s*Actor \w+ = \d+;/gm)?.length,
      ).toBeGreaterThan(4);
      expect(
        file.content.match(/^\s*Money \w+ = \d+;/gm)?.length,
      ).toBeGreaterThan(4);
      expect(file.content).toContain("map<string, bytes> metadata");
    }
  });

  it("refuses an unknown version", () => {
    expect(() => generateCorpus("ai-tools-bench-1", 1, 3)).toThrow(
      "unknown corpus version 3; valid: 1, 2",
    );
  });
});
