// Preloaded into the plugin's Node process through NODE_OPTIONS by the
// benchmark: on exit, writes the process's own peak RSS and CPU time to the
// file named by BENCH_RUSAGE_FILE. Does nothing when that variable is unset,
// and unsets it so that any Node process the plugin might start stays quiet.
"use strict";
const file = process.env.BENCH_RUSAGE_FILE;
if (file) {
  delete process.env.BENCH_RUSAGE_FILE;
  process.on("exit", () => {
    const u = process.resourceUsage();
    require("node:fs").writeFileSync(
      file,
      JSON.stringify({
        maxRssKb: u.maxRSS,
        userUs: u.userCPUTime,
        sysUs: u.systemCPUTime,
      }),
    );
  });
}
