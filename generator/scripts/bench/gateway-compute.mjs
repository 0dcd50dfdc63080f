// The MCP gateway (`protoc-gen-ai-tools mcp`) on the largest real API at
// hand: Compute Engine (google/cloud/compute/v1 of google-proto-files,
// pinned in package.json), built by buf into a descriptor set with its
// comments, served with --tools all (Google's protos have no rpc_tool
// annotations). Per run: a new gateway process over stdio, the time from
// spawn to its start-up line and to the answer of a client's first
// tools/list (initialize first), and its peak RSS (VmHWM) then, and after
// --lists more tools/list (6 by default: memory a client listing again
// costs). Nothing is
// called: the target is never dialled. Medians and ranges printed; the
// issue's aims are under 3 s and 300 MB. See bench/README.md, "Gateway".
//
//   node scripts/bench/gateway-compute.mjs [--runs N] [--lists N] [--api DIR]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { wholeNumber } from "./whole-number.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const generatorDir = join(here, "..", "..");
const bin = join(generatorDir, "bin", "protoc-gen-ai-tools");
const buf = join(generatorDir, "..", "node_modules", ".bin", "buf");
const require = createRequire(import.meta.url);

const { values: opt } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    lists: { type: "string", default: "6" },
    api: { type: "string", default: "google/cloud/compute/v1" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (opt.help) {
  console.log(`usage: node scripts/bench/gateway-compute.mjs [--runs N] [--lists N] [--api DIR]
  --runs N    gateway processes measured, after one warm-up (default 5)
  --lists N   tools/list asked again after the first, RSS then (default 6)
  --api DIR   the API directory of google-proto-files (default google/cloud/compute/v1)`);
  process.exit(0);
}
const fail = (message) => {
  console.error(`gateway-compute: ${message}`);
  process.exit(2);
};
const runs = wholeNumber("runs", opt.runs, 1, fail);
const lists = wholeNumber("lists", opt.lists, 0, fail);

const protos = dirname(require.resolve("google-proto-files/package.json"));
const work = mkdtempSync(join(tmpdir(), "ai-tools-gateway-bench-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const set = join(work, "api.binpb");
// buf build keeps imports and source info (the comments) by default.
execFileSync(buf, [
  "build",
  protos,
  "--path",
  join(protos, opt.api),
  "-o",
  set,
]);

/** The VmHWM of a live process, in kB. */
function peakRssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
}

/**
 * One gateway process: ms to its start-up line, ms to the answer of
 * tools/list, the tools listed, peak RSS in MB at the start-up line, when
 * listed and when listed `lists` times more.
 */
async function measureOnce() {
  const t0 = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
  const child = spawn(
    process.execPath,
    [bin, "mcp", "--descriptor-set", set, "--target", "127.0.0.1:1"].concat([
      "--tools",
      "all",
    ]),
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let startLine;
  let startRssMb;
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d.toString();
    if (startLine === undefined && stderr.includes("serving stdio")) {
      startLine = ms();
      startRssMb = peakRssKb(child.pid) / 1024;
    }
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const answers = createInterface({ input: child.stdout });
  const pending = new Map();
  answers.on("line", (line) => {
    const message = JSON.parse(line);
    pending.get(message.id)?.(message);
  });
  const ask = (id, method, params) =>
    new Promise((resolve, reject) => {
      pending.set(id, resolve);
      exited.then(() => reject(new Error(`the gateway exited: ${stderr}`)));
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`,
      );
    });
  await ask(1, "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  });
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
  );
  const listed = await ask(2, "tools/list", {});
  const firstList = ms();
  const rssMb = peakRssKb(child.pid) / 1024;
  for (let i = 0; i < lists; i++) {
    await ask(3 + i, "tools/list", {});
  }
  const listsRssMb = peakRssKb(child.pid) / 1024;
  child.stdin.end();
  child.kill("SIGTERM");
  await exited;
  return {
    startLine,
    firstList,
    tools: listed.result.tools.length,
    rssMb,
    listsRssMb,
    startRssMb,
    summary: /mcp: (.*); serving stdio/.exec(stderr)?.[1],
  };
}

const loads = [loadavg()[0]];
await measureOnce(); // warm-up: the file cache
const results = [];
for (let i = 0; i < runs; i++) {
  results.push(await measureOnce());
  loads.push(loadavg()[0]);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const range = (xs, f) =>
  `median ${f(median(xs))} (${f(Math.min(...xs))}-${f(Math.max(...xs))})`;
const s = (x) => `${(x / 1000).toFixed(2)} s`;
const mb = (x) => `${Math.round(x)} MB`;
console.log(
  `\ngateway on ${opt.api} (google-proto-files ${JSON.parse(readFileSync(join(protos, "package.json"), "utf8")).version}; ${runs} runs + 1 warm-up; load average ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)})`,
);
console.log(`  ${results[0].summary}`);
console.log(`  tools listed:                  ${results[0].tools}`);
console.log(
  `  spawn to start-up line:        ${range(
    results.map((r) => r.startLine),
    s,
  )}`,
);
console.log(
  `  spawn to first tools/list:     ${range(
    results.map((r) => r.firstList),
    s,
  )}  (aim: under 3 s)`,
);
console.log(
  `  peak RSS at the start-up line: ${range(
    results.map((r) => r.startRssMb),
    mb,
  )}`,
);
console.log(
  `  peak RSS after tools/list:     ${range(
    results.map((r) => r.rssMb),
    mb,
  )}  (aim: under 300 MB)`,
);
console.log(
  `  peak RSS after ${lists} more lists: ${range(
    results.map((r) => r.listsRssMb),
    mb,
  )}  (aim: under 300 MB)`,
);
