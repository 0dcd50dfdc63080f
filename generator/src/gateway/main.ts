/**
 * The entry point of `protoc-gen-ai-tools mcp …`, loaded by
 * bin/protoc-gen-ai-tools instead of the plugin bundle when its first
 * argument is `mcp`. The gateway's packages are optional peer dependencies
 * of the plugin (a protoc plugin needs none of them): a missing one is an
 * install line on stderr and exit code 2.
 */

/** The packages the gateway loads, as `npm install` takes them. */
const gatewayPackages =
  "@protoc-gen-ai-tools/runtime @connectrpc/connect @connectrpc/connect-node @modelcontextprotocol/server @modelcontextprotocol/node";

try {
  const { runGateway } = await import("./run-gateway.js");
  await runGateway(process.argv.slice(3));
} catch (e) {
  const missing =
    (e as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND"
      ? /Cannot find package '([^']+)'/.exec((e as Error).message)?.[1]
      : undefined;
  if (missing === undefined) {
    throw e;
  }
  process.stderr.write(
    `protoc-gen-ai-tools mcp: the MCP gateway needs ${JSON.stringify(missing)}, which is not installed: npm install ${gatewayPackages}\n`,
  );
  process.exitCode = 2;
}
