// The main job on the bundled example: generate the Go tools for
// proto/examples with buf and the local plugin, then show what was made.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "out", "example", "gentools");
const file = join(out, "ai_tools.gen.go");

rmSync(out, { recursive: true, force: true });
console.log(
  "$ buf generate   (buf.gen.yaml: proto/examples → out/example/gentools, opt target=go)",
);
execFileSync(join(root, "node_modules", ".bin", "buf"), ["generate"], {
  cwd: root,
  stdio: "inherit",
});

const source = readFileSync(file, "utf8");
const tools = [
  ...source.matchAll(
    /^var (\w+) = AgentTool\{\n\tName:\s+"([^"]+)",\n\tDescription:\s+(".*"),\n\tStrict:\s+(\w+),\n\tParameters:\s+json\.RawMessage\((".*")\),/gm,
  ),
];
console.log(
  `\nwrote ${file.slice(root.length + 1)} (${source.length} bytes, ${source.split("\n").length} lines)\n`,
);
console.log("tools:");
for (const [, variable, name, description, strict, params] of tools) {
  const schema = JSON.parse(JSON.parse(params));
  console.log(
    `  ${name.padEnd(20)} var ${variable.padEnd(18)} strict=${strict.padEnd(5)} params: ${Object.keys(schema.properties).join(", ")}`,
  );
  console.log(`  ${"".padEnd(20)} ${JSON.parse(description)}`);
}
const executors = [
  ...source.matchAll(
    /^func \(e \*Executor\) (Execute\w+)\(ctx context\.Context, argsJSON string\)/gm,
  ),
].map((m) => m[1]);
console.log(`\nexecutors: ${executors.join(", ") || "none"}`);
const prefixes = source.match(
  /^var responseFieldPrefixes = map\[string\]string\{\n([\s\S]*?)^\}/m,
);
if (prefixes) {
  console.log(
    "\nresponseFieldPrefixes:\n" + prefixes[1].replace(/^\t/gm, "  "),
  );
}
console.log(`first lines of ${file.slice(root.length + 1)}:\n`);
console.log(source.split("\n").slice(0, 24).join("\n"));
