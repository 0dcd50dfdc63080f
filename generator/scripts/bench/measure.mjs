// Runs a plugin as a whole process, the way protoc / buf do: request on
// stdin, response on stdout. Measures wall time (spawn to exit with stdout
// drained) and the child's peak resident set size.
//
// Peak RSS, two ways:
//  - exact, for a Node plugin: rusage-preload.cjs is added to NODE_OPTIONS
//    and writes the process's own VmHWM (/proc/self/status) on exit;
//  - approximate, for anything else: VmHWM from /proc/<pid>/status, polled.
//    VmHWM is a high-water mark, so polling only misses growth in the last
//    poll interval before exit.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const PRELOAD = join(here, "rusage-preload.cjs");
const POLL_MS = 5;

function readHwmKb(pid) {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // gone already, or no procfs
  }
}

/**
 * @param {object} o
 * @param {string} o.command
 * @param {string[]} o.args
 * @param {Uint8Array} o.request
 * @param {string} o.rusageFile scratch file for the preload's report
 * @returns {Promise<{wallMs: number, peakRssKb: number, rssExact: boolean,
 *   cpuMs: number | undefined, code: number | null, signal: string | null,
 *   stdout: Buffer, stderr: string}>}
 */
export function runPlugin({ command, args, request, rusageFile }) {
  rmSync(rusageFile, { force: true });
  const nodeOptions = [
    process.env.NODE_OPTIONS,
    `--require ${JSON.stringify(PRELOAD)}`,
  ]
    .filter(Boolean)
    .join(" ");
  const env = {
    ...process.env,
    NODE_OPTIONS: nodeOptions,
    BENCH_RUSAGE_FILE: rusageFile,
  };

  return new Promise((resolve, reject) => {
    const out = [];
    const err = [];
    let polledKb = 0;
    const t0 = performance.now();
    const child = spawn(command, args, {
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const timer = setInterval(() => {
      polledKb = Math.max(polledKb, readHwmKb(child.pid));
    }, POLL_MS);
    child.on("error", (e) => {
      clearInterval(timer);
      reject(new Error(`cannot run ${command}: ${e.message}`));
    });
    child.stdout.on("data", (d) => {
      out.push(d);
      // The process is still there while it writes: sample once more.
      polledKb = Math.max(polledKb, readHwmKb(child.pid));
    });
    child.stderr.on("data", (d) => err.push(d));
    child.stdin.on("error", () => {}); // EPIPE when the plugin dies early
    child.stdin.end(request);
    child.on("close", (code, signal) => {
      const wallMs = performance.now() - t0;
      clearInterval(timer);
      let usage;
      try {
        usage = JSON.parse(readFileSync(rusageFile, "utf8"));
      } catch {
        usage = undefined;
      }
      resolve({
        wallMs,
        peakRssKb: usage ? usage.maxRssKb : polledKb,
        rssExact: Boolean(usage),
        cpuMs: usage ? (usage.userUs + usage.sysUs) / 1000 : undefined,
        code,
        signal,
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}
