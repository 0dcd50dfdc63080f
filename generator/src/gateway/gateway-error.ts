/**
 * A usage or input error of `protoc-gen-ai-tools mcp`: printed on stderr
 * as one line, without a stack trace, and the process exits with code 2.
 */
export class GatewayError extends Error {
  override name = "GatewayError";
}
