// V8's flags for a plugin run, set when this file is required, which must
// be before the code they are for is compiled: bin/protoc-gen-ai-tools
// requires it first (and so the code cache, which scripts/bundle.mjs makes
// by running the bin and which V8 accepts only under the flags it was made
// under, is made under these), as does scripts/bench/phase-run.mjs.
//
// A run is short: its code runs hot for a few hundred milliseconds at
// most. Under V8's default interrupt budget (67,584 bytes of bytecode run
// before a function is weighed for optimization), TurboFan compiles about
// 200 functions in a 2,000-tool run, and 37 of them are deoptimized; the
// compiling, on the second core the garbage collector needs too, costs
// more than the optimized code saves. Six times the default leaves about
// 80 functions (23 deoptimized), and took a 2,000-tool run from 803 to
// 719 ms of wall time and from 1.23 to 1.02 s of CPU time (bench/README.md,
// fifth pass). A budget given on node's command line wins (NODE_OPTIONS
// cannot hold one).
"use strict";
const { setFlagsFromString } = require("node:v8");

const interruptBudget = 6 * 67584;
// V8 reads "_" in a flag's name as "-".
if (!process.execArgv.some((arg) => /^--interrupt[-_]budget\b/.test(arg))) {
  setFlagsFromString(`--interrupt-budget=${interruptBudget}`);
}
