#!/usr/bin/env node
// Regenerate (or, with --check, verify) the golden Go files.
//
//   node scripts/golden.mjs [--check] [--list] [--bad] [case...]
//
// For every case directory under testdata/protos (or the named ones): build
// a CodeGeneratorRequest with buf (scripts/lib/request.mjs), run the plugin
// in process (dist/plugin.js, so run `pnpm run build` first) with
// parameter "target=go", and write the response's *.gen.go files to
// test-go/golden/<case>/, after deleting that case's stale *.gen.go files.
// *_test.go and every other file there is left alone.
//
//   --check  write nothing; print a diff and exit 1 on any difference (CI).
//   --list   only build the requests and print their files (no plugin needed).
//   --bad    also run every testdata/bad case and require a generation error
//            containing each line of its expected.txt.

import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { unifiedDiff } from "./lib/diff.mjs";
import {
  badDir,
  buildRequest,
  byteOrder,
  defaultParameter,
  generatorDir,
  goldenDir,
  listCases,
  protosDir,
} from "./lib/request.mjs";

const argv = process.argv.slice(2);
const flags = new Set(argv.filter((a) => a.startsWith("--")));
for (const f of flags) {
  if (!["--check", "--list", "--bad", "--help"].includes(f)) {
    fail(`unknown flag ${f}`);
  }
}
if (flags.has("--help")) {
  console.log(
    readFileSync(new URL(import.meta.url), "utf8")
      .split("\n")
      .slice(1, 17)
      .join("\n"),
  );
  process.exit(0);
}
const check = flags.has("--check");
const listOnly = flags.has("--list");
const allCases = listCases(protosDir);
const named = argv.filter((a) => !a.startsWith("--"));
for (const c of named) {
  if (!allCases.includes(c))
    fail(`no such case: ${c} (cases: ${allCases.join(", ")})`);
}
const cases = named.length > 0 ? named : allCases;
if (cases.length === 0) fail(`no cases under ${protosDir}`);

// Build every request first, a few buf processes at a time.
const requests = await mapLimit(cases, 4, (c) =>
  buildRequest(c, { parameter: defaultParameter }).catch((e) => {
    fail(`case ${c}: cannot build the request:\n${e.message}`);
  }),
);

if (listOnly) {
  cases.forEach((c, i) => {
    const r = requests[i];
    console.log(`${c}: parameter ${JSON.stringify(r.parameter)}`);
    for (const f of r.protoFile) {
      const gen = r.fileToGenerate.includes(f.name) ? "generate" : "import  ";
      console.log(`  ${gen} ${f.name}`);
    }
  });
  process.exit(0);
}

const pluginPath = path.join(generatorDir, "dist", "plugin.js");
if (!existsSync(pluginPath)) {
  fail(
    `${pluginPath} not found: build the generator first (pnpm --filter protoc-gen-ai-tools run build)`,
  );
}
const { protocGenAiTools } = await import(pathToFileURL(pluginPath).href);
if (!protocGenAiTools || typeof protocGenAiTools.run !== "function") {
  fail(
    `${pluginPath} does not export protocGenAiTools with a run(request) method`,
  );
}

let problems = 0;
const report = (msg) => {
  problems++;
  console.error(msg);
};

for (const [i, c] of cases.entries()) {
  const res = await protocGenAiTools.run(requests[i]);
  if (res.error !== undefined && res.error !== "") {
    report(`case ${c}: the plugin reported an error:\n${res.error}`);
    continue;
  }
  const want = new Map();
  for (const f of res.file) {
    if (!f.name.endsWith(".gen.go")) {
      console.warn(
        `case ${c}: ignoring ${f.name} (only *.gen.go files are golden)`,
      );
      continue;
    }
    if (f.insertionPoint) {
      report(
        `case ${c}: ${f.name} uses an insertion point, not supported here`,
      );
      continue;
    }
    if (path.isAbsolute(f.name) || f.name.split("/").includes("..")) {
      report(`case ${c}: bad file name ${JSON.stringify(f.name)}`);
      continue;
    }
    if (want.has(f.name)) report(`case ${c}: ${f.name} written twice`);
    want.set(f.name, f.content ?? "");
  }
  syncCase(c, want);
}

// Directories of golden/ that are not cases (shared Go tests, or a removed
// case) are never touched: only mention stale generated files there.
if (named.length === 0 && existsSync(goldenDir)) {
  for (const e of readdirSync(goldenDir, { withFileTypes: true })) {
    if (!e.isDirectory() || allCases.includes(e.name)) continue;
    const stale = listGenGo(path.join(goldenDir, e.name));
    if (stale.length > 0) {
      console.warn(
        `note: golden/${e.name}/ is not a case but holds ${stale.join(", ")}; left alone`,
      );
    }
  }
}

if (flags.has("--bad")) await checkBad();

if (problems > 0) {
  console.error(
    check
      ? `\ngolden check failed: ${problems} problem(s). Run \`pnpm --filter protoc-gen-ai-tools run golden\` and review the diff.`
      : `\ngolden: ${problems} problem(s).`,
  );
  process.exit(1);
}
console.log(
  check
    ? `golden files up to date (${cases.length} cases)`
    : `golden files written (${cases.length} cases)`,
);

/** Make golden/<c>/ hold exactly `want` among its *.gen.go files. */
function syncCase(c, want) {
  const dir = path.join(goldenDir, c);
  const have = new Map();
  for (const rel of listGenGo(dir)) {
    have.set(rel, readFileSync(path.join(dir, rel), "utf8"));
  }
  const rel = (n) => path.relative(process.cwd(), path.join(dir, n));
  if (check) {
    for (const [name, content] of want) {
      if (!have.has(name)) {
        report(`case ${c}: missing golden file ${rel(name)}`);
      } else if (have.get(name) !== content) {
        report(
          `case ${c}: ${rel(name)} differs from the generator's output:\n` +
            unifiedDiff(
              have.get(name),
              content,
              `a/${rel(name)} (golden)`,
              `b/${rel(name)} (generated)`,
            ),
        );
      }
    }
    for (const name of have.keys()) {
      if (!want.has(name))
        report(
          `case ${c}: stale golden file ${rel(name)} (no longer generated)`,
        );
    }
    return;
  }
  for (const name of have.keys()) {
    if (!want.has(name) || have.get(name) !== want.get(name))
      rmSync(path.join(dir, name));
  }
  for (const [name, content] of want) {
    if (have.get(name) === content) continue;
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
    console.log(`wrote ${rel(name)}`);
  }
  for (const name of have.keys()) {
    if (!want.has(name)) console.log(`removed ${rel(name)}`);
  }
}

/** *.gen.go files under dir, relative, sorted. */
function listGenGo(dir) {
  const out = [];
  const walk = (r) => {
    const abs = path.join(dir, r);
    if (!existsSync(abs)) return;
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const p = r === "" ? e.name : `${r}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith(".gen.go")) out.push(p);
    }
  };
  walk("");
  return out.sort(byteOrder);
}

async function checkBad() {
  const bad = listCases(badDir);
  const reqs = await mapLimit(bad, 4, (c) =>
    buildRequest(path.join(badDir, c), { parameter: defaultParameter }).catch(
      (e) => e,
    ),
  );
  for (const [i, c] of bad.entries()) {
    const r = reqs[i];
    if (r instanceof Error) {
      report(`bad case ${c}: cannot build the request:\n${r.message}`);
      continue;
    }
    let res;
    try {
      res = await protocGenAiTools.run(r);
    } catch (e) {
      report(
        `bad case ${c}: the plugin threw instead of reporting an error: ${e?.stack ?? e}`,
      );
      continue;
    }
    if (!res.error) {
      report(
        `bad case ${c}: expected a generation error, got ${res.file.length} file(s)`,
      );
      continue;
    }
    const expectFile = path.join(badDir, c, "expected.txt");
    const parts = existsSync(expectFile)
      ? readFileSync(expectFile, "utf8")
          .split("\n")
          .map((l) => l.trim())
          .filter(Boolean)
      : [];
    const missing = parts.filter((p) => !res.error.includes(p));
    if (missing.length > 0) {
      report(
        `bad case ${c}: the error does not mention ${missing.map((m) => JSON.stringify(m)).join(", ")}:\n  ${res.error}`,
      );
    } else {
      console.log(`bad case ${c}: ok: ${res.error.split("\n")[0]}`);
    }
  }
}

async function mapLimit(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  );
  return out;
}

function fail(msg) {
  console.error(`golden: ${msg}`);
  process.exit(1);
}
