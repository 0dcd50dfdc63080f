import {
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { violationError } from "../violations.js";
import { errorResult } from "./call-result.js";

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK server of the tools, reading a `tools/call`'s `arguments` before
 * the SDK's schema check (docs/mcp.md, "Calls"): absent or `null` is `{}`;
 * any other value that is not an object is an `isError` result saying what
 * it is, as the executors word it, never a JSON-RPC error.
 */
export class ToolCallServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== "tools/call") {
      return wrapped;
    }
    return (request, ctx) => {
      const params = request.params;
      const args = params?.["arguments"];
      if (args === null) {
        const rest = { ...params };
        delete rest["arguments"];
        return wrapped({ ...request, params: rest }, ctx);
      }
      if (
        args !== undefined &&
        (typeof args !== "object" || Array.isArray(args))
      ) {
        return Promise.resolve(
          errorResult(
            violationError([
              {
                field: "",
                reason: "not-an-object",
                message: `expected a JSON object, got ${kindOf(args)}`,
              },
            ]).message,
          ),
        );
      }
      return wrapped(request, ctx);
    };
  }
}

/** The JSON kind of a value that is not an object or null. */
function kindOf(v: unknown): string {
  if (Array.isArray(v)) {
    return "an array";
  }
  switch (typeof v) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    default:
      return typeof v;
  }
}
