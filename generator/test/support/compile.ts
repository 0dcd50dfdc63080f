import {
  mkdtempSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { create, fromBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorSetSchema,
  type CodeGeneratorRequest,
} from "@bufbuild/protobuf/wkt";

const repoRoot = resolve(import.meta.dirname, "..", "..", "..");
const buf = join(repoRoot, "node_modules", ".bin", "buf");

/** Inline proto sources, by file name. */
export type ProtoSources = Record<string, string>;

/**
 * Compile inline protos with buf (the repository's proto/ and a
 * google/api/field_behavior.proto are importable) into a
 * CodeGeneratorRequest generating every inline file.
 */
export function compileRequest(
  sources: ProtoSources,
  parameter = "target=go",
): CodeGeneratorRequest {
  const dir = mkdtempSync(join(tmpdir(), "ai-tools-test-"));
  try {
    for (const [name, content] of Object.entries(sources)) {
      mkdirSync(dirname(join(dir, "src", name)), { recursive: true });
      writeFileSync(join(dir, "src", name), content);
    }
    symlinkSync(join(repoRoot, "proto"), join(dir, "annotations"));
    symlinkSync(
      join(repoRoot, "generator", "testdata", "include"),
      join(dir, "include"),
    );
    writeFileSync(
      join(dir, "buf.yaml"),
      "version: v2\nmodules:\n  - path: src\n  - path: annotations\n  - path: include\n",
    );
    execFileSync(buf, ["build", "src", "-o", "image.binpb"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const set = fromBinary(
      FileDescriptorSetSchema,
      readFileSync(join(dir, "image.binpb")),
    );
    return create(CodeGeneratorRequestSchema, {
      parameter,
      protoFile: set.file,
      fileToGenerate: Object.keys(sources),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
