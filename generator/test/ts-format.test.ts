import { resolve } from "node:path";
import type { CodeGeneratorRequest } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { createProblemCollector } from "../src/errors.js";
import { buildModel, resolveRequestFiles } from "../src/model/build-model.js";
import { toolSelectionOf } from "../src/model/tool-selection.js";
import { parseOptions } from "../src/options.js";
import { generate } from "../src/plugin.js";
import { createRenderer } from "../src/render/render.js";
import { buildTsView, formatTs } from "../src/targets/ts/build-ts-view.js";
import { compileRequest } from "./support/compile.js";
import { buildRequest, goldenCases, paths } from "./support/request.js";
import { generateCorpus } from "./support/bench-corpus.js";
import { realApiRequest, realApis } from "./support/real-apis.js";

// ai_tools.gen.ts is printed as prettier formats it, without prettier
// (src/targets/ts/ts-doc.ts, src/targets/ts/ts-tool-layout.ts). For every golden case, the
// e2e API and a sample of the benchmark corpus (both versions), the file
// the plugin writes is compared byte for byte with what the pinned
// prettier makes of the same file printed unformatted (the view's
// statements on as few lines as they allow, as the templates wrote them
// before): the two must be equal.

/** The plugin's ai_tools.gen.ts and prettier's output of it unformatted. */
function bothWays(request: CodeGeneratorRequest): {
  written: string;
  prettier: string;
  formatted: boolean;
} {
  const written = generate(request, () => {}).find(
    (f) => f.name === "ai_tools.gen.ts",
  );
  if (written === undefined) {
    throw new Error("no ai_tools.gen.ts");
  }
  const options = parseOptions(request.parameter);
  const { files } = resolveRequestFiles(request);
  const model = buildModel(
    files,
    createProblemCollector(),
    toolSelectionOf(options.common, options.lists),
  );
  const tsImportPath = options.values["ts_import_path"] ?? ".";
  const toolSearch = options.common["tool_search"] === "true";
  const unformatted = buildTsView(
    model,
    { tsImportPath, toolSearch },
    createProblemCollector(),
    "unformatted",
  );
  const view = buildTsView(
    model,
    { tsImportPath, toolSearch },
    createProblemCollector(),
  );
  return {
    written: written.content,
    prettier: formatTs(createRenderer("ts").render(unformatted)),
    formatted: view.formatted,
  };
}

/** The first line where `a` and `b` differ, with a few lines of each. */
function firstDifference(a: string, b: string): string {
  const x = a.split("\n");
  const y = b.split("\n");
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return `line ${i + 1}:\n  prettier: ${JSON.stringify(x.slice(i, i + 3))}\n  written:  ${JSON.stringify(y.slice(i, i + 3))}`;
}

function expectSame(request: CodeGeneratorRequest): boolean {
  const { written, prettier, formatted } = bothWays(request);
  if (written !== prettier) {
    expect.fail(firstDifference(prettier, written));
  }
  return formatted;
}

describe("ai_tools.gen.ts without prettier", () => {
  const cases = goldenCases().filter((c) => c !== "unannotated");
  for (const c of cases) {
    it(`${c}: byte for byte what prettier writes`, async () => {
      expectSame(await buildRequest(c, { parameter: "target=ts" }));
    });
  }

  it("e2e/proto: byte for byte what prettier writes, without prettier", async () => {
    const e2e = resolve(paths.generator, "..", "e2e", "proto");
    expect(
      expectSame(await buildRequest(e2e, { parameter: "target=ts" })),
    ).toBe(true);
  });

  it("text outside ASCII, narrow or not: byte for byte what prettier writes", () => {
    const proto = `syntax = "proto3";
package intl.v1;

// A price — in €, £ or ¥ — with “curly” quotes and ≤ ≥ × ± ° signs.
message Price {
  // Amount in minor units, 0 ≤ amount < 10⁹ (“cents”), e.g. 1 999 for 19,99 €: a line long enough to be broken.
  int64 amount = 1;
  // Währung: ISO-4217 code — “EUR”, “GBP”… see https://example.com/währung.
  string currency = 2;
  // Libellé affiché : « Prix TTC » → shown to the customer.
  string label = 3;
  // Stand-ins present too: ~ ^ | and é.
  string tilde = 4;
}

// Text prettier measures otherwise: left to the document printer.
message Named {
  // 名前 (a name in Japanese), wide characters prettier counts twice.
  string name = 1;
  // An emoji 😀 and a combining accent e\u0301.
  string note = 2;
}

message Quote { Price price = 1; string customer_ref = 2; }

service PriceService {
  // Quotes a price — “fast” ≥ 1 call/s.
  rpc QuotePrice(Quote) returns (Price);
  // Gets a price.
  rpc GetPrice(Price) returns (Price);
  // Renames: 名前 in the description.
  rpc Rename(Named) returns (Named);
  // Renames again, the description in ASCII.
  rpc RenameAgain(Named) returns (Named);
}
`;
    expect(
      expectSame(
        compileRequest({ "intl/v1/intl.proto": proto }, "target=ts,tools=all"),
      ),
    ).toBe(true);
  });

  for (const api of realApis) {
    it(`${api} (Google's protos, tools=all, mcp=true): byte for byte what prettier writes`, () => {
      expect(
        expectSame(realApiRequest(api, "target=ts,tools=all,mcp=true")),
      ).toBe(true);
    });
  }

  for (const version of [1, 2]) {
    it(`bench corpus version ${version} (2 files): byte for byte what prettier writes, without prettier`, () => {
      const sources = Object.fromEntries(
        generateCorpus("ai-tools-bench-1", 2, version).map((f) => [
          f.path,
          f.content,
        ]),
      );
      expect(expectSame(compileRequest(sources, "target=ts"))).toBe(true);
    });
  }
});
