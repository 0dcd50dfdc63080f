// The checks of docs-links.test.ts over README.md and docs/*.md: relative
// links and their anchors, the packages of install commands, the script
// paths of commands, and the plugin options of `--ai-tools_opt=` and
// buf.gen.yaml `opt:`. Each check takes the page's text and returns the
// problems it finds as lines "page:line: what is wrong", so that a test can
// run it on a broken page as well as on the real ones.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseOptions } from "../../src/options.js";

/** A Markdown page: its path relative to the repository root, and its text. */
export interface Page {
  readonly path: string;
  readonly text: string;
}

/** A piece of code in a page: a fenced block or an inline code span. */
interface Code {
  readonly lang: string; // "" for inline code and unmarked blocks
  readonly text: string;
  readonly line: number; // 1-based line of its first line in the page
}

/** The packages and modules a command may install. */
export interface Known {
  readonly npm: ReadonlySet<string>;
  readonly pypi: ReadonlySet<string>;
  /** Extras of our PyPI packages, by package name. */
  readonly pypiExtras: ReadonlyMap<string, ReadonlySet<string>>;
  /** Go module paths; a package below one of them is known too. */
  readonly goModules: ReadonlySet<string>;
}

const fenceOpen = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;

/**
 * The page split into code (fenced blocks, inline spans) and prose: `prose`
 * without any code (for links), `text` without the fenced blocks only (for
 * headings, whose inline code counts), both with the page's line numbers.
 */
function splitPage(text: string): {
  code: Code[];
  prose: string;
  text: string;
} {
  const lines = text.split("\n");
  const code: Code[] = [];
  const prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fenceOpen.exec(lines[i]!);
    if (open === null) {
      prose.push(lines[i]!);
      continue;
    }
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    while (
      j < lines.length &&
      !lines[j]!.trim().startsWith(fence[0]!.repeat(fence.length))
    ) {
      body.push(lines[j]!);
      j++;
    }
    code.push({ lang: open[3] ?? "", text: body.join("\n"), line: i + 2 });
    for (let k = i; k <= j && k < lines.length; k++) prose.push("");
    i = j;
  }
  // Inline code spans, which may run across lines, blanked out of the prose.
  const joined = prose.join("\n");
  const spans = /(`+)([\s\S]*?[^`])\1(?!`)/g;
  for (const m of joined.matchAll(spans)) {
    code.push({
      lang: "",
      text: m[2]!.replace(/\n/g, " "),
      line: lineOf(joined, m.index),
    });
  }
  const blanked = joined.replace(spans, (m) => m.replace(/[^\n]/g, " "));
  return { code, prose: blanked, text: joined };
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** GitHub's anchor for a heading's text (github-slugger's rules). */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links: their text
    .replace(/`/g, "")
    .replace(/\*/g, "");
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a page defines: its headings' slugs (numbered when repeated). */
export function anchorsOf(text: string): Set<string> {
  const prose = splitPage(text).text;
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose.split("\n")) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h !== null) {
      const base = headingSlug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g))
      anchors.add(a[1]!);
  }
  return anchors;
}

/** The relative links of a page's prose (not in code), with their lines. */
export function relativeLinks(page: Page): { at: string; target: string }[] {
  const { prose } = splitPage(page.text);
  const links = [
    ...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
    ...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm),
  ];
  return links
    .filter((m) => !/^[a-z][a-z0-9+.-]*:/i.test(m[1]!)) // https:, mailto:, …
    .map((m) => ({
      at: `${page.path}:${lineOf(prose, m.index)}`,
      target: m[1]!,
    }));
}

/**
 * Relative links (and their anchors) that lead nowhere: a file or
 * directory that does not exist under `root`, or a heading the target page
 * does not have. Links in code are not links.
 */
export function brokenLinks(page: Page, root: string): string[] {
  const problems: string[] = [];
  for (const { at, target } of relativeLinks(page)) {
    const hash = target.indexOf("#");
    const file = decodeURI(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : target.slice(hash + 1);
    const full = resolve(root, dirname(page.path), file);
    if (file !== "" && !existsSync(full)) {
      problems.push(`${at}: link "${target}": no such file ${file}`);
      continue;
    }
    const anchors =
      file === ""
        ? anchorsOf(page.text)
        : full.endsWith(".md") && statSync(full).isFile()
          ? anchorsOf(readFileSync(full, "utf8"))
          : undefined;
    if (anchor !== undefined && anchors?.has(decodeURI(anchor)) === false) {
      const name = file === "" ? page.path : relative(root, full);
      problems.push(
        `${at}: link "${target}": ${name} has no heading #${anchor}`,
      );
    }
  }
  return problems;
}

const installCommand =
  /\b(npm\s+(?:install|i|add)|pnpm\s+add|yarn\s+add|pip3?\s+install|python3?\s+-m\s+pip\s+install|go\s+get|go\s+install)\b([^\n]*)/g;
const npmSpec = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@\S+)?$/;
const pipSpec =
  /^([A-Za-z0-9][\w.-]*)(?:\[([\w,-]+)\])?(?:(?:==|>=|<=|~=|!=|<|>)\S+)?$/;
const goSpec = /^([a-z0-9.-]+\.[a-z]+(?:\/[\w.~-]+)*)(?:@\S+)?$/;

/** A PyPI name as PEP 503 compares them. */
export function pypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/**
 * The packages install commands name (npm, pnpm, yarn, pip, go get, go
 * install), in code blocks (but `text` ones, quoted output) and inline
 * code, as the tool and the argument.
 */
export function installs(
  page: Page,
): { at: string; tool: string; spec: string }[] {
  const found: { at: string; tool: string; spec: string }[] = [];
  for (const code of splitPage(page.text).code) {
    if (code.lang === "text") continue; // output quoted, not a command
    for (const [n, line] of code.text.split("\n").entries()) {
      for (const m of line.matchAll(installCommand)) {
        const tool = m[1]!.split(/\s+/)[0]!;
        const at = `${page.path}:${code.line + n}`;
        const rest = m[2]!.split(/\s(?:#|;|&&|\|\|?)|\s*\)/)[0]!;
        const tokens = rest.split(/\s+/).filter((s) => s !== "");
        for (let i = 0; i < tokens.length; i++) {
          const spec = tokens[i]!.replace(/^["']|["']$/g, "");
          if (spec.startsWith("-")) {
            if (/^(-r|-e|-c|--requirement|--editable|--constraint)$/.test(spec))
              i++;
            continue;
          }
          if (!specPattern(tool).test(spec)) break; // prose after the command
          found.push({ at, tool, spec });
        }
      }
    }
  }
  return found;
}

function specPattern(tool: string): RegExp {
  if (tool === "go") return goSpec;
  return tool.startsWith("pip") || tool.startsWith("python")
    ? pipSpec
    : npmSpec;
}

/**
 * Packages named in install commands that are neither ours nor a
 * dependency the repository declares, and extras of our PyPI packages that
 * they do not have.
 */
export function unknownPackages(page: Page, known: Known): string[] {
  return installs(page).flatMap(({ at, tool, spec }) => {
    const problem = packageProblem(tool, spec, known);
    return problem === undefined ? [] : [`${at}: ${problem}`];
  });
}

function packageProblem(
  tool: string,
  token: string,
  known: Known,
): string | undefined {
  if (tool === "go") {
    const path = goSpec.exec(token)![1]!;
    for (const mod of known.goModules)
      if (path === mod || path.startsWith(`${mod}/`)) return undefined;
    return `go module ${JSON.stringify(path)} is neither ours nor required by a go.mod here`;
  }
  if (tool.startsWith("pip") || tool.startsWith("python")) {
    const m = pipSpec.exec(token)!;
    const name = pypiName(m[1]!);
    if (!known.pypi.has(name))
      return `PyPI package ${JSON.stringify(m[1])} is neither ours nor a declared dependency`;
    const extras = known.pypiExtras.get(name);
    for (const extra of m[2]?.split(",") ?? []) {
      if (extras !== undefined && !extras.has(extra))
        return `PyPI package ${JSON.stringify(m[1])} has no extra ${JSON.stringify(extra)}; it has ${[...extras].join(", ")}`;
    }
    return undefined;
  }
  const m = npmSpec.exec(token)!;
  return known.npm.has(m[1]!)
    ? undefined
    : `npm package ${JSON.stringify(m[1])} is neither ours nor a declared dependency`;
}

const scriptCommand =
  /\b(?:bash|sh|node|python3?|\.venv\/bin\/python)\s+((?:\.\/)?(?:[\w.-]+\/)*scripts\/[\w./-]+\.(?:sh|mjs|cjs|js|ts|py))/g;

/** Script paths run by a command (`bash scripts/x.sh`, `node …/scripts/y.mjs`). */
export function scriptsRun(page: Page): { at: string; script: string }[] {
  return splitPage(page.text).code.flatMap((code) =>
    [...code.text.matchAll(scriptCommand)].map((m) => ({
      at: `${page.path}:${code.line + lineOf(code.text, m.index) - 1}`,
      script: m[1]!,
    })),
  );
}

/**
 * Scripts of {@link scriptsRun} that exist neither from the repository root
 * nor from one of `dirs` (the packages, where a page says to `cd` first).
 */
export function missingScripts(
  page: Page,
  root: string,
  dirs: readonly string[],
): string[] {
  return scriptsRun(page)
    .filter(
      ({ script }) =>
        !["", ...dirs].some((d) => existsSync(join(root, d, script))),
    )
    .map(({ at, script }) => `${at}: script ${script} does not exist`);
}

/**
 * The plugin parameters a page shows, `--ai-tools_opt=…` in commands and the
 * `opt:` of this plugin's entries in buf.gen.yaml blocks (an `opt:` outside
 * any entry counts as ours), each as the parameter the plugin receives.
 */
export function pluginParameters(
  page: Page,
): { at: string; parameter: string }[] {
  const found: { at: string; parameter: string }[] = [];
  for (const code of splitPage(page.text).code) {
    const at = (line: number) => `${page.path}:${code.line + line - 1}`;
    for (const m of code.text.matchAll(
      /--ai-tools_opt=("[^"]*"|'[^']*'|\S+)/g,
    )) {
      const value = m[1]!.replace(/^["']|["']$/g, "");
      if (!value.includes("$"))
        found.push({ at: at(lineOf(code.text, m.index)), parameter: value });
    }
    if (code.lang === "yaml" || code.lang === "yml")
      for (const { line, parameter } of yamlOpts(code.text))
        found.push({ at: at(line), parameter });
  }
  return found;
}

const pluginKey = /^(local|remote|protoc_builtin|plugin|name):/;

/** The `opt:` values of this plugin's entries in a buf.gen.yaml text. */
function yamlOpts(text: string): { line: number; parameter: string }[] {
  const lines = text.split("\n").map((l) => l.replace(/\s+#.*$/, ""));
  const opts: { line: number; parameter: string }[] = [];
  let plugin: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const entry = /^\s*-\s+(\w+):\s*(.*)$/.exec(line);
    if (entry !== null && pluginKey.test(`${entry[1]}:`)) plugin = entry[2];
    const keyed = /^\s*(\w+):\s*(.*)$/.exec(line);
    if (keyed !== null && entry === null && pluginKey.test(`${keyed[1]}:`))
      plugin = keyed[2];
    const opt = /^\s*-?\s*opt:\s*(.*)$/.exec(line);
    if (opt === null) continue;
    const at = i + 1;
    let value = opt[1]!.trim();
    // A flow sequence written over several lines, after the key or below it.
    const flow = /^(&\S+\s*)?\[/;
    if (value === "" && flow.test(lines[i + 1]?.trim() ?? ""))
      value = lines[++i]!.trim();
    while (flow.test(value) && !value.includes("]") && i + 1 < lines.length)
      value += ` ${lines[++i]!.trim()}`;
    value = value.trim().replace(/^&\S+\s*/, "");
    if (value.startsWith("*")) continue; // an alias of another entry's
    let items: string[];
    if (value.startsWith("[")) {
      items = value.replace(/^\[|\]$/g, "").split(",");
    } else if (value !== "") {
      items = [value];
    } else {
      items = [];
      while (i + 1 < lines.length && /^\s*-\s+\S/.test(lines[i + 1]!)) {
        const item = lines[i + 1]!.replace(/^\s*-\s+/, "");
        if (pluginKey.test(item)) break;
        items.push(item);
        i++;
      }
    }
    const parameter = items
      .map((s) => s.trim().replace(/^["']|["']$/g, ""))
      .filter((s) => s !== "")
      .join(",");
    if (plugin === undefined || plugin.includes("protoc-gen-ai-tools"))
      opts.push({ line: at, parameter });
  }
  return opts;
}

/** The parameters of {@link pluginParameters} that the plugin refuses. */
export function badOptions(page: Page): string[] {
  const problems: string[] = [];
  for (const { at, parameter } of pluginParameters(page)) {
    try {
      parseOptions(parameter);
    } catch (e) {
      problems.push(
        `${at}: ${JSON.stringify(parameter)}: ${(e as Error).message}`,
      );
    }
  }
  return problems;
}

/** True when `index` falls in the `[project.optional-dependencies]` table. */
function inExtras(toml: string, index: number): boolean {
  const tables = [...toml.slice(0, index).matchAll(/^\[([^\]]+)\]/gm)];
  return tables.at(-1)?.[1] === "project.optional-dependencies";
}

const skipDirs = new Set([
  "node_modules",
  ".git",
  ".venv",
  ".tools",
  "dist",
  ".turbo",
  "testdata",
]);

/** Files named `name` under `root`, as paths relative to it. */
export function findFiles(root: string, name: string, dir = ""): string[] {
  const found: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (e.isDirectory() && !skipDirs.has(e.name) && !e.name.startsWith("."))
      found.push(...findFiles(root, name, join(dir, e.name)));
    else if (e.isFile() && e.name === name) found.push(join(dir, e.name));
  }
  return found;
}

/**
 * What install commands may name: the packages this repository publishes
 * (npm packages not marked private, the PyPI projects and Go modules of
 * runtimes/) and every dependency its package.json, pyproject.toml,
 * requirements files and go.mod files declare.
 */
export function knownPackages(root: string): Known {
  const npm = new Set<string>();
  for (const file of findFiles(root, "package.json")) {
    const pkg = JSON.parse(readFileSync(join(root, file), "utf8")) as {
      name?: string;
      private?: boolean;
    } & Record<string, Record<string, string> | undefined>;
    if (pkg.name !== undefined && pkg.private !== true) npm.add(pkg.name);
    for (const key of [
      "dependencies",
      "devDependencies",
      "peerDependencies",
      "optionalDependencies",
    ])
      for (const dep of Object.keys(pkg[key] ?? {})) npm.add(dep);
  }
  const pypi = new Set<string>();
  const pypiExtras = new Map<string, Set<string>>();
  for (const file of findFiles(root, "pyproject.toml")) {
    const text = readFileSync(join(root, file), "utf8");
    const name = /^\[project\][^[]*?^name\s*=\s*"([^"]+)"/ms.exec(text)?.[1];
    if (name !== undefined && file.startsWith("runtimes/")) {
      pypi.add(pypiName(name));
      const section =
        /^\[project\.optional-dependencies\]\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(
          text,
        )?.[1] ?? "";
      pypiExtras.set(
        pypiName(name),
        new Set([...section.matchAll(/^([\w-]+)\s*=/gm)].map((m) => m[1]!)),
      );
    }
    const lists = [
      ...text.matchAll(
        /^(?:dependencies|requires|[\w-]+)\s*=\s*\[((?:[^\]"]|"[^"]*")*)\]/gm,
      ),
    ].filter(
      (m) => /^(dependencies|requires)\b/.test(m[0]) || inExtras(text, m.index),
    );
    for (const list of lists)
      for (const m of list[1]!.matchAll(/"([A-Za-z0-9][\w.-]*)/g))
        pypi.add(pypiName(m[1]!));
  }
  for (const dir of ["runtimes/python"]) {
    for (const e of readdirSync(join(root, dir)))
      if (/^requirements.*\.txt$/.test(e))
        for (const line of readFileSync(join(root, dir, e), "utf8").split(
          "\n",
        )) {
          const m = /^([A-Za-z0-9][\w.-]*)/.exec(line.trim());
          if (m !== null) pypi.add(pypiName(m[1]!));
        }
  }
  const goModules = new Set<string>();
  for (const file of findFiles(root, "go.mod")) {
    const text = readFileSync(join(root, file), "utf8");
    const mod = /^module\s+(\S+)/m.exec(text)?.[1];
    if (mod !== undefined && file.startsWith("runtimes/")) goModules.add(mod);
    for (const m of text.matchAll(
      /^(?:require\s+)?\s*([a-z0-9.-]+\.[a-z]+\/\S+)\s+v\S+/gm,
    ))
      goModules.add(m[1]!);
  }
  return { npm, pypi, pypiExtras, goModules };
}
