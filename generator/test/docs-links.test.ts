import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  anchorsOf,
  badOptions,
  brokenLinks,
  findFiles,
  installs,
  knownPackages,
  missingScripts,
  pluginParameters,
  relativeLinks,
  scriptsRun,
  unknownPackages,
  type Page,
} from "./support/docs-check.js";

// README.md and docs/*.md (the README's "Documentation"): every relative
// link leads to a file that exists and, for a page, to one of its headings;
// every package an install command names is ours or a dependency the
// repository declares; every script a command runs exists; every plugin
// parameter shown is one the plugin accepts (parseOptions, what the plugin
// runs); docs/index.md lists every page; the README stays a first screen of
// at most 200 lines. Each check also runs on a broken page, to show it fails.

const root = resolve(import.meta.dirname, "..", "..");
const maxReadmeLines = 200;

function page(path: string): Page {
  return { path, text: readFileSync(join(root, path), "utf8") };
}

const docs = readdirSync(join(root, "docs"))
  .filter((f) => f.endsWith(".md"))
  .sort();
const pages = [page("README.md"), ...docs.map((f) => page(`docs/${f}`))];
const known = knownPackages(root);
const packageDirs = findFiles(root, "package.json").map((f) => dirname(f));

describe("README.md and docs/*.md", () => {
  it("link only to files and headings that exist", () => {
    expect(pages.flatMap((p) => relativeLinks(p)).length).toBeGreaterThan(50);
    expect(pages.flatMap((p) => brokenLinks(p, root))).toEqual([]);
  });

  it("install only our packages and declared dependencies", () => {
    const readme = installs(pages[0]!).map((i) => i.spec.replace(/\[.*/, ""));
    for (const ours of [
      "protoc-gen-ai-tools",
      "@protoc-gen-ai-tools/runtime",
      "protoc-gen-ai-tools-runtime",
    ])
      expect(readme, "the README installs each runtime").toContain(ours);
    expect(pages.flatMap((p) => unknownPackages(p, known))).toEqual([]);
  });

  it("run only scripts that exist", () => {
    const readme = scriptsRun(pages[0]!).map((s) => s.script);
    expect(readme).toContain("scripts/setup.sh");
    expect(readme).toContain("scripts/test.sh");
    expect(pages.flatMap((p) => missingScripts(p, root, packageDirs))).toEqual(
      [],
    );
  });

  it("show only plugin options the plugin accepts", () => {
    expect(pages.flatMap((p) => pluginParameters(p)).length).toBeGreaterThan(5);
    expect(pages.flatMap((p) => badOptions(p))).toEqual([]);
  });

  it("are all listed in docs/index.md", () => {
    const index = page("docs/index.md").text;
    const unlisted = docs.filter(
      (f) => f !== "index.md" && !index.includes(`](${f})`),
    );
    expect(unlisted, "add a line for each to docs/index.md").toEqual([]);
  });

  it(`keep README.md a user's path of at most ${maxReadmeLines} lines`, () => {
    const lines = page("README.md").text.replace(/\n$/, "").split("\n");
    expect(lines.length).toBeLessThanOrEqual(maxReadmeLines);
    const sections = lines.filter((l) => l.startsWith("## "));
    expect(sections.filter((s) => s !== "## Develop")).toEqual([
      "## Install",
      "## Annotate",
      "## Generate",
      "## Call",
      "## MCP",
      "## Documentation",
    ]);
    expect(sections).toContain("## Develop");
    // The repository's two commands near the top, before the user's path.
    const top = lines.slice(0, lines.indexOf("## Install")).join("\n");
    expect(top).toContain("bash scripts/setup.sh");
    expect(top).toContain("bash scripts/test.sh");
  });
});

describe("the checks", () => {
  const broken: Page = {
    path: "docs/broken.md",
    text: [
      "# Broken",
      "",
      "See [the options](options.md), [a page](no-such-page.md),",
      "[a heading](options.md#no-such-heading), [here](#broken) and",
      "[nowhere](#nowhere); [a site](https://example.com) is not checked.",
      "",
      "```sh",
      "npm install --save-dev protoc-gen-ai-tools no-such-npm-package@1.0.0",
      "pip install 'protoc-gen-ai-tools-runtime[mcp,nope]' grpcio-tools",
      "go get github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore example.com/nope",
      "bash scripts/test.sh && bash scripts/no-such-script.sh",
      "protoc --ai-tools_opt=target=go,mcp=maybe x.proto",
      "```",
      "",
      "```yaml",
      "plugins:",
      "  - local: protoc-gen-go",
      "    opt: paths=source_relative",
      "  - local: protoc-gen-ai-tools",
      "    opt: [target=ts, ts_import_path=./gen, colour=blue]",
      "  - local: [npx, protoc-gen-ai-tools]",
      "    opt:",
      "      &ours [",
      "        target=py,",
      "        ts_import_path=./gen,",
      "      ]",
      "```",
      "",
      "[not a link](no-such-file.md) in `code`: `[x](nowhere.md)`.",
    ].join("\n"),
  };

  it("find a broken link and a missing heading, not the good ones", () => {
    expect(brokenLinks(broken, root)).toEqual([
      'docs/broken.md:3: link "no-such-page.md": no such file no-such-page.md',
      'docs/broken.md:4: link "options.md#no-such-heading": docs/options.md has no heading #no-such-heading',
      'docs/broken.md:5: link "#nowhere": docs/broken.md has no heading #nowhere',
      'docs/broken.md:29: link "no-such-file.md": no such file no-such-file.md',
    ]);
  });

  it("find packages that are not ours or declared, and unknown extras", () => {
    expect(unknownPackages(broken, known)).toEqual([
      'docs/broken.md:8: npm package "no-such-npm-package" is neither ours nor a declared dependency',
      'docs/broken.md:9: PyPI package "protoc-gen-ai-tools-runtime" has no extra "nope"; it has mcp, redis, otel, validate, openai, anthropic, google-genai',
      'docs/broken.md:10: go module "example.com/nope" is neither ours nor required by a go.mod here',
    ]);
  });

  it("find a missing script", () => {
    expect(missingScripts(broken, root, packageDirs)).toEqual([
      "docs/broken.md:11: script scripts/no-such-script.sh does not exist",
    ]);
  });

  it("find options the plugin refuses, in commands and in our buf entries only", () => {
    const problems = badOptions(broken);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^docs\/broken.md:12: "target=go,mcp=maybe": invalid value "maybe" for option "mcp"/,
    );
    expect(problems[1]).toMatch(
      /^docs\/broken.md:20: "target=ts,ts_import_path=.\/gen,colour=blue": unknown option "colour"/,
    );
    expect(problems[2]).toMatch(
      /^docs\/broken.md:22: "target=py,ts_import_path=.\/gen": option "ts_import_path" applies to target=ts, not target=py/,
    );
  });

  it("slug headings as GitHub does", () => {
    const anchors = anchorsOf(
      "# MCP (`@protoc-gen-ai-tools/runtime/mcp`, `ai_tools_mcp.gen.ts`)\n## buf.validate\n## Go\n## Go\n```\n# not a heading\n```\n",
    );
    expect([...anchors]).toEqual([
      "mcp-protoc-gen-ai-toolsruntimemcp-ai_tools_mcpgents",
      "bufvalidate",
      "go",
      "go-1",
    ]);
  });
});
