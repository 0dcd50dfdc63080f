#!/usr/bin/env node
// The notes of one release, from CHANGELOG.md (Keep a Changelog): the body
// of its "## [X.Y.Z] - YYYY-MM-DD" section, for the GitHub release.
//
//   node scripts/release-notes.mjs 0.1.0 [--changelog <file>]
//
// Exits 1, naming the fix, when the section is missing, undated or empty.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The body of `version`'s section of a changelog's text, trimmed. Throws
 * an Error whose message names the fix when there is none.
 */
export function releaseNotes(changelog, version) {
  const lines = changelog.split("\n");
  const heading = `## [${version}]`;
  const start = lines.findIndex(
    (line) => line === heading || line.startsWith(`${heading} `),
  );
  if (start === -1) {
    throw new Error(
      `no "${heading} - YYYY-MM-DD" section: move the [Unreleased] entries under it`,
    );
  }
  if (!/^ - \d{4}-\d{2}-\d{2}$/.test(lines[start].slice(heading.length))) {
    throw new Error(
      `"${lines[start]}" has no release date: write "${heading} - YYYY-MM-DD"`,
    );
  }
  let end = lines.findIndex(
    (line, i) => i > start && /^## |^\[[^\]]+\]: /.test(line),
  );
  if (end === -1) end = lines.length;
  const body = lines
    .slice(start + 1, end)
    .join("\n")
    .trim();
  if (body === "") {
    throw new Error(`"${lines[start]}" is empty: list the release's changes`);
  }
  return `${body}\n`;
}

function main(argv) {
  const args = [...argv];
  let changelog = resolve(import.meta.dirname, "..", "CHANGELOG.md");
  const at = args.indexOf("--changelog");
  if (at !== -1 && args[at + 1] !== undefined) {
    changelog = resolve(args[at + 1]);
    args.splice(at, 2);
  }
  const version = args.length === 1 ? args[0].replace(/^v/, "") : undefined;
  if (
    version === undefined ||
    !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)
  ) {
    throw new Error(
      `give one version, e.g. node scripts/release-notes.mjs 0.1.0 (got "${args.join(" ")}")`,
    );
  }
  let text;
  try {
    text = readFileSync(changelog, "utf8");
  } catch (e) {
    throw new Error(`cannot read ${changelog}: ${e.code ?? e.message}`, {
      cause: e,
    });
  }
  process.stdout.write(releaseNotes(text, version));
}

if (process.argv[1] === import.meta.filename) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    process.stderr.write(`release-notes: ${e.message}\n`);
    process.exit(1);
  }
}
