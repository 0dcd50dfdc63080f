import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// The release (docs/release.md): one version in every package
// (scripts/version.mjs), the GitHub release's notes from CHANGELOG.md
// (scripts/release-notes.mjs), the annotation protos' contract
// (scripts/proto-contract.mjs), and the workflow that publishes
// (.github/workflows/release.yml, actionlint: ci-workflow.test.ts).

const root = resolve(import.meta.dirname, "..", "..");
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0))
    rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "release-test-"));
  temps.push(dir);
  return dir;
}

function node(script: string, ...args: string[]) {
  return spawnSync("node", [join(root, "scripts", script), ...args], {
    cwd: root,
    encoding: "utf8",
  });
}

function read(path: string): string {
  return readFileSync(join(root, path), "utf8");
}

/** Every file the version script rewrites. */
function versionedFiles(): string[] {
  const r = node("version.mjs", "files");
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim().split("\n");
}

/** A copy of VERSION and the versioned files, for the script's --root. */
function copyVersioned(): string {
  const dir = temp();
  for (const path of ["VERSION", ...versionedFiles()]) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    cpSync(join(root, path), join(dir, path));
  }
  return dir;
}

describe("one version (scripts/version.mjs)", () => {
  const version = read("VERSION").trim();

  it("is the same in VERSION and every file that carries it", () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    const r = node("version.mjs", "check");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(read("generator/src/version.ts")).toContain(`"${version}"`);
  });

  it("covers every package.json a workspace package publishes and every pyproject.toml", () => {
    const files = versionedFiles();
    const listed = spawnSync(
      "git",
      ["ls-files", "--", "*package.json", "*pyproject.toml"],
      { cwd: root, encoding: "utf8" },
    ).stdout;
    for (const path of listed.trim().split("\n")) {
      if (path.endsWith("pyproject.toml")) {
        // A distribution's, not a tool configuration's (e2e/py).
        if (/^\[project\]$/m.test(read(path)))
          expect(files, path).toContain(path);
        continue;
      }
      const pkg = JSON.parse(read(path)) as {
        version?: string;
        private?: boolean;
      };
      // Private packages without a version of their own (e2e, examples: 0.0.0).
      if (pkg.version === undefined || pkg.version === "0.0.0") continue;
      expect(files, path).toContain(path);
    }
    for (const name of ["generator/package.json", "runtimes/ts/package.json"]) {
      const pkg = JSON.parse(read(name)) as { private?: boolean };
      expect(pkg.private, name).toBeUndefined();
    }
  });

  it("fails on drift, naming the file and the fix", () => {
    const dir = copyVersioned();
    const path = join(dir, "runtimes/python/pyproject.toml");
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace(
        `version = "${version}"`,
        'version = "9.9.9"',
      ),
    );
    const r = node("version.mjs", "--root", dir, "check");
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `version: runtimes/python/pyproject.toml: "9.9.9", VERSION says "${version}": run node scripts/version.mjs set ${version}\n`,
    );
  });

  it("set writes one version to every file, and refuses a bad one untouched", () => {
    const dir = copyVersioned();
    expect(node("version.mjs", "--root", dir, "set", "1.2.3-rc.1").status).toBe(
      0,
    );
    expect(node("version.mjs", "--root", dir, "check").status).toBe(0);
    expect(readFileSync(join(dir, "VERSION"), "utf8")).toBe("1.2.3-rc.1\n");
    for (const path of versionedFiles()) {
      const text = readFileSync(join(dir, path), "utf8");
      expect(text, path).toContain("1.2.3-rc.1");
      expect(text, path).not.toContain(`"${version}"`);
      // Nothing else changed: the text with the old version put back.
      expect(text.replace("1.2.3-rc.1", version), path).toBe(read(path));
    }
    const bad = node("version.mjs", "--root", dir, "set", "v2");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^version: set "v2": give a semantic version/);
    expect(readFileSync(join(dir, "VERSION"), "utf8")).toBe("1.2.3-rc.1\n");
  });

  it("names the Go modules' tags after their directories", () => {
    const r = node("version.mjs", "go-tags");
    expect(r.status, r.stderr).toBe(0);
    const tags = r.stdout.trim().split("\n");
    expect(tags).toContain(`runtimes/go/v${version}`);
    expect(tags).toContain(`runtimes/go/redisstore/v${version}`);
    expect(tags).toContain(`proto/v${version}`);
    for (const tag of tags) {
      const dir = tag.slice(0, tag.lastIndexOf("/"));
      expect(read(`${dir}/go.mod`)).toMatch(
        new RegExp(
          `^module github\\.com/protoc-gen-ai-tools/protoc-gen-ai-tools/${dir}\\n`,
        ),
      );
    }
  });
});

describe("a packed npm package (scripts/check-npm-tarball.mjs)", () => {
  /** A tarball of the plugin's package.json and `files` under package/. */
  function pack(files: string[]): string {
    const dir = temp();
    const pkg = join(dir, "package");
    for (const file of ["package.json", ...files]) {
      mkdirSync(dirname(join(pkg, file)), { recursive: true });
      writeFileSync(
        join(pkg, file),
        file === "package.json" ? read("generator/package.json") : "",
      );
    }
    const tgz = join(dir, "plugin.tgz");
    const r = spawnSync("tar", ["-C", dir, "-czf", tgz, "package"]);
    expect(r.status).toBe(0);
    return tgz;
  }
  const pluginFiles = [
    "bin/protoc-gen-ai-tools",
    "dist/protoc-gen-ai-tools.cjs",
    "dist/index.js",
    "dist/index.d.ts",
    "proto/ai/tools/v1/annotations.proto",
  ];
  const version = read("VERSION").trim();

  it("passes a tarball holding the bin, the bundle, the exports and the proto", () => {
    const r = node("check-npm-tarball.mjs", pack(pluginFiles), version);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("names each file a tarball lacks", () => {
    const tgz = pack(pluginFiles.filter((f) => !f.startsWith("proto/")));
    const r = node("check-npm-tarball.mjs", tgz, version);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `check-npm-tarball: ${tgz}: holds no proto/ai/tools/v1/annotations.proto, which its package.json or a user needs: build before packing, and check "files" in package.json\n`,
    );
  });
});

describe("release notes (scripts/release-notes.mjs)", () => {
  const changelog = [
    "# Changelog",
    "",
    "## [Unreleased]",
    "",
    "## [0.2.0] - 2027-01-15",
    "",
    "### Added",
    "",
    "- a thing",
    "",
    "## [0.1.0]",
    "",
    "- first",
    "",
    "[0.2.0]: https://example.com/compare/v0.1.0...v0.2.0",
    "",
  ].join("\n");

  function notes(...args: string[]) {
    const path = join(temp(), "CHANGELOG.md");
    writeFileSync(path, changelog);
    return node("release-notes.mjs", ...args, "--changelog", path);
  }

  it("prints the body of the version's dated section", () => {
    const r = notes("v0.2.0");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("### Added\n\n- a thing\n");
  });

  it("refuses a missing, undated or malformed version, naming the fix", () => {
    expect(notes("0.3.0").stderr).toBe(
      'release-notes: no "## [0.3.0] - YYYY-MM-DD" section: move the [Unreleased] entries under it\n',
    );
    expect(notes("0.1.0").stderr).toBe(
      'release-notes: "## [0.1.0]" has no release date: write "## [0.1.0] - YYYY-MM-DD"\n',
    );
    const bad = notes("latest");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^release-notes: give one version/);
  });

  it("finds CHANGELOG.md's section of VERSION, or entries under [Unreleased]", () => {
    const text = read("CHANGELOG.md");
    const version = read("VERSION").trim();
    if (text.includes(`\n## [${version}]`)) {
      expect(node("release-notes.mjs", version).status).toBe(0);
    } else {
      expect(text).toMatch(/\n## \[Unreleased\]\n\n\S/);
    }
  });
});

describe("the annotation protos' contract (scripts/proto-contract.mjs)", () => {
  const annotations = read("proto/ai/tools/v1/annotations.proto");
  const companion = read(
    "generator/testdata/include/ai/context/v1/rpc_tool.proto",
  );

  /** A module holding annotations.proto with one edit. */
  function editedModule(from: string, to: string): string {
    expect(annotations).toContain(from);
    const dir = temp();
    mkdirSync(join(dir, "ai/tools/v1"), { recursive: true });
    writeFileSync(
      join(dir, "ai/tools/v1/annotations.proto"),
      annotations.replace(from, to),
    );
    return dir;
  }

  it("holds for the repository's protos", () => {
    const r = node("proto-contract.mjs");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("--released: refuses a baseline other than the current protos", () => {
    // A baseline written from the current protos, as a release writes it
    // (the repository's may be older: an addition needs no new baseline).
    const baseline = join(temp(), "baseline.binpb");
    const write = ["--write-baseline", "--baseline", baseline];
    expect(node("proto-contract.mjs", ...write).status).toBe(0);
    const released = ["--released", "--baseline", baseline];
    expect(node("proto-contract.mjs", ...released).status).toBe(0);
    const dir = editedModule(
      "bool auto_execute = 4;",
      "bool auto_execute = 4;\n  bool dry_run = 8;",
    );
    expect(
      node("proto-contract.mjs", "--proto", dir, "--baseline", baseline).status,
    ).toBe(0);
    const r = node("proto-contract.mjs", "--proto", dir, ...released);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `proto-contract: ${baseline} is not the released protos: run node scripts/proto-contract.mjs --write-baseline, commit, and tag that commit\n`,
    );
  });

  it("refuses a breaking change against the baseline", () => {
    const dir = editedModule("bool strict = 3;", "string strict = 3;");
    const r = node("proto-contract.mjs", "--proto", dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "the annotation protos break the last release's",
    );
    expect(r.stderr).toContain('changed type from "bool" to "string"');
  });

  it("names a missing baseline and an option without its value", () => {
    const missing = join(temp(), "none.binpb");
    const r = node("proto-contract.mjs", "--baseline", missing);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `proto-contract: ${missing}: no such file; it is the last release's annotations, written at a release by node scripts/proto-contract.mjs --write-baseline --baseline ${missing}\n`,
    );
    const bare = node("proto-contract.mjs", "--proto");
    expect(bare.status).toBe(1);
    expect(bare.stderr).toBe(
      'proto-contract: missing value for "--proto": give it a path (--proto <path>)\n',
    );
  });

  it("refuses a changed extension number, which buf breaking lets pass", () => {
    const dir = editedModule("tool_field = 52105;", "tool_field = 52106;");
    const r = node("proto-contract.mjs", "--proto", dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'extension "ai.tools.v1.tool_field" is .google.protobuf.FieldOptions 52106, released as .google.protobuf.FieldOptions 52105: restore 52105',
    );
  });

  it("refuses a ToolDefinition field at a number the companion's message uses", () => {
    const dir = editedModule(
      "bool auto_execute = 4;",
      "bool auto_execute = 4;\n  bool dry_run = 8;",
    );
    // Without the companion using 8, the addition is fine.
    expect(node("proto-contract.mjs", "--proto", dir).status).toBe(0);
    const include = temp();
    mkdirSync(join(include, "ai/context/v1"), { recursive: true });
    writeFileSync(
      join(include, "ai/context/v1/rpc_tool.proto"),
      companion.replace(
        "bool strict = 3;",
        "bool strict = 3;\n  string audience = 8;",
      ),
    );
    const r = node("proto-contract.mjs", "--proto", dir, "--include", include);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'ToolDefinition field 8 is "dry_run" (TYPE_BOOL), the companion\'s is "audience" (TYPE_STRING)',
    );
    expect(r.stderr).toContain("(it uses 1, 2, 3, 8)");
  });
});

describe("the release workflow (.github/workflows/release.yml)", () => {
  const workflow = read(".github/workflows/release.yml");

  /** The text of one job, up to the next job. */
  function job(name: string): string {
    const match = new RegExp(
      `\\n {2}${name}:\\n([\\s\\S]*?)(?=\\n {2}[a-z-]+:\\n|$)`,
    ).exec(workflow);
    expect(match, name).not.toBeNull();
    return match![1]!;
  }

  it("runs on a version tag only, read-only unless a job says otherwise", () => {
    expect(workflow).toMatch(/^on:\n {2}push:\n {4}tags: \["v\*"\]\n\n/m);
    expect(workflow).toMatch(/^permissions:\n {2}contents: read\n/m);
  });

  it("tests with .ci/run and packs with the dry run's script", () => {
    const build = job("build");
    expect(build).toContain('if [ "$GITHUB_REF_NAME" != "v$version" ]');
    expect(build).toContain("run: bash .ci/run");
    expect(build).toContain("run: bash scripts/release-check.sh --out release");
    expect(build).toContain("run: node scripts/proto-contract.mjs --released");
    expect(build.indexOf(".ci/run")).toBeLessThan(
      build.indexOf("release-check.sh"),
    );
  });

  it("publishes npm with provenance and PyPI by trusted publishing", () => {
    const npm = job("npm");
    expect(npm).toContain("id-token: write");
    expect(npm).toContain(
      'npm publish --provenance --access public --tag "$tag" "$tarball"',
    );
    const pypi = job("pypi");
    expect(pypi).toContain("id-token: write");
    expect(pypi).toMatch(/environment:\n {6}name: pypi\n/);
    expect(pypi).toContain("uses: pypa/gh-action-pypi-publish@release/v1");
    expect(pypi).not.toContain("password");
  });

  it("tags the Go modules, then makes the GitHub release with the CHANGELOG.md notes", () => {
    const go = job("go");
    expect(go).toContain("contents: write");
    expect(go).toContain("node scripts/version.mjs go-tags");
    const release = job("github-release");
    expect(release).toMatch(/needs: \[npm, pypi, buf, go\]/);
    expect(release).toContain("--notes-file release/release-notes.md");
    // release-check.sh writes the notes the release job publishes.
    expect(read("scripts/release-check.sh")).toContain(
      'node scripts/release-notes.mjs "$version" >"$out/release-notes.md"',
    );
  });
});
