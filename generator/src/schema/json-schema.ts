/** A JSON value, as schemas and tool arguments hold them. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema node: a JSON object. */
export type JsonSchema = { [key: string]: JsonValue };
