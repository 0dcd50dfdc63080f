// Preloaded into the plugin's Node process through NODE_OPTIONS by the
// benchmark: on exit, writes the process's own peak RSS and CPU time to the
// file named by BENCH_RUSAGE_FILE. Does nothing when that variable is unset,
// and unsets it so that any Node process the plugin might start stays quiet.
//
// The peak is VmHWM of /proc/self/status, the high-water mark of this
// program's memory. Not getrusage's ru_maxrss: Linux carries that over
// from the process that forked this one (execve keeps the larger of the
// two), so a plugin started by a benchmark holding 800 MiB reported 800
// MiB. ru_maxrss only where there is no /proc.
"use strict";
const { readFileSync, writeFileSync } = require("node:fs");

function peakRssKb() {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(
      readFileSync("/proc/self/status", "utf8"),
    );
    if (m !== null) {
      return Number(m[1]);
    }
  } catch {
    // no procfs
  }
  return process.resourceUsage().maxRSS;
}

const file = process.env.BENCH_RUSAGE_FILE;
if (file) {
  delete process.env.BENCH_RUSAGE_FILE;
  process.on("exit", () => {
    const u = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        maxRssKb: peakRssKb(),
        userUs: u.userCPUTime,
        sysUs: u.systemCPUTime,
      }),
    );
  });
}
