#!/usr/bin/env node
// One packed npm package, as the release publishes it: its package.json
// names one of the project's public packages, carries the version, the
// repository's URL, and no "workspace:" range a user's install would refuse.
//
//   node scripts/check-npm-tarball.mjs <package.tgz> <version>
import { execFileSync } from "node:child_process";

const publicPackages = ["protoc-gen-ai-tools", "@protoc-gen-ai-tools/runtime"];
const repositoryUrl =
  "https://github.com/protoc-gen-ai-tools/protoc-gen-ai-tools.git";

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
const pkg = JSON.parse(
  execFileSync("tar", ["-xzOf", tarball, "package/package.json"], {
    encoding: "utf8",
  }),
);
const problems = tarballProblems(pkg, version);
for (const problem of problems) {
  process.stderr.write(`check-npm-tarball: ${tarball}: ${problem}\n`);
}
if (problems.length > 0) process.exit(1);
