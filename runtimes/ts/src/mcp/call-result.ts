import {
  create,
  createRegistry,
  fromBinary,
  type Registry,
} from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { anyPack, AnySchema } from "@bufbuild/protobuf/wkt";
import { Code, type ConnectError } from "@connectrpc/connect";
import type { AliasManager } from "../alias-manager.js";
import { quote } from "../json.js";
import { toProtoJsonString } from "../proto-json.js";
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
 * The text of a failed call: a server error (`server-error`,
 * `unavailable`) as the status JSON, `{"code":"NOT_FOUND","message":…,
 * "details":[…]}`, aliasified whole; any other ToolError's message; the
 * message of anything else.
 */
export function errorText(
  e: unknown,
  aliases: AliasManager | undefined,
  registry: Registry | undefined,
): string {
  if (!(e instanceof ToolError)) {
    return e instanceof Error ? e.message : String(e);
  }
  if (e.reason !== "server-error" && e.reason !== "unavailable") {
    return e.message;
  }
  const details = e.details.map((d) => detailJson(d, registry));
  const text = `{"code":${quote(codeName(e.code))},"message":${quote(e.rawMessage)},"details":[${details.join(",")}]}`;
  return aliases === undefined ? text : aliases.aliasifyJson(text);
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

const typeUrlPrefix = "type.googleapis.com/";

/**
 * One error detail as the protobuf JSON of a `google.protobuf.Any`, as Go's
 * protojson writes it; a type the registry lacks as
 * `{"@type": …, "value": <base64>}`.
 */
function detailJson(
  d: ConnectError["details"][number],
  registry: Registry | undefined,
): string {
  const types = registry === undefined ? [] : [registry];
  if ("desc" in d) {
    // A detail made in this process, not read from the wire.
    return toProtoJsonString(
      AnySchema,
      anyPack(d.desc, create(d.desc, d.value)),
      { registry: createRegistry(...types, d.desc) },
    );
  }
  const desc = registry?.getMessage(d.type);
  if (desc === undefined) {
    return `{"@type":${quote(typeUrlPrefix + d.type)},"value":${quote(base64Encode(d.value))}}`;
  }
  return toProtoJsonString(
    AnySchema,
    anyPack(desc, fromBinary(desc, d.value)),
    {
      registry: createRegistry(...types, desc),
    },
  );
}
