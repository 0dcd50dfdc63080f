import { createContextKey } from "@connectrpc/connect";

/**
 * A property added to every tool's input schema (a nullable string), whose
 * value is taken out of the arguments before decoding and handed to the
 * call's context under {@link extraPropertiesKey}.
 */
export interface ExtraProperty {
  /** The property name; it may not be a property of any tool's schema. */
  readonly name: string;
  /** The property's description, shown to the model. */
  readonly description: string;
  /** Whether the property is listed in `required`. */
  readonly required?: boolean | undefined;
}

/**
 * The context key of a call's extra properties, name → value: the values
 * the call carried (absent or `null` ones left out). Interceptors of the
 * transport read it from `req.contextValues`; an in-process implementation
 * from `context.values`.
 */
export const extraPropertiesKey = createContextKey<
  Readonly<Record<string, string>>
>(Object.freeze({}), { description: "ai-tools MCP extra properties" });

/** The schema of an added property: a nullable string (no empty description). */
export function nullableString(description: string): {
  [key: string]: unknown;
} {
  return {
    anyOf: [{ type: "string" }, { type: "null" }],
    ...(description === "" ? {} : { description }),
  };
}
