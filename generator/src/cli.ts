import { protocGenAiTools } from "./plugin.js";
import { runNodeJs } from "./run-node.js";

/**
 * The executable's entry point: bundled with its dependencies into
 * dist/protoc-gen-ai-tools.cjs at build time (scripts/bundle.mjs), so that
 * a run loads one file instead of a few hundred modules, compiled from V8's
 * code cache (bin/protoc-gen-ai-tools).
 */
runNodeJs(protocGenAiTools);
