// The APIs of the tool-search query sets (e2e/vectors/tool-search), built
// as that README says, for the bench scripts that measure on them
// (search-recall.mjs, deferred-tokens.mjs, mcp-search-first.mjs): Compute
// Engine and Vertex AI from google-proto-files (the generator's pin),
// Temporal from a directory of its protos without buf.yaml (skipped with a
// message when not given). Each API is compiled by buf, captured as buf
// hands it to a plugin, and modelled by the built generator (dist/) with
// the set's own options.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fromBinary } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema } from "@bufbuild/protobuf/wkt";
import { createRequestCapture } from "./buf-request.mjs";

const here = dirname(fileURLToPath(import.meta.url));
/** The generator's directory. */
export const generatorDir = join(here, "..", "..");
/** The directory of the query sets. */
export const querySetsDir = join(
  generatorDir,
  "..",
  "e2e",
  "vectors",
  "tool-search",
);
const require = createRequire(import.meta.url);

/**
 * Each query set's API, built in turn: `{ api, set, tools }`, `set` the
 * parsed queries/<api>.json and `tools` the generator model's tools under
 * the set's options, followed by `extraOptions` when given. An unknown API
 * ends the process (exit 2); an API without protos is skipped with a line
 * saying so.
 *
 * @param {{ apis: string, temporalRoot?: string, dist: string, extraOptions?: string }} options
 */
export async function* querySetModels(options) {
  const gen = await import(
    pathToFileURL(resolve(options.dist, "index.js")).href
  );
  const googleRoot = dirname(
    require.resolve("google-proto-files/package.json", {
      paths: [generatorDir],
    }),
  );
  const sources = {
    temporal: { root: options.temporalRoot, dir: "temporal/api" },
    "vertex-ai": { root: googleRoot, dir: "google/cloud/aiplatform/v1" },
    compute: { root: googleRoot, dir: "google/cloud/compute/v1" },
  };
  const capture = createRequestCapture();
  for (const api of options.apis.split(",").map((a) => a.trim())) {
    const source = sources[api];
    if (source === undefined) {
      console.error(
        `--apis ${JSON.stringify(api)}: not one of ${Object.keys(sources).join(", ")}`,
      );
      process.exit(2);
    }
    if (
      source.root === undefined ||
      !existsSync(join(source.root, source.dir))
    ) {
      console.log(
        `${api}: skipped: no protos (pass --temporal-root, a directory holding temporal/, google/ and nexusannotations/ of temporalio/api without buf.yaml; see e2e/vectors/tool-search/README.md)`,
      );
      continue;
    }
    const set = JSON.parse(
      readFileSync(join(querySetsDir, "queries", `${api}.json`), "utf8"),
    );
    const request = fromBinary(
      CodeGeneratorRequestSchema,
      capture(source.root, source.dir),
    );
    const parsed = gen.parseOptions(
      [set.options, options.extraOptions ?? ""]
        .filter((o) => o !== "")
        .join(","),
    );
    const { tools } = gen.buildModel(
      gen.resolveRequestFiles(request).files,
      undefined,
      gen.toolSelectionOf(parsed.common, parsed.lists),
    );
    yield { api, set, tools };
  }
}
