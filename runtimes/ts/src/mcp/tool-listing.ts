import { deepFreeze } from "../deep-freeze.js";
import {
  conversationArgument,
  conversationArgumentDescription,
} from "./conversation-handle.js";
import { nullableString, type ExtraProperty } from "./extra-properties.js";
import type { McpToolMethod } from "./mcp-tool.js";
import { servedSchema, type McpProvider } from "./provider-form.js";

/** A tool as `tools/list` lists it. */
export interface ListedTool {
  /** The tool name. */
  readonly name: string;
  /** The tool's description. */
  readonly description: string;
  /** The tool's schema plus the extra properties and the handle property. */
  readonly inputSchema: { type: "object"; [key: string]: unknown };
  /** The JSON Schema of `structuredContent`. */
  readonly outputSchema: { type: "object"; [key: string]: unknown };
  /** The hints the tool's method sets, when it sets any. */
  readonly annotations?: ToolHints;
}

/** MCP's tool annotations that hint at what a call does. */
export interface ToolHints {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** The hints, in the order they are listed. */
const hintNames = [
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
] as const;

/**
 * The listing of one tool under name: its input schema (`provider`'s
 * generated form, or its `parameters`) with the extra
 * properties and (with `handleArgument`) the handle property added as
 * nullable strings, listed in `required` in a strict tool (only the
 * required extras elsewhere). Throws an Error naming the tool when an added
 * property is already one of its properties. The listing is frozen, and
 * shares the parts of a frozen schema (a tool of `defineTool`): a server
 * of many tools holds each schema once, and lists it without copying.
 */
export function listTool(
  name: string,
  m: McpToolMethod,
  extras: readonly ExtraProperty[],
  handleArgument: boolean,
  provider?: McpProvider,
): ListedTool {
  const served = servedSchema(m.tool, provider);
  const schema = Object.isFrozen(served) ? served : structuredClone(served);
  const properties = { ...(schema["properties"] ?? {}) } as {
    [key: string]: unknown;
  };
  const required = [...((schema["required"] ?? []) as string[])];
  const added: { name: string; description: string; required: boolean }[] =
    extras.map((e) => ({
      name: e.name,
      description: e.description,
      required: e.required === true,
    }));
  if (handleArgument) {
    added.push({
      name: conversationArgument,
      description: conversationArgumentDescription,
      required: false,
    });
  }
  for (const a of added) {
    if (Object.hasOwn(properties, a.name)) {
      throw new Error(
        `tool ${JSON.stringify(name)} already has a property ${JSON.stringify(a.name)}: rename the extra property`,
      );
    }
    properties[a.name] = nullableString(a.description);
    if (a.required || m.tool.strict) {
      required.push(a.name);
    }
  }
  const listed: {
    -readonly [K in keyof ListedTool]: ListedTool[K];
  } = {
    name,
    description: m.tool.description,
    inputSchema: {
      ...schema,
      properties,
      ...(required.length > 0 ? { required } : {}),
      type: "object",
    },
    outputSchema: {
      ...((typeof m.outputSchema === "string"
        ? JSON.parse(m.outputSchema)
        : structuredClone(m.outputSchema)) as { [key: string]: unknown }),
      type: "object",
    },
  };
  const hints = hintsOf(m);
  if (hints !== undefined) {
    listed.annotations = hints;
  }
  return deepFreeze(listed);
}

/**
 * Every hint `m` sets, true or false, in the order readOnlyHint,
 * destructiveHint, idempotentHint, openWorldHint; undefined when it sets
 * none (a hand-written method).
 */
function hintsOf(m: McpToolMethod): ToolHints | undefined {
  const hints: { -readonly [K in keyof ToolHints]: boolean } = {};
  for (const name of hintNames) {
    const value = m[name];
    if (value !== undefined) {
      hints[name] = value;
    }
  }
  return Object.keys(hints).length > 0 ? hints : undefined;
}
