import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/plugin.js";
import { formatTs } from "../src/targets/ts/build-ts-view.js";
import { compileRequest } from "./support/compile.js";
import { modelOf, toolOf } from "./support/model.js";
import { paths } from "./support/request.js";

// Approvals and scopes (issue 33, docs/mcp.md "Approvals"): the
// annotation's required_scopes, sorted without repeats, and needsApproval:
// an annotated tool asks unless it sets auto_execute; under tools=all an
// unannotated one follows unannotated_tools (read-only-run by default).

const proto = (scopes = `"b.write", "a.read", "b.write"`) => `syntax = "proto3";
package ap.v1;
import "ai/tools/v1/annotations.proto";
option go_package = "example.com/ap/v1;apv1";
message R { string a = 1; }
service S {
  rpc GetThing(R) returns (R);
  rpc Touch(R) returns (R) { option idempotency_level = NO_SIDE_EFFECTS; }
  rpc RenameThing(R) returns (R);
  rpc Archive(R) returns (R) {
    option (ai.tools.v1.rpc_tool) = {name: "archive", description: "d", required_scopes: [${scopes}]};
  }
  rpc Create(R) returns (R) {
    option (ai.tools.v1.rpc_tool) = {name: "create", description: "d", auto_execute: true, required_scopes: "c", required_scopes: "c"};
  }
  rpc ListThings(R) returns (R) {
    option (ai.tools.v1.rpc_tool) = {name: "list", description: "d"};
  }
}
`;

const derived = {
  get: "ap_v1_S_GetThing",
  touch: "ap_v1_S_Touch",
  rename: "ap_v1_S_RenameThing",
};

function modelWith(parameter: string, scopes?: string) {
  return modelOf(
    compileRequest({ "ap/v1/ap.proto": proto(scopes) }, parameter),
  );
}

describe("required_scopes", () => {
  const model = modelWith("target=go");

  it("are sorted without repeats", () => {
    expect(toolOf(model, "archive").requiredScopes).toEqual([
      "a.read",
      "b.write",
    ]);
    expect(toolOf(model, "create").requiredScopes).toEqual(["c"]);
    expect(toolOf(model, "list").requiredScopes).toEqual([]);
  });

  it.each([
    [`""`, "an empty value"],
    [`"a b"`, `"a b", which is no scope token`],
    [`"a\\"b"`, `"a\\"b", which is no scope token`],
    [`"a\\\\b"`, `"a\\\\b", which is no scope token`],
    [`"é"`, `"é", which is no scope token`],
  ])("refuses %s, naming file, method and fix", (scope, what) => {
    expect(() => modelWith("target=go", scope)).toThrow(
      `ap/v1/ap.proto: S.Archive: tool "archive" has required_scopes ${what}`,
    );
    expect(() => modelWith("target=go", scope)).toThrow(
      `write each scope as its own value, e.g. required_scopes: ["links.read", "links.write"]`,
    );
  });

  it("accept every other printable ASCII character", () => {
    const all = Array.from({ length: 0x7e - 0x20 }, (_, i) =>
      String.fromCharCode(0x21 + i),
    )
      .filter((c) => c !== '"' && c !== "\\")
      .join("");
    const scope = JSON.stringify(all);
    expect(
      toolOf(modelWith("target=go", scope), "archive").requiredScopes,
    ).toEqual([all]);
  });
});

describe("needsApproval", () => {
  it("asks for an annotated tool without auto_execute, whatever its hints", () => {
    const model = modelWith("target=go");
    expect(toolOf(model, "archive").needsApproval).toBe(true);
    expect(toolOf(model, "list").needsApproval).toBe(true);
    expect(toolOf(model, "create").needsApproval).toBe(false);
  });

  it.each([
    ["", { get: false, touch: false, rename: true }],
    [
      ",unannotated_tools=read-only-run",
      { get: false, touch: false, rename: true },
    ],
    [",unannotated_tools=run", { get: false, touch: false, rename: false }],
    [",unannotated_tools=ask", { get: true, touch: true, rename: true }],
  ])("tools=all%s: unannotated tools", (option, expected) => {
    const model = modelWith(`target=go,tools=all${option}`);
    for (const [key, name] of Object.entries(derived)) {
      expect([name, toolOf(model, name).needsApproval]).toEqual([
        name,
        expected[key as keyof typeof expected],
      ]);
    }
    expect(toolOf(model, "archive").needsApproval).toBe(true);
    expect(toolOf(model, "create").needsApproval).toBe(false);
  });
});

function generated(parameter: string, scopes?: string): Map<string, string> {
  const request = compileRequest(
    { "ap/v1/ap.proto": proto(scopes) },
    parameter,
  );
  return new Map(generate(request, () => {}).map((f) => [f.name, f.content]));
}

/**
 * The entry of a tool in a generated file: from `marker` (its first line)
 * to the end of the entry, `}` (TypeScript) or `)` (Python) at `indent`.
 */
function entryOf(source: string, marker: string, end = "\n  }"): string {
  const start = source.indexOf(marker);
  expect(start).toBeGreaterThanOrEqual(0);
  return source.slice(start, source.indexOf(end, start));
}

const pyEnd = "\n    )";

describe("generated entries", () => {
  it("typescript: requiredScopes and needsApproval on MCP and executor entries, prettier-formatted", () => {
    const files = generated("target=ts,tools=all,mcp=true");
    const mcp = files.get("ai_tools_mcp.gen.ts")!;
    expect(entryOf(mcp, "tool: aiTools.archive,")).toContain(
      `requiredScopes: ["a.read", "b.write"],`,
    );
    expect(entryOf(mcp, "tool: aiTools.archive,")).toContain(
      "needsApproval: true,",
    );
    expect(entryOf(mcp, "tool: aiTools.create,")).not.toContain(
      "needsApproval",
    );
    expect(entryOf(mcp, "tool: aiTools.list,")).not.toContain("requiredScopes");
    const main = files.get("ai_tools.gen.ts")!;
    expect(entryOf(main, `${derived.rename}: {`)).toContain(
      "needsApproval: true,",
    );
    expect(entryOf(main, `${derived.get}: {`)).not.toContain("needsApproval");
    expect(formatTs(mcp)).toBe(mcp);
    expect(formatTs(main)).toBe(main);
  });

  it("typescript: a long scope list broken one scope a line as prettier does", () => {
    const scopes = ["a", "b", "c"].map((c) => `"${c.repeat(30)}"`).join(", ");
    const mcp = generated("target=ts,mcp=true", scopes).get(
      "ai_tools_mcp.gen.ts",
    )!;
    expect(mcp).toContain(
      `    requiredScopes: [\n      "${"a".repeat(30)}",\n`,
    );
    expect(formatTs(mcp)).toBe(mcp);
  });

  it("python: required_scopes and needs_approval keyword arguments", () => {
    const files = generated("target=py,tools=all,mcp=true");
    const mcp = files.get("ai_tools_mcp_gen.py")!;
    const archive = entryOf(mcp, "tool=ai_tools_gen.ARCHIVE,", pyEnd);
    expect(archive).toContain(`required_scopes=("a.read", "b.write"),`);
    expect(archive).toContain("needs_approval=True,");
    expect(entryOf(mcp, "tool=ai_tools_gen.CREATE,", pyEnd)).toContain(
      `required_scopes=("c",),`,
    );
    expect(entryOf(mcp, "tool=ai_tools_gen.CREATE,", pyEnd)).not.toContain(
      "needs_approval",
    );
    const main = files.get("ai_tools_gen.py")!;
    expect(main).toMatch(/RenameThing[^)]*needs_approval=True,/);
  });

  const python = join(resolve(paths.generator, ".."), ".venv", "bin", "python");
  it.runIf(existsSync(python))(
    "python: a long scope tuple is what ruff format writes",
    () => {
      const scopes = ["a", "b", "c"].map((c) => `"${c.repeat(30)}"`).join(", ");
      const mcp = generated("target=py,mcp=true", scopes).get(
        "ai_tools_mcp_gen.py",
      )!;
      expect(mcp).toContain(
        `        required_scopes=(\n            "${"a".repeat(30)}",\n`,
      );
      const dir = mkdtempSync(join(tmpdir(), "ai-tools-scopes-"));
      try {
        writeFileSync(join(dir, "m.py"), mcp);
        const r = spawnSync(
          python,
          ["-m", "ruff", "format", "--isolated", "--check", "--diff", "m.py"],
          {
            cwd: dir,
            encoding: "utf8",
            env: { ...process.env, RUFF_NO_CACHE: "true" },
          },
        );
        expect(r.stdout + r.stderr).not.toContain("@@");
        expect(r.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("go: Method, RequiredScopes and NeedsApproval; approval tables", () => {
    const files = generated("target=go,tools=all,mcp=true");
    const mcp = files.get("ai_tools_mcp.gen.go")!;
    expect(mcp).toContain(`RequiredScopes: []string{"a.read", "b.write"},`);
    expect(mcp).toMatch(/Method: +"\/ap\.v1\.S\/Archive",/);
    expect(mcp).toContain(`toolNeedsApproval["archive"] = true`);
    expect(mcp).toContain(`toolMethods["archive"] = "/ap.v1.S/Archive"`);
    const main = files.get("ai_tools.gen.go")!;
    expect(main).toContain(`"${derived.rename}": true,`);
    expect(main).toContain(`"${derived.rename}": "/ap.v1.S/RenameThing",`);
    expect(main).not.toContain(`"${derived.get}": true`);
  });
});
