// V8's flags for a plugin run, set when this file is required.
// bin/protoc-gen-ai-tools requires it before it loads the bundle, and
// scripts/bench/phase-run.mjs too, to measure what the executable runs.
// V8 reads the interrupt budget whenever it resets a function's budget
// (when its feedback vector is allocated, and after each budget
// interrupt), so a budget set at run time holds for every function run
// after it.
//
// A run is short: its code runs hot for a few hundred milliseconds at
// most. Under V8's default interrupt budget (67,584 bytes of bytecode run
// before a function is weighed for optimization), TurboFan compiles about
// 200 functions in a 2,000-tool run, and 37 of them are deoptimized; the
// compiling, on the second core the garbage collector needs too, costs
// more than the optimized code saves. Six times the default leaves about
// 80 functions (23 deoptimized), and took a 2,000-tool run from 803 to
// 719 ms of wall time and from 1.23 to 1.02 s of CPU time (bench/README.md,
// fifth pass).
//
// The flags are the process's: Node's own code cache of its built-in
// modules, made under V8's defaults, is refused for a built-in module
// loaded after this (those of the ES module loader and of worker threads,
// which the MCP file's formatting loads); they are compiled instead.
//
// A budget given on node's command line wins (NODE_OPTIONS cannot hold
// one).
"use strict";
const { setFlagsFromString } = require("node:v8");

const interruptBudget = 6 * 67584;
// V8 reads "_" in a flag's name as "-".
if (!process.execArgv.some((arg) => /^--interrupt[-_]budget(=|$)/.test(arg))) {
  setFlagsFromString(`--interrupt-budget=${interruptBudget}`);
}
