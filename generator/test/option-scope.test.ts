import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The advice of docs/annotations.md for packages with an `ai` segment below
// the top (`google.ai.…`, `acme.ai.…`): protoc resolves
// `(ai.tools.v1.rpc_tool)` from the innermost scope, so the option must be
// written with a leading dot.

const root = resolve(import.meta.dirname, "..", "..");
const plugin = join(root, "node_modules", ".bin", "protoc-gen-ai-tools");
const dir = mkdtempSync(join(tmpdir(), "ai-tools-scope-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** protoc with the plugin (target=go) on one file of package `pkg`. */
function compile(pkg: string, option: string) {
  const file = `${pkg.replaceAll(".", "/")}/demo.proto`;
  mkdirSync(join(dir, "src", pkg.replaceAll(".", "/")), { recursive: true });
  writeFileSync(
    join(dir, "src", file),
    `syntax = "proto3";
package ${pkg};
import "ai/tools/v1/annotations.proto";
option go_package = "example.com/demo;demo";
service DemoService {
  rpc Ping(PingRequest) returns (PingResponse) {
    option ${option} = {name: "demo_ping", description: "Ping.", auto_execute: true};
  }
}
message PingRequest {
  string id = 1 [${option.replace("rpc_tool", "tool_field")} = {alias_prefix: "demo"}];
}
message PingResponse {}
`,
  );
  const out = join(dir, "out", pkg);
  mkdirSync(out, { recursive: true });
  const res = spawnSync(
    "protoc",
    [
      `-I${join(dir, "src")}`,
      `-I${join(root, "proto")}`,
      `--plugin=protoc-gen-ai-tools=${plugin}`,
      `--ai-tools_out=${out}`,
      "--ai-tools_opt=target=go",
      file,
    ],
    { encoding: "utf8" },
  );
  return { ...res, out: join(out, "ai_tools.gen.go") };
}

describe("options in a package with an `ai` segment", () => {
  for (const pkg of ["google.ai.demo.v1", "acme.ai.v1"]) {
    it(`${pkg}: (ai.tools.v1.rpc_tool) is resolved inside the package`, () => {
      const res = compile(pkg, "(ai.tools.v1.rpc_tool)");
      expect(res.status).not.toBe(0);
      const outer = pkg.slice(0, pkg.indexOf(".ai.") + 3);
      expect(res.stderr).toContain(
        `is resolved to "(${outer}.tools.v1.rpc_tool)", which is not defined`,
      );
    });

    it(`${pkg}: (.ai.tools.v1.rpc_tool) is read`, () => {
      const res = compile(pkg, "(.ai.tools.v1.rpc_tool)");
      expect(res.stderr).toBe("");
      expect(res.status).toBe(0);
      const go = readFileSync(res.out, "utf8");
      expect(go).toContain('Name:        "demo_ping"');
      expect(go).toContain('"demo"');
    });
  }

  it("a package whose first segment is ai needs no dot", () => {
    const res = compile("ai.demo.v1", "(ai.tools.v1.rpc_tool)");
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);
  });
});
