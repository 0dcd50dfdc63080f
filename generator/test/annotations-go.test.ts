import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The annotations' Go module (proto/go.mod), which a user's .pb.go imports
// through the go_package of ai/tools/v1/annotations.proto: its generated
// code is committed, made by `node scripts/annotations-go.mjs`.

const root = resolve(import.meta.dirname, "..", "..");
const moduleDir = join(root, "proto");
const goPackage =
  "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/proto/ai/tools/v1";

function run(command: string, args: string[], cwd: string) {
  return spawnSync(command, args, { cwd, encoding: "utf8" });
}

describe("the annotations' Go module", () => {
  it("holds what scripts/annotations-go.mjs generates", () => {
    const res = run("node", ["scripts/annotations-go.mjs", "--check"], root);
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);
  });

  it("is the go_package's module and needs only google.golang.org/protobuf", () => {
    const goMod = readFileSync(join(moduleDir, "go.mod"), "utf8");
    const proto = readFileSync(
      join(moduleDir, "ai/tools/v1/annotations.proto"),
      "utf8",
    );
    expect(proto).toContain(`option go_package = "${goPackage};toolsv1";`);
    expect(goPackage.startsWith(/^module (\S+)$/m.exec(goMod)![1]! + "/")).toBe(
      true,
    );
    const list = run(
      "go",
      [
        "list",
        "-deps",
        "-f",
        "{{if not .Standard}}{{.ImportPath}}{{end}}",
        "./...",
      ],
      moduleDir,
    );
    expect(list.stderr).toBe("");
    const imported = list.stdout.split("\n").filter((p) => p !== "");
    expect(imported).toContain(goPackage);
    for (const path of imported) {
      expect(
        path === goPackage || path.startsWith("google.golang.org/protobuf/"),
        path,
      ).toBe(true);
    }
  });

  it("is gofmt-clean and go vet-clean", () => {
    const vet = run("go", ["vet", "./..."], moduleDir);
    expect(vet.stderr).toBe("");
    expect(vet.status).toBe(0);
    const fmt = run("gofmt", ["-l", "."], moduleDir);
    expect(fmt.stdout).toBe("");
    expect(fmt.status).toBe(0);
  });
});
