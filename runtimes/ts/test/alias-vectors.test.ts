// Runs the shared alias vectors (e2e/vectors/aliases/*.json) unchanged,
// skipping the Go-only legacy registration (`registerFields` steps and
// register-fields.json) as e2e/vectors/README.md says.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ToolError,
  createAliasManager,
  type AliasManager,
  type ResponseAliases,
} from "../src/index.js";

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../e2e/vectors/aliases",
);

interface Step {
  op: string;
  prefix?: string;
  uuid?: string;
  alias?: string;
  tool?: string;
  json?: string;
  expect?: string;
  expectError?: string;
}

interface Vector {
  name: string;
  description: string;
  responseAliases?: ResponseAliases;
  knownPrefixes: string[];
  steps: Step[];
}

const files = readdirSync(dir).filter(
  (f) => f.endsWith(".json") && f !== "register-fields.json",
);

describe("alias vectors", () => {
  it("finds the vector files", () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  for (const file of files) {
    const vector = JSON.parse(
      readFileSync(path.join(dir, file), "utf8"),
    ) as Vector;
    it(`${file}: ${vector.description}`, () => {
      const config = {
        knownAliasPrefixes: vector.knownPrefixes,
        responseAliases: vector.responseAliases ?? { types: {}, tools: {} },
      };
      let m: AliasManager = createAliasManager(config);
      vector.steps.forEach((step, i) => {
        const where = `${file} step ${i} (${step.op})`;
        const s = (v: string | undefined) => {
          if (v === undefined) throw new Error(`${where}: missing field`);
          return v;
        };
        switch (step.op) {
          case "register":
            expect(m.register(s(step.prefix), s(step.uuid)), where).toBe(
              step.expect,
            );
            break;
          case "resolveAlias":
            expect(m.resolveAlias(s(step.alias)), where).toBe(step.expect);
            break;
          case "registerResponse":
            m.registerResponse(s(step.tool), s(step.json));
            break;
          case "registerFields":
            break; // legacy, Go only
          case "aliasify":
            expect(m.aliasifyJson(s(step.json)), where).toBe(step.expect);
            break;
          case "resolve":
            if (step.expectError !== undefined) {
              let err: unknown;
              try {
                m.resolveJson(s(step.json));
              } catch (e) {
                err = e;
              }
              expect(err, where).toBeInstanceOf(ToolError);
              expect((err as ToolError).message, where).toBe(step.expectError);
              expect((err as ToolError).reason, where).toBe("unknown-alias");
            } else {
              expect(m.resolveJson(s(step.json)), where).toBe(step.expect);
            }
            break;
          case "resolveUnchecked":
            expect(m.resolveJsonUnchecked(s(step.json)), where).toBe(
              step.expect,
            );
            break;
          case "export":
            expect(m.exportState(), where).toBe(step.expect);
            break;
          case "restore":
            if (step.expectError !== undefined) {
              expect(() => m.restoreState(s(step.json)), where).toThrow(
                step.expectError,
              );
            } else {
              m.restoreState(s(step.json));
            }
            break;
          case "reset":
            m = createAliasManager(config);
            break;
          default:
            throw new Error(`${where}: unknown op`);
        }
      });
    });
  }
});
