import { describe, expect, it } from "vitest";
import { buildBm25Index } from "../src/search/bm25-index.js";
import { rankTools } from "../src/search/rank.js";

// BM25 (k1 1.2, b 0.75) over a corpus small enough to score by hand:
//   alpha "stop instance" (2 tokens), beta "start instance instance" (3),
//   gamma "list disks" (2); N 3, average length 7/3.
// For "stop the instance": idf(stop) = ln(1 + 2.5/1.5) = 0.9808292530,
// idf(instance) = ln(1 + 1.5/2.5) = 0.4700036292;
// alpha = 0.9808292530 × 2.2 / (1 + 1.2 × (0.25 + 0.75 × 2 / (7/3)))
//       + 0.4700036292 × 2.2 / (same) = 1.5408845784,
// beta  = 0.4700036292 × 2 × 2.2 / (2 + 1.2 × (0.25 + 0.75 × 3 / (7/3)))
//       = 0.5981864372; gamma holds neither term.

const corpus = [
  { name: "gamma", text: "list disks" },
  { name: "beta", text: "start instance instance" },
  { name: "alpha", text: "stop instance" },
];

describe("buildBm25Index", () => {
  it("is plain data: names by bytes, lengths, average, postings", () => {
    const index = buildBm25Index(corpus);
    expect(JSON.parse(JSON.stringify(index))).toEqual({
      version: 1,
      k1: 1.2,
      b: 0.75,
      names: ["alpha", "beta", "gamma"],
      lengths: [2, 3, 2],
      averageLength: 7 / 3,
      postings: {
        disks: [[2, 1]],
        instance: [
          [0, 1],
          [1, 2],
        ],
        list: [[2, 1]],
        start: [[1, 1]],
        stop: [[0, 1]],
      },
    });
    expect(Object.keys(index.postings)).toEqual([
      "disks",
      "instance",
      "list",
      "start",
      "stop",
    ]);
  });

  it("refuses two documents with one name, naming it", () => {
    expect(() =>
      buildBm25Index([...corpus, { name: "beta", text: "x" }]),
    ).toThrow('tool "beta": indexed twice; give every tool its own name');
  });
});

describe("rankTools", () => {
  const index = buildBm25Index(corpus);

  it("scores as computed by hand, best first, non-matching left out", () => {
    const ranked = rankTools(index, "stop the instance");
    expect(ranked.map((r) => r.name)).toEqual(["alpha", "beta"]);
    expect(ranked[0]!.score).toBeCloseTo(1.5408845784, 9);
    expect(ranked[1]!.score).toBeCloseTo(0.5981864372, 9);
  });

  it("counts a repeated query term once and ignores unknown terms", () => {
    expect(rankTools(index, "Stop stop STOP nowhere")).toEqual(
      rankTools(index, "stop"),
    );
    expect(rankTools(index, "stop")[0]!.score).toBeCloseTo(1.0417083101, 9);
    expect(rankTools(index, "nowhere")).toEqual([]);
    expect(rankTools(index, "")).toEqual([]);
  });

  it("breaks ties by name bytes and honours the limit", () => {
    const tied = buildBm25Index([
      { name: "b_tool", text: "resize disk" },
      { name: "a_tool", text: "resize disk" },
      { name: "B_tool", text: "resize disk" },
      { name: "other", text: "list" },
    ]);
    expect(rankTools(tied, "resize").map((r) => r.name)).toEqual([
      "B_tool",
      "a_tool",
      "b_tool",
    ]);
    expect(rankTools(tied, "resize", 2).map((r) => r.name)).toEqual([
      "B_tool",
      "a_tool",
    ]);
  });

  it("ranks the same from the index's JSON", () => {
    const copy = JSON.parse(JSON.stringify(index)) as typeof index;
    expect(rankTools(copy, "instance disks")).toEqual(
      rankTools(index, "instance disks"),
    );
  });

  it("does not treat Object.prototype names as terms", () => {
    expect(rankTools(index, "constructor toString")).toEqual([]);
  });
});
