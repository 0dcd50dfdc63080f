#!/usr/bin/env node
// The one version of every package, read from the repository's VERSION file.
//
//   node scripts/version.mjs              print it
//   node scripts/version.mjs check        exit 1 naming every file that differs
//   node scripts/version.mjs set 0.2.0    write it to VERSION and every file below
//   node scripts/version.mjs files        list the files below
//   node scripts/version.mjs go-tags      the tags of the Go modules' release
//
// --root <dir> runs on another copy of the repository (the tests use it).
// Go modules carry no version in a file: their tags (docs/release.md) do.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** Semantic version, without build metadata: 1.2.3 or 1.2.3-rc.1. */
const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/;

/**
 * Every file that carries the version, with the pattern that finds it
 * (the version is its first group). A package.json's own "version" is its
 * first one, at two spaces of indent.
 */
export const versionedFiles = [
  ["generator/package.json", /^ {2}"version": "([^"]*)",?$/m],
  ["generator/src/version.ts", /^export const version = "([^"]*)";$/m],
  ["runtimes/ts/package.json", /^ {2}"version": "([^"]*)",?$/m],
  ["runtimes/go/package.json", /^ {2}"version": "([^"]*)",?$/m],
  ["runtimes/python/package.json", /^ {2}"version": "([^"]*)",?$/m],
  ["runtimes/python/pyproject.toml", /^version = "([^"]*)"$/m],
];

function fail(message) {
  process.stderr.write(`version: ${message}\n`);
  process.exit(1);
}

/** The version in VERSION, checked to be a semantic version. */
export function readVersion(root) {
  const text = readFileSync(join(root, "VERSION"), "utf8");
  const version = text.trim();
  if (!semver.test(version) || text !== `${version}\n`) {
    fail(
      `VERSION holds ${JSON.stringify(text)}: write one semantic version (e.g. 0.1.0) and a newline`,
    );
  }
  return version;
}

/** The version each versioned file carries, by path ("" where none is found). */
export function readVersions(root) {
  return versionedFiles.map(([path, pattern]) => {
    const match = pattern.exec(readFileSync(join(root, path), "utf8"));
    return { path, version: match === null ? "" : match[1] };
  });
}

/** The repository's path: a Go module in its directory d is <repoPath>/d. */
export const repoPath = "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools";

/**
 * The tags a release pushes for the repository's own Go modules (every
 * go.mod, tracked or new, whose module path is under repoPath):
 * "<dir>/vX.Y.Z", as Go finds a module in a subdirectory. From v2 on, Go
 * wants the major version at the end of the module path.
 */
export function goTags(root, version) {
  const major = Number(version.split(".")[0]);
  const listed = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "--", "*go.mod"],
    { cwd: root, encoding: "utf8" },
  );
  const tags = [];
  for (const file of new Set(listed.split("\n").filter((f) => f !== ""))) {
    const module = /^module\s+(\S+)/m.exec(
      readFileSync(join(root, file), "utf8"),
    );
    if (module === null || !module[1].startsWith(`${repoPath}/`)) continue;
    const dir = file.slice(0, -"/go.mod".length);
    const want =
      major >= 2 ? `${repoPath}/${dir}/v${major}` : `${repoPath}/${dir}`;
    if (module[1] !== want) {
      fail(
        `${file}: module "${module[1]}" cannot be tagged ${dir}/v${version}: name it "${want}"`,
      );
    }
    tags.push(`${dir}/v${version}`);
  }
  return tags.sort();
}

function check(root) {
  const want = readVersion(root);
  const drift = readVersions(root).filter((f) => f.version !== want);
  for (const f of drift) {
    process.stderr.write(
      f.version === ""
        ? `version: ${f.path}: no version found: restore its version line (${want})\n`
        : `version: ${f.path}: "${f.version}", VERSION says "${want}": run node scripts/version.mjs set ${want}\n`,
    );
  }
  if (drift.length > 0) process.exit(1);
}

function set(root, version) {
  if (version === undefined || !semver.test(version)) {
    fail(
      `set "${version ?? ""}": give a semantic version, e.g. node scripts/version.mjs set 0.2.0`,
    );
  }
  const texts = versionedFiles.map(([path, pattern]) => {
    const text = readFileSync(join(root, path), "utf8");
    const match = pattern.exec(text);
    if (match === null)
      fail(`${path}: no version found: restore its version line`);
    const at = match.index + match[0].indexOf(match[1]);
    return [
      path,
      text.slice(0, at) + version + text.slice(at + match[1].length),
    ];
  });
  // Written only once every file has been read and matched.
  for (const [path, text] of texts) writeFileSync(join(root, path), text);
  writeFileSync(join(root, "VERSION"), `${version}\n`);
}

function main(argv) {
  let root = resolve(import.meta.dirname, "..");
  const args = [...argv];
  const at = args.indexOf("--root");
  if (at !== -1) {
    if (args[at + 1] === undefined) fail("--root needs a directory");
    root = resolve(args[at + 1]);
    args.splice(at, 2);
  }
  const [command, ...rest] = args;
  if (command === undefined) {
    process.stdout.write(`${readVersion(root)}\n`);
  } else if (command === "files" && rest.length === 0) {
    for (const [path] of versionedFiles) process.stdout.write(`${path}\n`);
  } else if (command === "go-tags" && rest.length === 0) {
    for (const tag of goTags(root, readVersion(root))) {
      process.stdout.write(`${tag}\n`);
    }
  } else if (command === "check" && rest.length === 0) {
    check(root);
  } else if (command === "set" && rest.length <= 1) {
    set(root, rest[0]);
  } else {
    fail(
      `unknown arguments "${args.join(" ")}": use no argument, check, files, go-tags, or set <version>`,
    );
  }
}

if (process.argv[1] === import.meta.filename) main(process.argv.slice(2));
