// Runs the shared argument-check vectors (e2e/vectors/arguments/*.json)
// unchanged: stage 1 (one JSON object) and stage 2 (the structure check)
// against each vector's argument table, read from its JSON text as
// generated code hands it over, and the model-facing text of the error.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkArguments, readArguments } from "../src/argument-check.js";
import { parseArgumentTable } from "../src/argument-table.js";
import { stringifyJson } from "../src/json.js";
import { violationError, type Violation } from "../src/violations.js";

interface ArgumentCase {
  readonly name: string;
  readonly args: string;
  readonly arguments?: unknown;
  readonly lenient?: boolean;
  readonly extraRoot?: readonly string[];
  readonly expect: readonly Violation[];
  readonly text?: string;
  /** The arguments after the check (FieldMask values rewritten). */
  readonly checked?: unknown;
}

interface ArgumentVector {
  readonly name: string;
  readonly arguments?: unknown;
  readonly cases: readonly ArgumentCase[];
}

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/arguments",
);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();

/**
 * Stages 1 and 2, as the executor runs them: the violations, and the
 * arguments after the check as plain JSON (undefined after stage 1).
 */
function check(c: ArgumentCase, table: unknown): [Violation[], unknown] {
  const { args, violation } = readArguments(c.args);
  if (violation !== undefined) {
    return [[violation], undefined];
  }
  const violations = checkArguments(
    args,
    parseArgumentTable("tool", JSON.stringify(table)),
    { lenient: c.lenient, extraRoot: new Set(c.extraRoot ?? []) },
  );
  return [violations, JSON.parse(stringifyJson(args))];
}

describe("argument vectors", () => {
  it("finds the vector files", () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });
  for (const file of files) {
    const vector = JSON.parse(
      readFileSync(path.join(dir, file), "utf8"),
    ) as ArgumentVector;
    describe(file, () => {
      for (const c of vector.cases) {
        it(c.name, () => {
          const [got, args] = check(c, c.arguments ?? vector.arguments);
          expect(got).toEqual(c.expect);
          if (c.expect.length > 0) {
            expect(violationError(got).message).toBe(c.text);
          }
          if (c.checked !== undefined) {
            expect(args).toEqual(c.checked);
          }
        });
      }
    });
  }
});

describe("lenient checks", () => {
  const table = parseArgumentTable(
    "tool",
    '{"nodes":[{"fields":{"target_url":{"json":"targetUrl"},"inner":{"node":1,"json":"innerMessage"}},"required":["target_url"]},{"fields":{"page_size":{}},"required":["page_size"]}]}',
  );
  const lenient = (text: string) =>
    checkArguments(readArguments(text).args!, table, { lenient: true });

  it("read a proto name given as null by its JSON name, as Go and Python do", () => {
    expect(lenient('{"target_url":null,"targetUrl":"u"}')).toEqual([]);
    expect(
      lenient('{"target_url":"u","inner":null,"innerMessage":{}}'),
    ).toEqual([
      {
        field: "inner.page_size",
        reason: "required",
        message: "missing required field",
      },
    ]);
    expect(lenient('{"target_url":null}')).toEqual([
      {
        field: "target_url",
        reason: "required",
        message: "missing required field",
      },
    ]);
  });
});
