import { GeneratorError } from "../../errors.js";
import type { TargetOption } from "../registry.js";

/**
 * A Go option that changes the MCP file only (`go_connect=true`): true or
 * false, false by default.
 */
export function goMcpOnlyOption(key: string): TargetOption {
  return {
    default: "false",
    check: (v) =>
      v === "true" || v === "false" ? undefined : "valid values: true, false",
    example: `${key}=true`,
  };
}

/**
 * Whether the MCP-only option `key` is on; given without `mcp=true` it is
 * refused, naming the fix. `options` holds the common options and the
 * target's (registry.ts).
 */
export function goMcpOnlyOn(
  options: Readonly<Record<string, string>>,
  key: string,
): boolean {
  if (options[key] !== "true") {
    return false;
  }
  if (options["mcp"] !== "true") {
    throw new GeneratorError(
      `option "${key}=true" needs mcp=true (it adds to the Go MCP file, ai_tools_mcp.gen.go); add mcp=true or leave ${key} out`,
    );
  }
  return true;
}
