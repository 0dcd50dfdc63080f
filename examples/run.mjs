#!/usr/bin/env node
// One example of examples/<lang> from nothing to a verdict, as CI runs it
// (each example's `e2e` script):
//
//   1. the snippets of README.md and docs/*.md marked
//      `<!-- example: examples/<lang>/… -->`
//      appear, line by line and in order, in the files they name;
//   2. bash generate.sh: plain protoc (grpcio-tools for Python) over the test
//      API, e2e/proto/linkhub, with the target's own code generators and ours;
//   3. the checks a user's build would run: gofmt and go vet; tsc --strict;
//      ruff and mypy --strict;
//   4. the example against the test server (e2e/server, started in this
//      process on a free port), its output printed and checked: the aliases
//      the model reads, the error its mistake earns, and no UUID but the
//      workspace's.
//
//   node examples/run.mjs go|ts|py
//
// Exits non-zero on any failure.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createSuiteRunner } from "../scripts/lib/suite-runner.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..");
const venvBin = path.join(repoRoot, ".venv", "bin");
const python = path.join(venvBin, "python");

/** The workspace id every example sends: the only UUID the model may read. */
const workspace = "5f0c1f7e-3b7a-4d2e-9a61-2c8e4b1d7a90";

const examples = {
  go: {
    source: "main.go",
    needs: [path.join(repoRoot, ".tools", "bin", "protoc-gen-go")],
    path: [path.join(repoRoot, ".tools", "bin")],
    build: [
      ["gofmt", ["-l", "."], { emptyOutput: true }],
      ["go", ["vet", "./..."]],
      ["go", ["build", "-o", "gen/example", "."]],
    ],
    run: (addr) => ["gen/example", [addr]],
    code: "InvalidArgument",
  },
  ts: {
    source: "src/main.ts",
    needs: [path.join(repoRoot, "runtimes", "ts", "dist", "index.js")],
    path: [],
    build: [["node_modules/.bin/tsc", ["-p", "."]]],
    run: (addr) => ["node", ["dist/main.js", addr]],
    code: "InvalidArgument",
  },
  py: {
    source: "main.py",
    needs: [python],
    path: [venvBin],
    build: [
      [python, ["-m", "ruff", "format", "--check", "--no-cache", "main.py"]],
      [python, ["-m", "ruff", "check", "--no-cache", "main.py"]],
      [
        python,
        [
          "-m",
          "mypy",
          "--cache-dir",
          "gen/.mypy_cache",
          "main.py",
          "gen/ai_tools_gen.py",
        ],
      ],
    ],
    run: (addr) => [python, ["main.py", addr]],
    code: "INVALID_ARGUMENT",
  },
};

const lang = process.argv[2];
const example = examples[lang];
const pkgDir = path.join(here, lang ?? "");
const { run, must, step, finish, die } = createSuiteRunner({
  label: `example-${lang}`,
  cwd: pkgDir,
});
if (example === undefined || process.argv.length !== 3)
  die(`usage: node examples/run.mjs ${Object.keys(examples).join("|")}`);
const serverIndex = path.join(repoRoot, "e2e", "server", "dist", "index.js");
for (const p of [
  ...example.needs,
  serverIndex,
  path.join(pkgDir, "node_modules", ".bin", "protoc-gen-ai-tools"),
  path.join(repoRoot, "generator", "dist", "index.js"),
]) {
  if (!existsSync(p))
    die(`${p} not found: run scripts/install.sh and build the workspace`);
}
const env = {
  ...process.env,
  PATH: [...example.path, process.env.PATH].join(path.delimiter),
  PYTHONPATH: path.join(pkgDir, "gen"),
  PYTHONDONTWRITEBYTECODE: "1",
};

step("docs snippets (<!-- example: … -->) in the example's files");
const docPages = [
  "README.md",
  ...readdirSync(path.join(repoRoot, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const snippets = docPages
  .flatMap((page) =>
    readmeSnippets(readFileSync(path.join(repoRoot, page), "utf8")).map(
      (s) => ({ ...s, page }),
    ),
  )
  .filter((s) => s.file.startsWith(`examples/${lang}/`));
if (snippets.length === 0)
  die(`README.md and docs/ mark no snippet as one of examples/${lang}/`);
for (const { file, lines, page } of snippets) {
  const full = path.join(repoRoot, file);
  if (!existsSync(full))
    die(`${page} marks a snippet of ${file}: no such file`);
  const missing = missingLine(lines, readFileSync(full, "utf8"));
  if (missing !== undefined)
    die(
      `${page}'s snippet of ${file}: line ${JSON.stringify(missing)} is not in ${file} (in order)`,
    );
  console.log(`  ${page}, ${file}: ${lines.length} lines`);
}

step("bash generate.sh");
await must("bash", ["generate.sh"], { env });

step(
  example.build
    .map(([cmd, a]) => [path.basename(cmd), ...a].join(" "))
    .join("; "),
);
for (const [cmd, cmdArgs, opts] of example.build) {
  const r = await must(cmd, cmdArgs, { env, quiet: opts?.emptyOutput });
  if (opts?.emptyOutput && r.stdout.trim() !== "")
    die(`${cmd} ${cmdArgs.join(" ")} lists files:\n${r.stdout}`);
}

step("the example against the test server");
const { startServer } = await import(pathToFileURL(serverIndex).href);
const server = await startServer();
let result;
try {
  const [cmd, cmdArgs] = example.run(server.address);
  result = await run(cmd, cmdArgs, { env, quiet: true });
} finally {
  await server.close();
}
process.stdout.write(result.stdout);
if (result.code !== 0)
  die(`the example exited ${result.code}:\n${result.stderr}`);

step("what the model saw");
const expected = [
  /^tools the model is given \([1-9][0-9]*\):$/m,
  /^ {2}links_create \(strict\): Create a short link that redirects to a URL\.$/m,
  /^tool: {2}\{"page_theme":\s*\{"id":\s*"theme-1",/m,
  /^tool: {2}\{"link":\s*\{"id":\s*"link-1",.*"page_theme_id":\s*"theme-1"/m,
  /^tool: {2}\{"link":\s*\{"id":\s*"link-2",/m,
  /^tool: {2}\{"links":\s*\[\{"id":\s*"link-1",.*\{"id":\s*"link-2",/m,
  /^tool: {2}invalid arguments, nothing was sent:\n- "id": unknown alias "link-7"; valid link aliases: link-1, link-2$/m,
  new RegExp(`^ {7}\\(a ToolError: unknown-alias, ${example.code}\\)$`, "m"),
];
for (const re of expected) {
  if (!re.test(result.stdout)) die(`no line of the output matches ${re}`);
}
const uuids = new Set(
  result.stdout.match(
    /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g,
  ),
);
uuids.delete(workspace);
if (uuids.size > 0)
  die(`the model was shown UUIDs other than the workspace's: ${[...uuids]}`);
console.log(
  `  ${expected.length} expected lines; no UUID but the workspace's (${workspace})`,
);
finish("--e2e");

// ---------------------------------------------------------------------------

/**
 * The fenced code blocks of a Markdown text that follow a line
 * `<!-- example: <file> -->`: the file (from the repository root) and the
 * block's lines.
 */
function readmeSnippets(markdown) {
  const re = /^<!-- example: (\S+) -->\n+```[a-z]*\n([\s\S]*?)^```$/gm;
  return [...markdown.matchAll(re)].map((m) => ({
    file: m[1],
    lines: m[2].split("\n"),
  }));
}

/**
 * The first non-blank line of `lines` that does not appear in `text` after
 * the previous one (lines compared with their indentation trimmed), or
 * undefined when all do.
 */
function missingLine(lines, text) {
  const have = text.split("\n").map((l) => l.trim());
  let at = 0;
  for (const line of lines.map((l) => l.trim()).filter((l) => l !== "")) {
    const i = have.indexOf(line, at);
    if (i < 0) return line;
    at = i + 1;
  }
  return undefined;
}
