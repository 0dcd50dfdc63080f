#!/usr/bin/env node
// The consumer test: a new user's path, taken from README.md itself.
//
//   node e2e/consumer/run.mjs [--lang go|ts|py]... [--lowest] [--readme FILE] [--keep]
//
// 1. Packs every package from the workspace's build: `pnpm pack` of the
//    plugin (generator/) and the TypeScript runtime (`workspace:` ranges
//    rewritten as a publish would), a wheel of the Python runtime, and the
//    Go modules a user's build needs (see goModules: not published yet).
// 2. For each language, in an empty directory outside the workspace, runs
//    the README's blocks marked for it (readme-blocks.mjs) in order: files
//    written, `sh` blocks run by bash. Installs reach only those artifacts
//    and the public registries: the README's package names are swapped for
//    the artifacts' paths (packageSwaps), and `127.0.0.1:8080` for the test
//    server's address (e2e/server, started here on a free port).
// 3. Checks the executor call's output (a `link-1` alias) and makes one MCP
//    `tools/call` with the official TypeScript client through the server
//    command of the README's client configuration (stdio).
// 4. Prints, per language, the time from the empty directory to the first
//    executor call and to the first MCP call (installs included).
// 5. Beyond the README, in each language's project: generates again with
//    tool_search=true and ranks with RankTools / rankTools / rank_tools
//    (docs/tool-search.md); TypeScript also makes deferred tools and a
//    search-first MCP server and searches through the plugin's gateway
//    (mcp --search-first), Python checks the wheel's Redis scripts
//    (goToolSearch, tsToolSearch, gatewaySearchFirst, pythonToolSearch).
//
// --lowest: after the README's installs, every dependency range our packages
// declare is pinned to its lowest version (npm: the runtime's and plugin's
// ranges, installed exactly; pip: a constraints file of each range's
// minimum; Go: the annotations module's requirements), as the nightly
// workflow runs it.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { blockName, readmeBlocks, targets } from "./readme-blocks.mjs";
import { createSuiteRunner } from "../../scripts/lib/suite-runner.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const pnpm = ["npx", "-y", "pnpm@12.4.2"];
// Commands and step headings as the e2e suites' runners print them; this
// test's failures throw instead, so that the server is stopped.
const { run, step } = createSuiteRunner({ label: "consumer", cwd: root });
/** The address the README's code uses; the test server's replaces it. */
const readmeAddress = "127.0.0.1:8080";
/** The arguments of the MCP call: a new link, as the README's call makes. */
const callArguments = `{"workspace_id":"ws-1","target_url":"https://example.com"}`;
/** The query both tool-search checks rank: links_create must come first. */
const searchQuery = "shorten a URL into a new link";

const usage =
  "usage: node e2e/consumer/run.mjs [--lang go|ts|py]... [--lowest] [--readme FILE] [--keep]";
const opts = options(process.argv.slice(2));
if (opts.help) {
  console.log(usage);
  process.exit(0);
}
const langs = opts.lang?.flatMap((l) => l.split(",")) ?? targets;
for (const l of langs)
  if (!targets.includes(l))
    die(`unknown --lang ${JSON.stringify(l)}: use ${targets.join(", ")}`);

const started = Date.now();
const blocks = load(opts.readme);
const work = mkdtempSync(path.join(os.tmpdir(), "ai-tools-consumer-"));
const art = path.join(work, "artifacts");
mkdirSync(art);
let server;
try {
  step(`packing into ${art}`);
  const packed = await pack();
  const { startServer } = await import(
    pathToFileURL(path.join(root, "e2e", "server", "dist", "index.js")).href
  );
  server = await startServer();
  console.log(`test server on ${server.address}`);
  const results = [];
  for (const lang of langs)
    results.push(await userPath(lang, packed, server.address));
  step("summary (from an empty directory, installs included)");
  for (const r of results)
    console.log(
      `  ${r.lang}: first executor call ${secs(r.exec)}, first MCP call ${secs(r.mcp)}`,
    );
  console.log(
    `\nconsumer: ok (${langs.join(", ")}${opts.lowest ? ", lowest versions" : ""}; ${secs(Date.now() - started)})`,
  );
} catch (err) {
  console.error(`\nconsumer: FAILED: ${err.message}`);
  process.exitCode = 1;
} finally {
  await server?.close();
  if (opts.keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------

/** The README's test blocks, checked: each language has a path. */
function load(readme) {
  if (!existsSync(readme))
    die(`no such file ${JSON.stringify(readme)} (--readme)`);
  const all = readmeBlocks(readFileSync(readme, "utf8"));
  for (const lang of langs) {
    const mine = all.filter((b) => b.targets.includes(lang));
    if (!mine.some((b) => b.lang === "sh"))
      die(`${readme} marks no sh block test=${lang}`);
    if (!mine.some((b) => b.mcp))
      die(
        `${readme} marks no MCP client configuration (json test=${lang} mcp)`,
      );
  }
  return all;
}

/** Pack every package; resolves to the artifacts' paths. */
async function pack() {
  for (const dir of ["generator", "runtimes/ts"])
    await must(pnpm[0], [...pnpm.slice(1), "pack", "--pack-destination", art], {
      cwd: path.join(root, dir),
      quiet: true,
    });
  const tgz = (prefix) => {
    const f = readdirSync(art).find(
      (n) => n.startsWith(prefix) && /^\d/.test(n.slice(prefix.length)),
    );
    if (f === undefined) throw new Error(`no ${prefix}*.tgz after pnpm pack`);
    return path.join(art, f);
  };
  const packed = {
    plugin: tgz("protoc-gen-ai-tools-"),
    runtime: tgz("protoc-gen-ai-tools-runtime-"),
    wheel: await buildWheel(),
    go: goModules(),
  };
  for (const [k, v] of Object.entries(packed))
    console.log(
      `  ${k}: ${typeof v === "string" ? path.basename(v) : Object.keys(v).join(", ")}`,
    );
  return packed;
}

/**
 * A wheel of runtimes/python, built from a copy of its sources (a build in
 * place would leave build/ behind, whose stale files a later wheel takes)
 * with runtimes/go/redisstore/*.lua beside it, as scripts/release-check.sh
 * builds it: setup.py copies those scripts into the package, not the work
 * tree's copies, which may be stale.
 * `python -m build` where the workspace's .venv has it, else `pip wheel`.
 */
async function buildWheel() {
  const copy = path.join(work, "python-src");
  const src = path.join(copy, "runtimes", "python");
  cpSync(path.join(root, "runtimes", "python"), src, {
    recursive: true,
    filter: (p) => !/(^|\/)(build|dist|tests|[^/]*\.egg-info)$/.test(p),
  });
  const scripts = path.join("runtimes", "go", "redisstore");
  mkdirSync(path.join(copy, scripts), { recursive: true });
  for (const f of readdirSync(path.join(root, scripts)))
    if (f.endsWith(".lua"))
      cpSync(path.join(root, scripts, f), path.join(copy, scripts, f));
  const python = path.join(root, ".venv", "bin", "python");
  const hasBuild =
    (await run(python, ["-c", "import build"], { quiet: true })).code === 0;
  await must(
    python,
    hasBuild
      ? ["-m", "build", "--wheel", "--outdir", art, src]
      : ["-m", "pip", "wheel", "--no-deps", "-q", "-w", art, src],
    { quiet: true },
  );
  const whl = readdirSync(art).find((n) => n.endsWith(".whl"));
  if (whl === undefined) throw new Error("no wheel built");
  return path.join(art, whl);
}

/**
 * The Go modules a user's build needs that are not published yet: the
 * annotations' generated Go code (proto/go.mod: a user's *.pb.go imports
 * it) and the Redis store. Copied as a module proxy would unpack them, and
 * reached through `replace` directives: until their tags are pushed, no
 * proxy has them. The README's Go path builds the annotations module; no
 * README block imports the Redis store, so its replace is there for a user
 * who adds it and is not compiled by this test.
 */
function goModules() {
  const mods = {};
  for (const dir of ["proto", "runtimes/go/redisstore"]) {
    const gomod = path.join(root, dir, "go.mod");
    if (!existsSync(gomod)) {
      console.log(`  (no ${dir}/go.mod: that Go module is not made yet)`);
      continue;
    }
    const module = /^module (\S+)$/m.exec(readFileSync(gomod, "utf8"))[1];
    const dest = path.join(art, "go", dir);
    cpSync(path.join(root, dir), dest, {
      recursive: true,
      filter: (p) => !/(^|\/)(examples|node_modules|.*_test\.go)$/.test(p),
    });
    mods[module] = dest;
  }
  return mods;
}

/** One language's path, from an empty directory to an MCP call. */
async function userPath(lang, packed, address) {
  step(`${lang}: the README's path`);
  const dir = mkdtempSync(path.join(work, `${lang}-`));
  const t0 = Date.now();
  const env = userEnv(lang, dir, packed);
  let exec;
  let mcp;
  for (const b of blocks.filter((x) => x.targets.includes(lang))) {
    const body = b.body.replaceAll(readmeAddress, address);
    if (b.mcp) {
      await mcpCall(b, body, lang, dir, env);
      mcp ??= Date.now() - t0;
      continue;
    }
    if (b.file !== undefined) {
      const dest = path.join(dir, b.file);
      mkdirSync(path.dirname(dest), { recursive: true });
      writeFileSync(
        dest,
        b.wrap
          ? wrapped(b, lang, body).replaceAll(readmeAddress, address)
          : body,
      );
      console.log(`  wrote ${b.file} (${blockName(b)})`);
      continue;
    }
    if (b.lang !== "sh")
      throw new Error(`${blockName(b)}: a test block needs file=, mcp or sh`);
    if (lang === "go") addGoReplaces(dir, packed.go);
    const script = swapPackages(body, packed);
    console.log(`  $ ${script.trim().split("\n").join("\n    ")}`);
    const r = await run("bash", ["-euo", "pipefail", "-c", script], {
      cwd: dir,
      env,
      quiet: true,
    });
    if (r.code !== 0)
      throw new Error(
        `${blockName(b)} exited ${r.code} (${lang}):\n${r.stdout}${r.stderr}`,
      );
    if (opts.lowest) await pinLowest(lang, dir, env, script);
    if (/"id":\s*"link-1"/.test(r.stdout)) {
      exec ??= Date.now() - t0;
      console.log(`    ${r.stdout.trim().split("\n").join("\n    ")}`);
    }
  }
  if (exec === undefined)
    throw new Error(
      `no sh block test=${lang} printed the executor's result with "id":"link-1"`,
    );
  if (lang === "go") await goToolSearch(dir, env);
  if (lang === "ts") await tsToolSearch(dir, env);
  if (lang === "ts") await gatewaySearchFirst(dir, env, address);
  if (lang === "py") await pythonToolSearch(dir, env);
  return { lang, exec, mcp };
}

/**
 * Tool search (issue 36) through the packed plugin, in the README's Go
 * project: the protos generated again with tool_search=true into
 * gen/searchtools (the plugin's inlined Go runtime with its toolsearch
 * part), vetted and run by a program that ranks ToolSearchData with
 * RankTools.
 */
async function goToolSearch(dir, env) {
  step("go: tool search with the packed plugin (beyond the README)");
  const template = {
    version: "v2",
    inputs: [{ directory: "proto" }],
    plugins: [
      {
        local: "protoc-gen-ai-tools",
        out: "gen/searchtools",
        opt: ["target=go", "tool_search=true"],
        strategy: "all",
      },
    ],
  };
  await must(
    "npx",
    ["buf", "generate", "--template", JSON.stringify(template)],
    { cwd: dir, env, quiet: true },
  );
  mkdirSync(path.join(dir, "searchcheck"));
  writeFileSync(
    path.join(dir, "searchcheck", "main.go"),
    [
      "package main",
      "",
      "import (",
      '\t"fmt"',
      '\t"log"',
      "",
      '\tsearchtools "example.com/app/gen/searchtools"',
      ")",
      "",
      "func main() {",
      `\thits, err := searchtools.RankTools(searchtools.ToolSearchData, ${JSON.stringify(searchQuery)}, 5)`,
      "\tif err != nil {",
      "\t\tlog.Fatal(err)",
      "\t}",
      '\tif len(hits) == 0 || hits[0].Name != "links_create" {',
      '\t\tlog.Fatalf("RankTools found %v", hits)',
      "\t}",
      '\tfmt.Printf("RankTools: %s %.3f\\n", hits[0].Name, hits[0].Score)',
      "}",
      "",
    ].join("\n"),
  );
  await must("go", ["vet", "./gen/searchtools", "./searchcheck"], {
    cwd: dir,
    env,
    quiet: true,
  });
  const { stdout } = await must("go", ["run", "./searchcheck"], {
    cwd: dir,
    env,
    quiet: true,
  });
  console.log(`    ${stdout.trim()}`);
}

/**
 * Tool search (issue 36) through the packed plugin and runtime, in the
 * README's TypeScript project: the protos generated again with
 * tool_search=true into src/search/, a program compiled strictly against
 * the packed runtime's types ranks its toolSearch with rankTools, makes
 * deferred tools and registers the tools on a search-first MCP server.
 */
async function tsToolSearch(dir, env) {
  step("ts: tool search with the packed packages (beyond the README)");
  const template = {
    version: "v2",
    plugins: [
      {
        local: "protoc-gen-es",
        out: "src/search",
        opt: ["target=ts", "import_extension=js"],
      },
      {
        local: "protoc-gen-ai-tools",
        out: "src/search",
        opt: ["target=ts", "mcp=true", "tool_search=true"],
        strategy: "all",
      },
    ],
  };
  await must(
    "npx",
    ["buf", "generate", "--template", JSON.stringify(template)],
    { cwd: dir, env, quiet: true },
  );
  writeFileSync(
    path.join(dir, "src", "search", "check.ts"),
    [
      'import { createGrpcTransport } from "@connectrpc/connect-node";',
      "import {",
      "  createDeferredTools,",
      "  createMemoryConversationStore,",
      "  rankTools,",
      '} from "@protoc-gen-ai-tools/runtime";',
      'import { createMcpToolServer } from "@protoc-gen-ai-tools/runtime/mcp";',
      'import { allTools, toolSearch } from "./ai_tools.gen.js";',
      'import { forwardToLinkServiceClient } from "./ai_tools_mcp.gen.js";',
      "",
      `const hits = rankTools(toolSearch, ${JSON.stringify(searchQuery)});`,
      'if (hits[0]?.name !== "links_create")',
      "  throw new Error(`rankTools found ${JSON.stringify(hits)}`);",
      "createDeferredTools({",
      "  tools: allTools(),",
      "  search: toolSearch,",
      "  store: createMemoryConversationStore(),",
      "});",
      "const server = createMcpToolServer({",
      '  name: "links",',
      '  version: "1.0.0",',
      "  searchFirst: { search: toolSearch },",
      "});",
      "forwardToLinkServiceClient(",
      "  server,",
      '  createGrpcTransport({ baseUrl: "http://127.0.0.1:8080" }),',
      ");",
      "console.log(`rankTools: ${hits[0].name} ${hits[0].score.toFixed(3)}`);",
      "",
    ].join("\n"),
  );
  await must(
    "npx",
    [
      "tsc",
      "--strict",
      ...["--module", "nodenext", "--target", "es2022", "--types", "node"],
      ...["--outDir", "dist-search", "src/search/check.ts"],
    ],
    { cwd: dir, env, quiet: true },
  );
  const { stdout } = await must("node", ["dist-search/check.js"], {
    cwd: dir,
    env,
    quiet: true,
  });
  console.log(`    ${stdout.trim()}`);
}

/**
 * The packed plugin's gateway with --search-first, from the TypeScript
 * project (which has the packed runtime), over the README's protos built by
 * buf (the test server serves no reflection): tools/list gives search_tools
 * and no more, and a search_tools call finds links_create, which then joins
 * the list.
 */
async function gatewaySearchFirst(dir, env, address) {
  step("ts: the gateway with --search-first (beyond the README)");
  await must("npx", ["buf", "build", "-o", "api.binpb"], {
    cwd: dir,
    env,
    quiet: true,
  });
  const req = createRequire(path.join(root, "e2e", "mcp", "package.json"));
  const { Client } = req("@modelcontextprotocol/client");
  const { StdioClientTransport } = req("@modelcontextprotocol/client/stdio");
  const client = new Client({ name: "consumer-test", version: "1.0.0" });
  let stderr = "";
  const transport = new StdioClientTransport({
    command: "npx",
    args: [
      ...["protoc-gen-ai-tools", "mcp", "--descriptor-set", "api.binpb"],
      ...["--target", address, "--search-first"],
    ],
    cwd: dir,
    env,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d) => (stderr += d));
  const names = async () =>
    (await client.listTools()).tools.map((t) => t.name).sort();
  try {
    await client.connect(transport);
    const before = await names();
    if (before.join() !== "search_tools")
      throw new Error(`tools/list gave ${before.join(", ")}`);
    const result = await client.callTool({
      name: "search_tools",
      arguments: { query: searchQuery },
    });
    const found = (result.structuredContent?.tools ?? []).map((t) => t.name);
    if (result.isError || !found.includes("links_create"))
      throw new Error(`search_tools answered ${JSON.stringify(result)}`);
    const after = await names();
    if (!after.includes("links_create"))
      throw new Error(`tools/list after the search gave ${after.join(", ")}`);
    console.log(
      `    tools/list: search_tools; search_tools found ${found.join(", ")}; then ${after.length} listed`,
    );
  } catch (err) {
    throw new Error(
      `npx protoc-gen-ai-tools mcp --search-first failed: ${err.message}\n${stderr}`,
      { cause: err },
    );
  } finally {
    await client.close();
  }
}

/**
 * Tool search (issue 36) through the packed plugin and wheel, in the README's
 * Python project: the proto generated again with tool_search=true into
 * search/, its TOOL_SEARCH ranked by the wheel's rank_tools (a links query
 * finds links_create first), and each runtimes/go/redisstore/*.lua in the
 * installed package unchanged (the loaded tools' scripts among them).
 */
async function pythonToolSearch(dir, env) {
  step("py: tool search with the packed packages (beyond the README)");
  mkdirSync(path.join(dir, "search"));
  await must(
    "python",
    [
      "-m",
      "grpc_tools.protoc",
      "-I",
      "proto",
      "-I",
      "node_modules/protoc-gen-ai-tools/proto",
      "--plugin=protoc-gen-ai-tools=node_modules/.bin/protoc-gen-ai-tools",
      "--ai-tools_out=search",
      "--ai-tools_opt=target=py,tool_search=true",
      "linkhub/v1/links.proto",
    ],
    { cwd: dir, env, quiet: true },
  );
  writeFileSync(
    path.join(dir, "search", "check.py"),
    [
      "import sys",
      "from importlib import resources",
      "from pathlib import Path",
      "",
      "from ai_tools_gen import TOOL_SEARCH",
      "from ai_tools_runtime import rank_tools",
      "",
      `hits = rank_tools(TOOL_SEARCH, ${JSON.stringify(searchQuery)})`,
      'assert hits and hits[0].name == "links_create", f"rank_tools found {hits}"',
      'scripts = resources.files("ai_tools_runtime").joinpath("redis")',
      'canonical = sorted(Path(sys.argv[1]).glob("*.lua"))',
      "for lua in canonical:",
      "    packed = scripts.joinpath(lua.name)",
      '    assert packed.is_file(), f"the wheel has no ai_tools_runtime/redis/{lua.name}"',
      '    assert packed.read_bytes() == lua.read_bytes(), f"the wheel\'s {lua.name} differs"',
      'print(f"rank_tools: {hits[0].name} {hits[0].score:.3f}; {len(canonical)} redis scripts")',
      "",
    ].join("\n"),
  );
  // The generated search/ first, the README's *_pb2 modules from the project.
  const { stdout } = await must(
    "python",
    ["search/check.py", path.join(root, "runtimes", "go", "redisstore")],
    {
      cwd: dir,
      env: { ...env, PYTHONPATH: `search${path.delimiter}.` },
      quiet: true,
    },
  );
  console.log(`    ${stdout.trim()}`);
}

/**
 * A block of a program's lines inside the program around it,
 * wrap/<lang>/<file>.tmpl: its line "README" replaced by the block's lines,
 * indented as that line is.
 */
function wrapped(b, lang, body) {
  const tmpl = path.join(here, "wrap", lang, `${b.file}.tmpl`);
  if (!existsSync(tmpl))
    throw new Error(
      `${blockName(b)}: wrap without ${path.relative(root, tmpl)}`,
    );
  const text = readFileSync(tmpl, "utf8");
  const at = /^([ \t]*)README$/m.exec(text);
  if (at === null) throw new Error(`${tmpl}: no line "README"`);
  const lines = body
    .trimEnd()
    .split("\n")
    .map((l) => at[1] + l);
  return (
    text.slice(0, at.index) +
    lines.join("\n") +
    text.slice(at.index + at[0].length)
  );
}

/**
 * The user's project and shell: nothing of the workspace on PATH, no npm
 * variables of the pnpm that may run this; Python's virtualenv active.
 */
function userEnv(lang, dir, packed) {
  const env = { ...process.env, npm_config_fund: "false" };
  env.npm_config_audit = "false";
  for (const k of Object.keys(env))
    if (k.startsWith("npm_") && !/^npm_config_(fund|audit)$/.test(k))
      delete env[k];
  delete env.PYTHONPATH;
  delete env.VIRTUAL_ENV;
  env.PATH = env.PATH.split(path.delimiter)
    .filter((p) => !p.startsWith(root))
    .join(path.delimiter);
  // The README's install blocks make the user's project (go mod init, npm
  // init, a virtualenv). A user's shell keeps the virtualenv the README
  // activates for the blocks after it; each block here is its own bash, so
  // the test keeps it the same way (what `activate` sets).
  if (lang === "py") {
    env.VIRTUAL_ENV = path.join(dir, ".venv");
    env.PATH = `${path.join(dir, ".venv", "bin")}${path.delimiter}${env.PATH}`;
    if (opts.lowest) {
      const file = path.join(dir, "lowest-constraints.txt");
      writeFileSync(file, pythonMinimums(packed.wheel).join("\n") + "\n");
      env.PIP_CONSTRAINT = file;
    }
  }
  return env;
}

/**
 * The README's install lines name the registries' packages; the test
 * installs the packed ones: `protoc-gen-ai-tools`,
 * `@protoc-gen-ai-tools/runtime` and `protoc-gen-ai-tools-runtime[extras]`
 * (as whole words) become the artifacts' paths.
 */
function swapPackages(script, packed) {
  return script
    .replace(
      /(^|\s)["']?protoc-gen-ai-tools-runtime(\[[a-z,]+\])?["']?(?=\s|$)/gm,
      (_, pre, extras = "") => `${pre}"${packed.wheel}${extras}"`,
    )
    .replace(
      /(^|\s)@protoc-gen-ai-tools\/runtime(?=\s|$)/gm,
      (_, pre) => `${pre}${packed.runtime}`,
    )
    .replace(
      /(^|\s)protoc-gen-ai-tools(?=\s|$)/gm,
      (_, pre) => `${pre}${packed.plugin}`,
    );
}

/** `replace` directives to the packed Go modules, once go.mod exists. */
function addGoReplaces(dir, mods) {
  const gomod = path.join(dir, "go.mod");
  if (!existsSync(gomod)) return;
  let text = readFileSync(gomod, "utf8");
  for (const [module, folder] of Object.entries(mods))
    if (!text.includes(`replace ${module} =>`))
      text += `\nreplace ${module} => ${folder}\n`;
  writeFileSync(gomod, text);
}

/** Run the README's MCP client configuration: one tools/call over stdio. */
async function mcpCall(b, body, lang, dir, env) {
  const req = createRequire(path.join(root, "e2e", "mcp", "package.json"));
  const { Client } = req("@modelcontextprotocol/client");
  const { StdioClientTransport } = req("@modelcontextprotocol/client/stdio");
  let servers;
  try {
    servers =
      b.lang === "sh"
        ? [{ command: "bash", args: ["-c", body.trim()] }]
        : Object.entries(JSON.parse(body).mcpServers)
            .filter(([name]) => name.endsWith(`-${lang}`))
            .map(([, server]) => server);
  } catch (err) {
    throw new Error(
      `${blockName(b)}: not an mcpServers JSON (${err.message})`,
      { cause: err },
    );
  }
  if (servers.length !== 1 || typeof servers[0]?.command !== "string")
    throw new Error(
      `${blockName(b)}: expected one server named "…-${lang}", with a command`,
    );
  const { command, args = [], env: serverEnv = {} } = servers[0];
  console.log(`  MCP client → ${[command, ...args].join(" ")}`);
  const client = new Client({ name: "consumer-test", version: "1.0.0" });
  let stderr = "";
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: dir,
    env: { ...env, ...serverEnv },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d) => (stderr += d));
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const result = await client.callTool({
      name: "links_create",
      arguments: JSON.parse(callArguments),
    });
    const text = result.content?.map((c) => c.text ?? "").join("") ?? "";
    if (result.isError || !/"id":\s*"link-1"/.test(text))
      throw new Error(`tools/call links_create answered ${text}`);
    console.log(`    ${tools.length} tools listed; tools/call: ${text}`);
  } catch (err) {
    throw new Error(
      `${blockName(b)}: the MCP server failed: ${err.message}\n${stderr}`,
      { cause: err },
    );
  } finally {
    await client.close();
  }
}

/**
 * --lowest: after a block that installed packages, pin what our packages
 * declare to each range's minimum (npm and Go; pip reads PIP_CONSTRAINT).
 */
async function pinLowest(lang, dir, env, script) {
  if (/\bnpm (install|i)\b/.test(script)) {
    const pins = npmMinimums(dir);
    if (pins.length > 0) {
      console.log(`    lowest: npm install --save-exact ${pins.join(" ")}`);
      await must("npm", ["install", "--save-exact", ...pins], {
        cwd: dir,
        env,
        quiet: true,
      });
    }
  }
  if (/\bpip install\b/.test(script)) {
    const names = pythonMinimums().map((p) => p.split("==")[0].toLowerCase());
    const { stdout } = await must("python", ["-m", "pip", "freeze"], {
      cwd: dir,
      env,
      quiet: true,
    });
    const got = stdout
      .split("\n")
      .filter((l) => names.includes(l.split("==")[0].toLowerCase()));
    console.log(`    lowest (PIP_CONSTRAINT): ${got.join(" ")}`);
  }
  if (lang === "go" && /\bgo mod tidy\b/.test(script)) {
    const pins = goMinimums();
    console.log(`    lowest: go get ${pins.join(" ")}`);
    await must("go", ["get", ...pins], { cwd: dir, env, quiet: true });
  }
}

/**
 * The lowest version of each npm range our two packages declare
 * (dependencies and peer dependencies) whose package the project has.
 */
function npmMinimums(dir) {
  const pins = new Map();
  for (const pkgDir of ["generator", "runtimes/ts"]) {
    const pkg = JSON.parse(
      readFileSync(path.join(root, pkgDir, "package.json"), "utf8"),
    );
    for (const [name, range] of Object.entries({
      ...pkg.dependencies,
      ...pkg.peerDependencies,
    })) {
      // An exact pin is the version installed already.
      if (/^\d/.test(range)) continue;
      if (!existsSync(path.join(dir, "node_modules", name, "package.json")))
        continue;
      pins.set(name, minVersion(range, `${pkgDir}/package.json ${name}`));
    }
  }
  return [...pins].map(([n, v]) => `${n}@${v}`);
}

/** The minimum of a range of the forms our packages use: x.y.z, ^, ~, >=. */
function minVersion(range, where) {
  const m = /^(?:\^|~|>=)?\s*(\d+\.\d+\.\d+)$/.exec(range.trim());
  if (m === null)
    throw new Error(
      `${where}: range ${JSON.stringify(range)} is not ^, ~, >= or exact`,
    );
  return m[1];
}

/** `name==min` for each requirement of the wheel's pyproject (extras too). */
function pythonMinimums() {
  const text = readFileSync(
    path.join(root, "runtimes", "python", "pyproject.toml"),
    "utf8",
  );
  const pins = [];
  for (const [, name, version] of text.matchAll(
    /"([A-Za-z0-9_.-]+)\s*(?:>=|==|~=)\s*([0-9][0-9.]*)/g,
  ))
    if (!["setuptools"].includes(name)) pins.push(`${name}==${version}`);
  return pins;
}

/** The annotations module's requirements at their versions. */
function goMinimums() {
  const text = readFileSync(path.join(root, "proto", "go.mod"), "utf8");
  return [
    ...text.matchAll(/^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]+\/\S+) (v\S+)$/gm),
  ].map(([, mod, v]) => `${mod}@${v}`);
}

/** Run a command that must succeed, else throw naming it. */
async function must(cmd, args, o) {
  const r = await run(cmd, args, o);
  if (r.code !== 0)
    throw new Error(
      `${[cmd, ...args].join(" ")} exited ${r.code}:\n${r.stdout}${r.stderr}`,
    );
  return r;
}

function secs(ms) {
  return ms === undefined ? "-" : `${(ms / 1000).toFixed(1)} s`;
}

/** The command line's options; a wrong one exits 2 with the usage line. */
function options(args) {
  try {
    return parseArgs({
      args,
      options: {
        lang: { type: "string", multiple: true },
        lowest: { type: "boolean", default: false },
        readme: { type: "string", default: path.join(root, "README.md") },
        keep: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (e) {
    console.error(`consumer: ${e.message.split("\n")[0]}\n${usage}`);
    process.exit(2);
  }
}

function die(msg) {
  console.error(`consumer: ${msg}`);
  process.exit(2);
}
