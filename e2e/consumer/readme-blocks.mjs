// The README's fenced blocks that the consumer test runs.
//
// A block is the test's when its info string carries `test=` after the
// language word (GitHub highlights by the first word and ignores the rest):
//
//   ```sh test=go,ts          run, in order, for the Go and TypeScript paths
//   ```yaml test=ts file=buf.gen.yaml   written to buf.gen.yaml (TypeScript)
//   ```json test=all mcp      an MCP client's configuration: the test starts
//                             the server named "…-<target>" and calls a tool
//                             over stdio
//   ```sh test=go mcp         the command a stdio client runs, likewise
//   ```go test=go file=main.go wrap   the lines of a program: written into
//                             wrap/go/main.go.tmpl, at its line "README"
//
// `test=` lists targets (go, ts, py) or says `all`; `file=` names a path in
// the user's project; `mcp` marks a client configuration
// (`{"mcpServers": {"<name>": {"command", "args", "env"}}}`) or a stdio
// server's command (sh). Every other
// block is prose to the test.

/** The targets a block can name. */
export const targets = ["go", "ts", "py"];

/**
 * The test's blocks of a Markdown text, in order: `{lang, targets, file,
 * mcp, body, line, heading}` (line: the fence's line number, heading: the
 * section's `##` title, both for messages).
 */
export function readmeBlocks(markdown) {
  const blocks = [];
  const lines = markdown.split("\n");
  let heading = "";
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,6} (.*)$/.exec(lines[i]);
    if (h !== null) heading = h[1];
    const fence = /^(`{3,})(\w+)\s*(.*)$/.exec(lines[i]);
    if (fence === null) continue;
    const end = lines.indexOf(fence[1], i + 1);
    if (end < 0) throw new Error(`README.md:${i + 1}: unclosed code block`);
    const attrs = parseAttrs(fence[3], i + 1);
    if (attrs.test !== undefined) {
      blocks.push({
        lang: fence[2],
        targets: attrs.test === "all" ? targets : attrs.test.split(","),
        file: attrs.file,
        mcp: attrs.mcp !== undefined,
        wrap: attrs.wrap !== undefined,
        body: lines.slice(i + 1, end).join("\n") + "\n",
        line: i + 1,
        heading,
      });
    }
    i = end;
  }
  for (const b of blocks) {
    const unknown = b.targets.filter((t) => !targets.includes(t));
    if (unknown.length > 0)
      throw new Error(
        `README.md:${b.line}: unknown target ${JSON.stringify(unknown[0])} in test=; use ${targets.join(", ")} or all`,
      );
  }
  return blocks;
}

/** `test=go,ts file=a/b.yaml mcp` → {test, file, mcp, wrap}. */
function parseAttrs(text, line) {
  const attrs = {};
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const [key, value = ""] = word.split("=", 2);
    if (!["test", "file", "mcp", "wrap"].includes(key))
      throw new Error(
        `README.md:${line}: unknown code block attribute ${JSON.stringify(word)}; use test=, file=, mcp or wrap`,
      );
    attrs[key] = value;
  }
  return attrs;
}

/** How a block is named in a failure: `README.md:42 (## Generate, sh)`. */
export function blockName(b) {
  return `README.md:${b.line} (## ${b.heading}, ${b.file ?? b.lang} block)`;
}
