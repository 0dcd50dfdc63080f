import { violationError } from "../violations.js";
import {
  conversationArgument,
  conversationMetaKey,
} from "./conversation-handle.js";
import type { ExtraProperty } from "./extra-properties.js";

/** The arguments of one `tools/call`, the added properties taken out. */
export interface CallArguments {
  /** The tool's own arguments. */
  readonly args: Record<string, unknown>;
  /** The extra properties given, name → value (absent or `null` left out). */
  readonly extras: Record<string, string>;
  /**
   * The conversation handle asked for: `_meta`'s, else the argument's (with
   * `handleArgument`); undefined for none (absent, `null` or empty).
   */
  readonly handle: string | undefined;
}

/** What {@link takeCallArguments} needs of the server's options. */
export interface CallArgumentOptions {
  /** The extra properties of every tool. */
  readonly extraProperties?: readonly ExtraProperty[] | undefined;
  /** Whether the handle may be the argument `conversation`. */
  readonly handleArgument?: boolean | undefined;
}

/**
 * Take the extra properties and the handle out of a call's arguments
 * (docs/mcp.md, "Calls" step 1 and "Conversations"), leaving `argsIn` as it
 * is. Each must be a string or `null` (absent), a required extra given;
 * `_meta`'s handle wins over the argument. Returns the model-facing
 * message, `invalid arguments, nothing was sent:` and a line, of arguments
 * that are not so.
 */
export function takeCallArguments(
  argsIn: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
  options: CallArgumentOptions,
): CallArguments | string {
  const args = { ...argsIn };
  const extraProperties = options.extraProperties ?? [];
  const names = extraProperties.map((e) => e.name);
  if (options.handleArgument === true) {
    names.push(conversationArgument);
  }
  const values: Record<string, string> = {};
  for (const name of names) {
    const v = Object.hasOwn(args, name) ? args[name] : undefined;
    delete args[name];
    if (v === undefined || v === null) {
      continue;
    }
    if (typeof v !== "string") {
      return mustBeString(name);
    }
    values[name] = v;
  }
  for (const e of extraProperties) {
    if (e.required === true && !Object.hasOwn(values, e.name)) {
      return violationError([
        {
          field: e.name,
          reason: "required",
          message: "missing required field",
        },
      ]).message;
    }
  }
  const inMeta = meta?.[conversationMetaKey] ?? null;
  if (inMeta !== null && typeof inMeta !== "string") {
    return mustBeString(conversationMetaKey);
  }
  let handle = inMeta ?? "";
  if (options.handleArgument === true) {
    if (handle === "") {
      handle = values[conversationArgument] ?? "";
    }
    delete values[conversationArgument];
  }
  return {
    args,
    extras: values,
    handle: handle === "" ? undefined : handle,
  };
}

function mustBeString(name: string): string {
  return violationError([
    { field: name, reason: "invalid-value", message: "must be a string" },
  ]).message;
}
