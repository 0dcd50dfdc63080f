import type { Registry } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import type { AliasManager } from "../alias-manager.js";
import { ToolError } from "../tool-error.js";
import { conversationMetaKey } from "./conversation-handle.js";

/** A `tools/call` result as this module writes it. */
export interface ToolResult {
  [key: string]: unknown;
  /** The text blocks. */
  content: { type: "text"; text: string }[];
  /** The response's JSON, parsed (successful results only). */
  structuredContent?: { [key: string]: unknown };
  /** True for a failed call. */
  isError?: boolean;
  /** The conversation handle, when the server uses handles. */
  _meta?: { [key: string]: unknown };
}

/**
 * The result of a successful call: the response's JSON as text and parsed,
 * wrapped in an object under wrapKey when set (`{"messages": […]}`); with a
 * handle, the handle in `_meta` and in a second text block.
 */
export function successResult(
  json: string,
  wrapKey: string,
  handle: string | undefined,
): ToolResult {
  const text = wrapKey === "" ? json : `{${JSON.stringify(wrapKey)}:${json}}`;
  const result: ToolResult = {
    content: [{ type: "text", text }],
    structuredContent: JSON.parse(text) as { [key: string]: unknown },
  };
  if (handle !== undefined) {
    result.content.push({ type: "text", text: `conversation: ${handle}` });
    result._meta = { [conversationMetaKey]: handle };
  }
  return result;
}

/** A failed call: `isError` with one text block. */
export function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * The text of a failed call: a ToolError's message (for a server error,
 * `rpc error: code = NotFound desc = …` and a line per field violation of
 * its `google.rpc.BadRequest`), aliasified; the message of anything else.
 * The registry is no longer read (the status is not written as JSON); it is
 * kept for callers of the earlier signature.
 */
export function errorText(
  e: unknown,
  aliases: AliasManager | undefined,
  registry?: Registry,
): string {
  void registry;
  if (!(e instanceof ToolError)) {
    return e instanceof Error ? e.message : String(e);
  }
  return aliases === undefined ? e.message : aliases.aliasifyJson(e.message);
}

/** The gRPC name of a code, upper case: `NOT_FOUND`, `CANCELLED`. */
export function codeName(code: Code): string {
  if (code === Code.Canceled) {
    return "CANCELLED";
  }
  const name = Code[code] as string | undefined;
  return name === undefined
    ? "UNKNOWN"
    : name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}
