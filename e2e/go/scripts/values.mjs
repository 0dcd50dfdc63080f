// Write gen/values/<tool>.json (and gen/values/<case>.json for the
// generator's golden cases compact, validate and recursion,
// gencases/*/case_values_test.go): schema-generated arguments for the Go
// suite's schema round trip (gentools/samples_test.go), by the shared
// @protoc-gen-ai-tools/e2e-samples. The Go test checks that each tool's schema is the
// one the generated Go file carries.
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
  target: "go",
  seed: 7000,
  count,
  out: path.join(pkgDir, "gen", "values"),
});
