import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import type { ToolHintOptions } from "../read/annotations.js";
import type { DescMethod } from "../read/descriptors.js";
import { methodKind } from "../schema/method-kind.js";

/** A tool's MCP hints (docs/mcp.md, "Tool hints"), every one decided. */
export interface ToolHints {
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  readonly openWorld: boolean;
}

type Mutable = { -readonly [K in keyof ToolHints]: ToolHints[K] };

/**
 * The MCP hints of a method: from the AIP standard method kind its name
 * shows (Get, List, Search, Watch, BatchGet read; Create, BatchCreate
 * additive; Update, Delete and their Batch forms destructive; any other
 * method destructive, as MCP assumes), then its `idempotency_level`
 * (NO_SIDE_EFFECTS reads, IDEMPOTENT is idempotent), then each field set
 * in the `rpc_tool` option's `hints` (`set`, as tool selection decoded it:
 * the candidate's definition). openWorld is false unless set there.
 */
export function toolHints(
  method: DescMethod,
  set: ToolHintOptions | undefined,
): ToolHints {
  const hints: Mutable = {
    readOnly: false,
    destructive: true,
    idempotent: false,
    openWorld: false,
  };
  const kind = methodKind(method.name);
  if (kind === "read" || kind === "list") {
    Object.assign(hints, {
      readOnly: true,
      destructive: false,
      idempotent: true,
    });
  } else if (kind === "create") {
    hints.destructive = false;
  }
  const level = method.idempotency;
  if (level === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS) {
    Object.assign(hints, {
      readOnly: true,
      destructive: false,
      idempotent: true,
    });
  } else if (level === MethodOptions_IdempotencyLevel.IDEMPOTENT) {
    hints.idempotent = true;
  }
  if (set !== undefined) {
    for (const key of [
      "readOnly",
      "destructive",
      "idempotent",
      "openWorld",
    ] as const) {
      const value = set[key];
      if (value !== undefined) {
        hints[key] = value;
      }
    }
  }
  return hints;
}
