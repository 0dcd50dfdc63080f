// What every client's answers must satisfy (docs/mcp.md): a successful
// result valid against the tool's outputSchema (ajv, draft 2020-12, with
// formats) with the same JSON as text, error results as one text block,
// handles where the server uses them.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { expect } from "vitest";
import {
  handleKey,
  type CallResult,
  type ListedTool,
  type Outcome,
} from "./steps.js";

/** A UUID anywhere in a text. */
export const uuidRe =
  /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/;

/** A conversation handle: 128 random bits, base64url without padding. */
export const handleRe = /^[A-Za-z0-9_-]{22,}$/;

const addFormats = formats as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
const compiled = new Map<string, ValidateFunction>();

/** The ajv validator of a schema (compiled once per distinct schema). */
export function validatorOf(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (v === undefined) {
    v = ajv.compile(schema);
    compiled.set(key, v);
  }
  return v;
}

/** The output schemas of a listing, by tool name. */
export function outputSchemas(
  tools: readonly ListedTool[],
): Map<string, object> {
  return new Map(
    tools.map((t) => [t.name, t.outputSchema ?? {}] as [string, object]),
  );
}

/** How the server answers: with handles (2026-07-28 HTTP) or without. */
export interface Expect {
  readonly handles: boolean;
  /** A label for failure messages: language, transport, client. */
  readonly label: string;
}

/**
 * A successful result: structuredContent valid against the tool's output
 * schema, the first text block the same JSON; with handles, the handle in
 * `_meta` and a second text block `conversation: <handle>`. Returns the
 * structured content.
 */
export function expectOk(
  outcome: Outcome | undefined,
  tool: string,
  schemas: Map<string, object>,
  e: Expect,
): Record<string, unknown> {
  const where = `${e.label}: ${tool}`;
  expect(outcome?.error, where).toBeUndefined();
  const r = outcome?.result as CallResult;
  expect(r.isError ?? false, `${where}: ${r.content[0]?.text}`).toBe(false);
  const validate = validatorOf(schemas.get(tool) ?? {});
  expect(
    validate(r.structuredContent),
    `${where}: ${JSON.stringify(validate.errors)}`,
  ).toBe(true);
  expect(r.content[0]?.type, where).toBe("text");
  expect(JSON.parse(r.content[0]?.text ?? "null"), where).toEqual(
    r.structuredContent,
  );
  if (e.handles) {
    const handle = r._meta?.[handleKey];
    expect(handle, where).toMatch(handleRe);
    expect(r.content.slice(1), where).toEqual([
      { type: "text", text: `conversation: ${String(handle)}` },
    ]);
  } else {
    expect(r._meta?.[handleKey], where).toBeUndefined();
    expect(r.content.length, where).toBe(1);
  }
  return r.structuredContent!;
}

/** An isError result: one text block, no handle; its text. */
export function expectToolError(
  outcome: Outcome | undefined,
  tool: string,
  e: Expect,
): string {
  const where = `${e.label}: ${tool}`;
  expect(outcome?.error, where).toBeUndefined();
  const r = outcome?.result as CallResult;
  expect(r.isError, where).toBe(true);
  expect(r.content.length, where).toBe(1);
  expect(r.content[0]?.type, where).toBe("text");
  expect(r._meta?.[handleKey], where).toBeUndefined();
  return r.content[0]!.text!;
}

/** The handle a result carries in `_meta`. */
export function handleOf(outcome: Outcome | undefined): unknown {
  return outcome?.result?._meta?.[handleKey];
}

/**
 * A listing in a comparable form: per tool its name, description, input
 * and output schemas and annotations, every hint as listed (each server
 * writes all four of a generated tool, false ones too; docs/mcp.md "Tool
 * hints"); other keys kept, so that an extra one shows.
 */
export function comparable(tools: readonly ListedTool[]): ListedTool[] {
  return tools.map((t) => ({ ...t }));
}
