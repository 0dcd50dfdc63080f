// Write gen/values/<tool>.json (and gen/values/<case>.json for the
// generator's golden cases compact, validate and recursion,
// tests/test_case_values.py): schema-generated arguments for the schema
// round trip of tests/test_samples.py, by the shared @protoc-gen-ai-tools/e2e-samples.
// The test checks that each tool's schema is the one gen/ai_tools_gen.py
// carries.
//
//   node scripts/values.mjs [--count N]
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  valuesPerTool,
  writeSuiteValues,
} from "@protoc-gen-ai-tools/e2e-samples";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const count = argv[0] === "--count" ? Number(argv[1]) : valuesPerTool;
await writeSuiteValues({
  target: "py",
  seed: 9100,
  count,
  out: path.join(pkgDir, "gen", "values"),
});
