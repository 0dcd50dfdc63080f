import { describe, expect, it } from "vitest";
import { rankTools } from "../src/search/rank.js";
import { buildToolSearchIndex } from "../src/search/tool-search-index.js";
import { compileRequest } from "./support/compile.js";
import { modelOf } from "./support/model.js";

// Association expansion (docs/tool-search.md, "Search index"): a word of the
// request's nested comments that the index lacks, mentioned at least 3
// times in the API's distinct comments and held by the tools of at most 2
// namespaces and a twentieth of them, stands for the word of those tools'
// service and method names (less the verb) with the highest idf x share.

const api = `syntax = "proto3";
package s.v1;
option go_package = "example.com/s/v1;sv1";
// A scaling policy.
message Policy {
  // How many extra machines a surge may add.
  int32 max_surge = 1;
  // Seconds to wait after a surge; a surge ends when the load falls.
  int32 cooldown = 2;
  // Machines kept warm for a flurry of requests or a burst.
  int32 spare = 3;
}
message CreateScalerRequest { Policy policy = 1; }
message UpdateScalerRequest { Policy policy = 1; }
message ResizeDiskRequest {
  // The new size; a flurry of writes waits, burst after burst.
  int64 size_gb = 1;
}
message Disk { int64 size_gb = 1; }
// Scalers.
service ScalerService {
  // Creates a scaler.
  rpc CreateScaler(CreateScalerRequest) returns (Policy);
  // Updates a scaler.
  rpc UpdateScaler(UpdateScalerRequest) returns (Policy);
}
// Disks.
service DiskService {
  // Resizes a disk.
  rpc ResizeDisk(ResizeDiskRequest) returns (Disk);
}
`;

// 18 more one-tool services: 20 namespaces, so a word may be held by one.
const others = Array.from(
  { length: 18 },
  (_, i) => `message Part${i}Request { string name = 1; }
service Part${i}Service { rpc GetPart${i}(Part${i}Request) returns (Disk); }
`,
).join("");

const indexOf = (proto: string) =>
  buildToolSearchIndex(
    modelOf(compileRequest({ "s.proto": proto }, "tools=all,trim_prefix=s.v1"))
      .tools,
  );

describe("association expansion", () => {
  const index = indexOf(api + others);

  it("maps a word of the nested comments to its tools' name word", () => {
    expect(index.postings["surge"]).toBeUndefined();
    expect(index.queryTerms["surge"]).toEqual(["scaler"]);
    expect(
      rankTools(index, "cope with a surge", 5).map((hit) => hit.name),
    ).toEqual(["ScalerService_CreateScaler", "ScalerService_UpdateScaler"]);
  });

  it("leaves out words mentioned fewer than 3 times, held too widely, or indexed", () => {
    expect(index.queryTerms["flurry"]).toBeUndefined();
    expect(index.queryTerms["burst"]).toBeUndefined();
    expect(index.queryTerms["policy"]).toBeUndefined();
  });

  it("adds nothing for an API of fewer than 20 namespaces", () => {
    expect(indexOf(api).queryTerms["surge"]).toBeUndefined();
  });

  it("is deterministic", () => {
    expect(JSON.stringify(indexOf(api + others))).toBe(JSON.stringify(index));
  });
});
