// Times aliasifyJson on a ~25 KB response holding 1,000 registered UUIDs,
// and registerResponse (one walk by message type) on the same response.
// Run after `build` (imports dist/).
import { randomUUID } from "node:crypto";
import { createAliasManager } from "../dist/index.js";

const m = createAliasManager({
  knownAliasPrefixes: ["link"],
  responseAliases: {
    types: {
      "bench.v1.ListLinksResponse": [
        { field: "links", message: "bench.v1.Link" },
      ],
      "bench.v1.Link": [{ field: "id", prefix: "link" }],
    },
    tools: {
      links_list: {
        message: "bench.v1.ListLinksResponse",
        idPrefix: "",
        idField: "",
      },
    },
  },
});
const items = [];
for (let i = 0; i < 1000; i++) {
  const id = randomUUID();
  m.register("link", id);
  items.push({ id, n: i % 10 });
}
// A flat string, as a response decoded from the wire is (a slice of a larger
// string is slower to scan).
const json = Buffer.from(
  JSON.stringify({ links: items }).slice(0, 25 * 1024),
).toString();
const uuids = (
  json.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ??
  []
).length;

for (let i = 0; i < 200; i++) m.aliasifyJson(json); // warm up
const runs = 2000;
const start = process.hrtime.bigint();
let out = "";
for (let i = 0; i < runs; i++) out = m.aliasifyJson(json);
const perCall = Number(process.hrtime.bigint() - start) / runs / 1000;
if (!out.includes("link-1")) throw new Error("aliasifyJson replaced nothing");
console.log(
  `aliasifyJson: ${(json.length / 1024).toFixed(1)} KB, ${uuids} UUIDs in the text, 1000 registered: ${perCall.toFixed(1)} µs per call (${runs} runs)`,
);

// The same text once 20 operation names (not UUIDs) are registered too:
// the whole-token pass after the UUID pass, one search per name.
for (let i = 1; i <= 20; i++) {
  m.register("operation", `workspaces/w1/operations/${i}`);
}
for (let i = 0; i < 200; i++) m.aliasifyJson(json); // warm up
const namesStart = process.hrtime.bigint();
for (let i = 0; i < runs; i++) out = m.aliasifyJson(json);
if (!out.includes("link-1")) throw new Error("aliasifyJson replaced nothing");
const namesPerCall = Number(process.hrtime.bigint() - namesStart) / runs / 1000;
console.log(
  `aliasifyJson, 20 names registered too: ${namesPerCall.toFixed(1)} µs per call (${runs} runs)`,
);

// The whole response (1,000 links), every UUID already registered: the walk
// and the lookups, as after a repeated list call.
const full = JSON.stringify({ links: items });
for (let i = 0; i < 200; i++) m.registerResponse("links_list", full);
const regRuns = 500;
const regStart = process.hrtime.bigint();
for (let i = 0; i < regRuns; i++) m.registerResponse("links_list", full);
const regPerCall = Number(process.hrtime.bigint() - regStart) / regRuns / 1000;
console.log(
  `registerResponse: ${(full.length / 1024).toFixed(1)} KB, 1000 ids: ${regPerCall.toFixed(1)} µs per call (${regRuns} runs)`,
);
