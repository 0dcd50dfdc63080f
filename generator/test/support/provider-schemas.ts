import type { ProviderViolation } from "../../src/providers/schema-walk.js";

/** A JSON Schema node in a test. */
export type Schema = Record<string, unknown>;

/**
 * An object schema with every property required, closed
 * (`additionalProperties: false`) unless `extra` says otherwise.
 */
export function obj(
  properties: Record<string, unknown>,
  extra: Schema = {},
): Schema {
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...extra,
  };
}

/** Violations as `<path> <rule>` lines, for short assertions. */
export function rules(v: readonly ProviderViolation[]): string[] {
  return v.map((x) => `${x.path} ${x.rule}`);
}
