/**
 * The entry point of `protoc-gen-ai-tools mcp …`, loaded by
 * bin/protoc-gen-ai-tools instead of the plugin bundle when its first
 * argument is `mcp`.
 */
import { runGateway } from "./run-gateway.js";

void runGateway(process.argv.slice(3));
