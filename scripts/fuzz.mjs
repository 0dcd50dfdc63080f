#!/usr/bin/env node
// The fuzz run (issue 12, point 6): every package's `fuzz` task through
// turbo, one package at a time, each fuzzing for the given time.
//
//   node scripts/fuzz.mjs [--duration 30s|10m|1h]   (npx pnpm@12.4.2 fuzz -- --duration 10m)
//
// The duration is per package (generator, runtimes/ts, runtimes/python,
// runtimes/go), shared by its properties; the default, 30 s, is what CI
// runs. Each package reads it as FUZZ_SECONDS.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function fail(message) {
  console.error(`fuzz: ${message}`);
  process.exit(2);
}

/** Seconds of "35", "35s", "10m" or "1h". */
function seconds(text) {
  const m = /^([0-9]+)(s|m|h)?$/.exec(text ?? "");
  if (m === null || Number(m[1]) === 0) {
    fail(`invalid duration ${JSON.stringify(text)}: give e.g. 35s, 10m or 1h`);
  }
  return Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] ?? "s"];
}

const args = process.argv.slice(2).filter((a) => a !== "--");
let duration = 30;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--duration") duration = seconds(args[++i]);
  else if (args[i].startsWith("--duration="))
    duration = seconds(args[i].slice(11));
  else
    fail(
      `unknown argument ${JSON.stringify(args[i])}; usage: fuzz [--duration 10m]`,
    );
}

const packages = [
  "protoc-gen-ai-tools",
  "@protoc-gen-ai-tools/runtime",
  "@protoc-gen-ai-tools/runtime-python",
  "@protoc-gen-ai-tools/runtime-go",
];
console.log(`fuzz: ${duration} s per package`);
const r = spawnSync(
  path.join(root, "node_modules", ".bin", "turbo"),
  [
    "run",
    "fuzz",
    "--concurrency=1",
    // Only the packages with a fuzz task: the others' builds are not needed.
    ...packages.map((p) => `--filter=${p}`),
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, FUZZ_SECONDS: String(duration) },
  },
);
process.exit(r.status ?? 1);
