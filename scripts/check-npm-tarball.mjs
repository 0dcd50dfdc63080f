#!/usr/bin/env node
// One packed npm package, as the release publishes it: its package.json
// names one of the project's public packages, carries the version, the
// repository's URL, and no "workspace:" range a user's install would refuse;
// the tarball holds the files a user runs or imports (every file its
// package.json's bin, main, types and exports name, and the plugin's
// annotation proto, executable and bundle), and the runtime's embedded Redis
// scripts are those of runtimes/go/redisstore/*.lua, every one of them.
//
//   node scripts/check-npm-tarball.mjs <package.tgz> <version>
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const publicPackages = ["protoc-gen-ai-tools", "@protoc-gen-ai-tools/runtime"];
const repositoryUrl =
  "https://github.com/protoc-gen-ai-tools/protoc-gen-ai-tools.git";

// Files a package must hold beyond what its package.json names: the plugin's
// annotation proto (copied by generator/scripts/copy-protos.mjs at pack time)
// and its bundle, which bin/protoc-gen-ai-tools requires; the runtime's Redis
// scripts, embedded from runtimes/go/redisstore/*.lua by its generate step.
const requiredFiles = {
  "@protoc-gen-ai-tools/runtime": ["dist/gen/redis-scripts.js"],
  "protoc-gen-ai-tools": [
    "proto/ai/tools/v1/annotations.proto",
    "bin/protoc-gen-ai-tools",
    "dist/protoc-gen-ai-tools.cjs",
  ],
};

/** The Redis scripts' one committed copy, which the runtime embeds. */
const redisScriptsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../runtimes/go/redisstore",
);

/**
 * The problems of the runtime's embedded Redis scripts: each
 * runtimes/go/redisstore/*.lua must be in dist/gen/redis-scripts.js as the
 * string literal its generate step writes (a script the step does not list,
 * or a stale build, fails here).
 */
function redisScriptProblems(embedded) {
  const problems = [];
  for (const file of readdirSync(redisScriptsDir).sort()) {
    if (!file.endsWith(".lua")) continue;
    const text = readFileSync(path.join(redisScriptsDir, file), "utf8");
    if (!embedded.includes(JSON.stringify(text))) {
      problems.push(
        `dist/gen/redis-scripts.js lacks runtimes/go/redisstore/${file} as it is: list it in runtimes/ts/scripts/embed-redis-scripts.mjs and build again`,
      );
    }
  }
  return problems;
}

/** Every relative file path a value of package.json's exports names. */
function exportTargets(value) {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(exportTargets);
}

/** The files the package must hold, without "./" (deduplicated, sorted). */
function expectedFiles(pkg) {
  const named = [
    ...exportTargets(pkg.exports ?? {}),
    ...(typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin ?? {})),
    ...[pkg.main, pkg.types].filter((f) => typeof f === "string"),
    ...(requiredFiles[pkg.name] ?? []),
  ];
  return [...new Set(named.map((f) => f.replace(/^\.\//, "")))].sort();
}

/** The problems of a packed package.json, each naming the fix. */
function tarballProblems(pkg, version) {
  const problems = [];
  if (!publicPackages.includes(pkg.name)) {
    problems.push(
      `name "${pkg.name}" is not one of ${publicPackages.join(", ")}`,
    );
  }
  if (pkg.version !== version) {
    problems.push(
      `version "${pkg.version}", VERSION says "${version}": run node scripts/version.mjs set ${version}`,
    );
  }
  if (pkg.private === true)
    problems.push(`"private": true would refuse to publish`);
  if (pkg.repository?.url !== repositoryUrl) {
    problems.push(`repository.url is not "${repositoryUrl}"`);
  }
  for (const field of [
    "dependencies",
    "peerDependencies",
    "optionalDependencies",
  ]) {
    for (const [dep, range] of Object.entries(pkg[field] ?? {})) {
      if (range.startsWith("workspace:")) {
        problems.push(
          `${field}["${dep}"] is "${range}": pack with pnpm pack, which rewrites it`,
        );
      }
    }
  }
  return problems;
}

const [tarball, version] = process.argv.slice(2);
if (tarball === undefined || version === undefined) {
  process.stderr.write(
    "check-npm-tarball: usage: node scripts/check-npm-tarball.mjs <package.tgz> <version>\n",
  );
  process.exit(2);
}
if (!existsSync(tarball)) {
  process.stderr.write(
    `check-npm-tarball: ${tarball}: no such file; pack it first (pnpm pack, as scripts/release-check.sh does)\n`,
  );
  process.exit(1);
}
/** The output of tar, or exit 1 naming the tarball (not a stack trace). */
function tar(args) {
  try {
    return execFileSync("tar", [...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 << 20,
    });
  } catch (e) {
    const detail = `${e.stderr ?? ""}`.trim() || e.message;
    process.stderr.write(
      `check-npm-tarball: ${tarball}: not a readable npm tarball (tar ${args[0]}: ${detail})\n`,
    );
    process.exit(1);
  }
}
const pkg = JSON.parse(tar(["-xzOf", tarball, "package/package.json"]));
const listed = new Set(
  tar(["-tzf", tarball])
    .split("\n")
    .filter((line) => line.startsWith("package/"))
    .map((line) => line.slice("package/".length)),
);
const problems = tarballProblems(pkg, version);
for (const file of expectedFiles(pkg)) {
  if (!listed.has(file)) {
    problems.push(
      `holds no ${file}, which its package.json or a user needs: build before packing, and check "files" in package.json`,
    );
  }
}
if (
  pkg.name === "@protoc-gen-ai-tools/runtime" &&
  listed.has("dist/gen/redis-scripts.js")
) {
  problems.push(
    ...redisScriptProblems(
      tar(["-xzOf", tarball, "package/dist/gen/redis-scripts.js"]),
    ),
  );
}
for (const problem of problems) {
  process.stderr.write(`check-npm-tarball: ${tarball}: ${problem}\n`);
}
if (problems.length > 0) process.exit(1);
