import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The e2e matrix workflow a public repository runs (.github/workflows/e2e.yml,
// docs/testing.md, "The e2e matrix"): actionlint finds nothing in it, and each leg
// calls scripts/e2e.sh, the per-target form of what .ci/run runs.

const root = resolve(import.meta.dirname, "..", "..");
const workflowsDir = join(root, ".github", "workflows");
const actionlint = join(root, ".tools", "bin", "actionlint");
const workflow = readFileSync(join(workflowsDir, "e2e.yml"), "utf8");
const nightly = readFileSync(join(workflowsDir, "nightly.yml"), "utf8");

/** The values of a flow list under `matrix:` (`target: [go, ts, py]`). */
function matrixList(key: string, text = workflow): string[] {
  const line = new RegExp(`^ {8}${key}: \\[(.*)\\]$`, "m").exec(text);
  if (line === null) {
    throw new Error(`workflow: no matrix list ${JSON.stringify(key)}`);
  }
  return line[1]!.split(",").map((v) => v.trim().replace(/^"|"$/g, ""));
}

describe(".github/workflows", () => {
  it("pass actionlint", () => {
    expect(
      existsSync(actionlint),
      `${actionlint} is missing: run bash scripts/install.sh`,
    ).toBe(true);
    const files = readdirSync(workflowsDir).filter((f) => /\.ya?ml$/.test(f));
    expect(files).toContain("e2e.yml");
    expect(files).toContain("nightly.yml");
    // The release (its jobs: release.test.ts).
    expect(files).toContain("release.yml");
    const r = spawnSync(
      actionlint,
      ["-no-color", ...files.map((f) => join(".github", "workflows", f))],
      { cwd: root, encoding: "utf8" },
    );
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("refuse what actionlint refuses (the check is live)", () => {
    const r = spawnSync(actionlint, ["-no-color", "-"], {
      cwd: root,
      encoding: "utf8",
      input: workflow.replace(
        "runs-on: ubuntu-24.04",
        "runs-on: ubuntu-24.04\n    needs: [nowhere]",
      ),
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("nowhere");
  });
});

describe("the e2e matrix", () => {
  it("runs each target on the README's Go and Python versions, and Node 20 and 22", () => {
    expect(matrixList("target")).toEqual(["go", "ts", "py"]);
    expect(matrixList("node")).toEqual(["20", "22"]);
    expect(matrixList("go")).toEqual(["1.26"]);
    expect(matrixList("python")).toEqual(["3.11"]);
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme).toContain("Node 20, Go 1.26, Python 3.11");
    // The legs this repository's own machine has not run are said so.
    const testing = readFileSync(join(root, "docs", "testing.md"), "utf8");
    expect(testing).toMatch(/Node 22 legs[^.]*not been run/);
  });

  it("calls scripts/e2e.sh with the leg's target", () => {
    expect(workflow).toContain("run: bash scripts/e2e.sh ${{ matrix.target }}");
    const script = readFileSync(join(root, "scripts", "e2e.sh"), "utf8");
    expect(script).toContain("bash scripts/install.sh");
    for (const target of matrixList("target")) {
      for (const dir of [`e2e/${target}`, `examples/${target}`]) {
        const pkg = JSON.parse(
          readFileSync(join(root, dir, "package.json"), "utf8"),
        ) as { name: string; scripts: Record<string, string> };
        expect(pkg.scripts["e2e"], dir).toBeDefined();
        expect(pkg.name).toBe(
          dir.startsWith("e2e/")
            ? `@protoc-gen-ai-tools/e2e-${target}`
            : `@protoc-gen-ai-tools/example-${target}`,
        );
      }
    }
    expect(script).toContain('--filter="@protoc-gen-ai-tools/e2e-${target}"');
    expect(script).toContain(
      '--filter="@protoc-gen-ai-tools/example-${target}"',
    );
  });

  it("scripts/e2e.sh refuses an unknown target before installing anything", () => {
    for (const args of [[], ["java"], ["go", "ts"]]) {
      const r = spawnSync("bash", [join(root, "scripts", "e2e.sh"), ...args], {
        encoding: "utf8",
      });
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^e2e: .*go.*ts.*py/);
    }
  });
});

describe("the nightly workflow", () => {
  it("runs on a schedule and by hand, never on a push", () => {
    expect(nightly).toMatch(/^on:\n {2}schedule:\n {4}- cron: "[^"]+"\n/m);
    expect(nightly).toContain("\n  workflow_dispatch:\n");
    expect(nightly).not.toMatch(/^ {2}(push|pull_request):/m);
  });

  it("runs each suite with scripts/nightly.sh, which knows every suite", () => {
    const suites = matrixList("suite", nightly);
    expect(suites.length).toBeGreaterThan(0);
    expect(nightly).toContain(
      "run: bash scripts/nightly.sh ${{ matrix.suite }}",
    );
    const script = readFileSync(join(root, "scripts", "nightly.sh"), "utf8");
    expect(script).toContain("bash scripts/install.sh");
    for (const suite of suites) {
      expect(script, suite).toMatch(new RegExp(`^ {2}${suite}\\)$`, "m"));
    }
  });

  it("scripts/nightly.sh refuses an unknown suite before installing anything", () => {
    for (const args of [[], ["nope"], ["fuzz", "load"]]) {
      const r = spawnSync(
        "bash",
        [join(root, "scripts", "nightly.sh"), ...args],
        { encoding: "utf8" },
      );
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^nightly: /);
    }
  });
});

describe("the consumer workflow", () => {
  const consumer = readFileSync(join(workflowsDir, "consumer.yml"), "utf8");

  it("runs e2e/consumer/run.mjs on Node 20, 22 and 24, and nightly at the lowest versions", () => {
    expect(matrixList("node", consumer)).toEqual(["20", "22", "24"]);
    expect(consumer).toContain("run: node e2e/consumer/run.mjs\n");
    expect(nightly).toContain("run: node e2e/consumer/run.mjs --lowest\n");
    const script = readFileSync(join(root, "scripts", "test.sh"), "utf8");
    expect(script).toMatch(/^node e2e\/consumer\/run\.mjs$/m);
  });

  it("takes its blocks from README.md, each language with a path and an MCP call", async () => {
    const { readmeBlocks } = (await import(
      join(root, "e2e", "consumer", "readme-blocks.mjs")
    )) as {
      readmeBlocks: (md: string) => { targets: string[]; mcp: boolean }[];
    };
    const blocks = readmeBlocks(readFileSync(join(root, "README.md"), "utf8"));
    for (const lang of ["go", "ts", "py"]) {
      const mine = blocks.filter((b) => b.targets.includes(lang));
      expect(mine.length, lang).toBeGreaterThan(2);
      expect(mine.filter((b) => b.mcp).length, lang).toBe(1);
    }
  });
});
