import { describe, expect, it } from "vitest";
import { stopWords, tokenize } from "../src/search/tokenize.js";

// The tool-search tokenizer (issue 36, part 2): the rules its doc comment
// states, one case each, so Go and Python can mirror them.

describe("tokenize", () => {
  it("splits camelCase and PascalCase", () => {
    expect(tokenize("listInstances")).toEqual(["list", "instances"]);
    expect(tokenize("StartWorkflowExecution")).toEqual([
      "start",
      "workflow",
      "execution",
    ]);
  });

  it("splits an upper-case run before its last letter when lower case follows", () => {
    expect(tokenize("HTTPServer")).toEqual(["http", "server"]);
    expect(tokenize("getVPNGateway")).toEqual(["get", "vpn", "gateway"]);
    expect(tokenize("VM")).toEqual(["vm"]);
  });

  it("splits at snake_case, dots, dashes, punctuation and non-ASCII", () => {
    expect(tokenize("google_cloud_compute_v1_Instances_Stop")).toEqual([
      "google",
      "cloud",
      "compute",
      "v1",
      "instances",
      "stop",
    ]);
    expect(tokenize("x.b-c, d/e (f) g\u00e9h")).toEqual([
      "x",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
    ]);
  });

  it("keeps letters and digits together", () => {
    expect(tokenize("ipv6 us-central1 v1beta1")).toEqual([
      "ipv6",
      "us",
      "central1",
      "v1beta1",
    ]);
    expect(tokenize("page2Token")).toEqual(["page2", "token"]);
  });

  it("keeps stop words and stems nothing (the index's data does that)", () => {
    expect(tokenize("Stop a VM in the zone")).toEqual([
      "stop",
      "a",
      "vm",
      "in",
      "the",
      "zone",
    ]);
    expect(tokenize("addresses policies instances")).toEqual([
      "addresses",
      "policies",
      "instances",
    ]);
  });

  it("has a sorted lower-case stop list", () => {
    expect(stopWords).toContain("the");
    expect(stopWords.every((w) => /^[a-z]+$/.test(w))).toBe(true);
    expect([...stopWords].sort()).toEqual(stopWords);
  });

  it("gives nothing for text without letters or digits", () => {
    expect(tokenize("")).toEqual([]);
    expect(tokenize(" _-. ")).toEqual([]);
  });
});
