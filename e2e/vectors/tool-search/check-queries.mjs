// Checks the tool-search query sets (issue 36, part 2): every
// queries/<api>.json against its queries/<api>.tools.txt. No dependencies;
// run by hand from anywhere:
//
//   node e2e/vectors/tool-search/check-queries.mjs            # every set
//   node e2e/vectors/tool-search/check-queries.mjs compute    # one set
//
// Prints one line per set (queries, relevant tools per query, sources) and
// every problem found, all of them together; exits 1 when there is any.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const queriesDir = join(dirname(fileURLToPath(import.meta.url)), "queries");

/** The fewest queries a set may hold (the issue asks at least 50). */
const minQueries = 50;

/** The fields every set declares besides its queries. */
const headerFields = ["api", "title", "protos", "options", "recall"];

/**
 * Reads `<api>.tools.txt`: one tool name a line, sorted by bytes, no
 * duplicates. Returns the names and the problems found.
 */
function readTools(api) {
  const file = join(queriesDir, `${api}.tools.txt`);
  if (!existsSync(file)) {
    return {
      names: new Set(),
      problems: [
        `${api}.tools.txt: missing; write the tool list, one name a line`,
      ],
    };
  }
  const lines = readFileSync(file, "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const problems = [];
  for (let i = 1; i < lines.length; i++) {
    if (Buffer.compare(Buffer.from(lines[i - 1]), Buffer.from(lines[i])) >= 0) {
      problems.push(
        `${api}.tools.txt line ${i + 1}: "${lines[i]}" is not after "${lines[i - 1]}"; sort by bytes (LC_ALL=C sort -u)`,
      );
    }
  }
  return { names: new Set(lines), problems };
}

/** Checks one query entry; returns its problems. */
function checkQuery(api, q, index, tools, seen) {
  const at = `${api}.json queries[${index}]`;
  const problems = [];
  if (typeof q?.query !== "string" || q.query.trim() === "") {
    return [`${at}: "query" must be a non-empty string`];
  }
  const key = q.query.trim().toLowerCase();
  if (seen.has(key))
    problems.push(
      `${at}: query "${q.query}" repeats queries[${seen.get(key)}]; reword or drop one`,
    );
  else seen.set(key, index);
  const relevant = q.relevant;
  if (!Array.isArray(relevant) || relevant.length < 1 || relevant.length > 3) {
    problems.push(
      `${at} ("${q.query}"): "relevant" must list 1 to 3 tool names`,
    );
  } else {
    if (new Set(relevant).size !== relevant.length)
      problems.push(`${at} ("${q.query}"): "relevant" names a tool twice`);
    for (const name of relevant) {
      if (!tools.has(name))
        problems.push(
          `${at} ("${q.query}"): tool "${name}" is not in ${api}.tools.txt; use a name from that list`,
        );
    }
  }
  let url;
  try {
    url = new URL(q.source);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "https:")
    problems.push(
      `${at} ("${q.query}"): source "${q.source}" must be an https URL of the page the query was written from`,
    );
  return problems;
}

/** Checks one set; returns its summary line and problems. */
function checkSet(api) {
  const file = join(queriesDir, `${api}.json`);
  let set;
  try {
    set = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    return {
      summary: `${api}: unreadable`,
      problems: [`${api}.json: ${err.message}; fix the JSON`],
    };
  }
  const { names, problems } = readTools(api);
  if (set.api !== api)
    problems.push(
      `${api}.json: "api" is "${set.api}"; it must be "${api}", the file's name`,
    );
  for (const field of headerFields) {
    if (typeof set[field] !== "string" || set[field] === "")
      problems.push(`${api}.json: "${field}" must be a non-empty string`);
  }
  if (set.toolCount !== names.size)
    problems.push(
      `${api}.json: "toolCount" is ${set.toolCount} but ${api}.tools.txt lists ${names.size} tools; make them agree`,
    );
  const queries = Array.isArray(set.queries) ? set.queries : [];
  if (queries.length < minQueries)
    problems.push(
      `${api}.json: ${queries.length} queries; write at least ${minQueries}`,
    );
  const seen = new Map();
  queries.forEach((q, i) =>
    problems.push(...checkQuery(api, q, i, names, seen)),
  );
  const perQuery = [0, 0, 0, 0];
  for (const q of queries)
    if (Array.isArray(q.relevant) && q.relevant.length <= 3)
      perQuery[q.relevant.length]++;
  const sources = new Set(queries.map((q) => q.source)).size;
  const summary = `${api}: ${queries.length} queries (relevant tools 1/2/3: ${perQuery[1]}/${perQuery[2]}/${perQuery[3]}), ${sources} sources, ${names.size} tools`;
  return { summary, problems };
}

const wanted = process.argv.slice(2);
const apis = wanted.length
  ? wanted
  : readdirSync(queriesDir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -".json".length))
      .sort();
if (apis.length === 0) {
  console.error(`no query sets in ${queriesDir}; write queries/<api>.json`);
  process.exit(1);
}
let failed = 0;
for (const api of apis) {
  const { summary, problems } = checkSet(api);
  console.log(summary);
  for (const p of problems) console.log(`  ${p}`);
  failed += problems.length;
}
if (failed) {
  console.error(`${failed} problem(s)`);
  process.exit(1);
}
