import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildBm25Index } from "../src/search/bm25-index.js";
import { rankTools } from "../src/search/rank.js";

// BM25 (k1 1.2, b 0.75) over a corpus small enough to score by hand:
//   alpha "stop instance" (2 terms), beta "start instance instance" (3),
//   gamma "list disks" (2); N 3, average length 7/3.
// norms: alpha, gamma 1.2 × (0.25 + 0.75 × 2 / (7/3)) = 1.0714285714,
// beta 1.2 × (0.25 + 0.75 × 3 / (7/3)) = 1.4571428571.
// idf(stop) = ln(1 + 2.5/1.5) = 0.9808292530,
// idf(instance) = ln(1 + 1.5/2.5) = 0.4700036292;
// "stop the instance": alpha = 0.9808292530 × 2.2 / (1 + 1.0714285714)
//   + 0.4700036292 × 2.2 / (same) = 1.5408845784,
// beta = 0.4700036292 × 2 × 2.2 / (2 + 1.4571428571) = 0.5981864372.

const corpus = [
  { name: "gamma", terms: ["list", "disks"] },
  { name: "beta", terms: ["start", "instance", "instance"] },
  { name: "alpha", terms: ["stop", "instance"] },
];
const tables = {
  stopWords: ["the", "a", "the"],
  queryTerms: new Map([
    ["halt", ["stop"]],
    ["instances", ["instance"]],
    ["stop", ["stop"]],
    ["nowhere", ["nothing"]],
    ["machine", ["instance", "vm"]],
  ]),
};

describe("buildBm25Index", () => {
  const index = buildBm25Index(corpus, tables);

  it("is plain data: names by bytes, norms, idf, postings, query tables", () => {
    const json = JSON.parse(JSON.stringify(index)) as typeof index;
    expect(json).toMatchObject({
      version: 2,
      k1: 1.2,
      b: 0.75,
      names: ["alpha", "beta", "gamma"],
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
      stopWords: ["a", "the"],
    });
    expect(json.norms[0]).toBeCloseTo(1.0714285714, 9);
    expect(json.norms[1]).toBeCloseTo(1.4571428571, 9);
    expect(json.norms[2]).toBe(json.norms[0]);
    expect(json.idf["stop"]).toBeCloseTo(0.980829253, 9);
    expect(json.idf["instance"]).toBeCloseTo(0.4700036292, 9);
    expect(Object.keys(json.postings)).toEqual(Object.keys(json.idf));
  });

  it("keeps only query terms the postings hold, and only entries that change something", () => {
    expect(index.queryTerms).toEqual({
      halt: ["stop"],
      instances: ["instance"],
      machine: ["instance"],
    });
  });

  it("refuses two documents with one name, naming it", () => {
    expect(() =>
      buildBm25Index([...corpus, { name: "beta", terms: ["x"] }], tables),
    ).toThrow('tool "beta": indexed twice; give every tool its own name');
  });
});

describe("rankTools", () => {
  const index = buildBm25Index(corpus, tables);

  it("scores as computed by hand, best first, non-matching left out", () => {
    const ranked = rankTools(index, "stop the instance");
    expect(ranked.map((r) => r.name)).toEqual(["alpha", "beta"]);
    expect(ranked[0]!.score).toBeCloseTo(1.5408845784, 9);
    expect(ranked[1]!.score).toBeCloseTo(0.5981864372, 9);
  });

  it("reads stop words and query terms from the index", () => {
    expect(rankTools(index, "halt the instances")).toEqual(
      rankTools(index, "stop instance"),
    );
    expect(rankTools(index, "the")).toEqual([]);
    expect(rankTools(index, "machine")).toEqual(rankTools(index, "instance"));
  });

  it("counts a term once, whichever tokens bring it", () => {
    expect(rankTools(index, "Stop stop STOP halt nowhere")).toEqual(
      rankTools(index, "stop"),
    );
    expect(rankTools(index, "stop")[0]!.score).toBeCloseTo(1.0417083101, 9);
    expect(rankTools(index, "nowhere")).toEqual([]);
    expect(rankTools(index, "")).toEqual([]);
  });

  it("breaks ties by name bytes and honours the limit", () => {
    const tied = buildBm25Index(
      [
        { name: "b_tool", terms: ["resize", "disk"] },
        { name: "a_tool", terms: ["resize", "disk"] },
        { name: "B_tool", terms: ["resize", "disk"] },
        { name: "other", terms: ["list"] },
      ],
      tables,
    );
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

  it("refuses a limit below 1 or not whole, quoting it", () => {
    expect(() => rankTools(index, "stop", 0)).toThrow(
      'limit "0": ask for at least 1 tool',
    );
    expect(() => rankTools(index, "stop", 2.5)).toThrow(
      'limit "2.5": ask for at least 1 tool',
    );
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

describe("e2e/vectors/tool-search/ranking.json", () => {
  it("is what scripts/tool-search-vectors.mjs writes (regenerate it after changing the index)", () => {
    const script = join(
      import.meta.dirname,
      "..",
      "scripts",
      "tool-search-vectors.mjs",
    );
    const r = spawnSync(process.execPath, [script, "--check"], {
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 60_000);
});
