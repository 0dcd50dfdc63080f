#!/usr/bin/env node
// The Go module of the annotations, github.com/protoc-gen-ai-tools/
// protoc-gen-ai-tools/proto (proto/go.mod): a user's .pb.go imports the
// go_package of ai/tools/v1/annotations.proto, so its generated code is
// committed there, made by this script with buf and the pinned
// protoc-gen-go (.tools/bin, scripts/install.sh).
//
//   node scripts/annotations-go.mjs           writes proto/ai/tools/v1/annotations.pb.go
//   node scripts/annotations-go.mjs --check   fails when it is not what it would write
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const proto = "ai/tools/v1/annotations.proto";
const generated = join(root, "proto", "ai/tools/v1/annotations.pb.go");
const protocGenGo = join(root, ".tools", "bin", "protoc-gen-go");

function fail(message) {
  console.error(`annotations-go: ${message}`);
  process.exit(1);
}

const args = process.argv.slice(2);
if (args.length > 1 || (args.length === 1 && args[0] !== "--check")) {
  fail(`unknown arguments "${args.join(" ")}": use --check or nothing`);
}
if (!existsSync(protocGenGo)) {
  fail(`${protocGenGo} not found: run bash scripts/install.sh`);
}

const out = mkdtempSync(join(tmpdir(), "ai-tools-annotations-go-"));
try {
  const template = {
    version: "v2",
    plugins: [{ local: protocGenGo, out, opt: ["paths=source_relative"] }],
  };
  execFileSync(
    join(root, "node_modules", ".bin", "buf"),
    [
      "generate",
      "proto",
      "--path",
      `proto/${proto}`,
      "--template",
      JSON.stringify(template),
    ],
    { cwd: root, stdio: ["ignore", "inherit", "inherit"] },
  );
  const made = readFileSync(join(out, "ai/tools/v1/annotations.pb.go"));
  if (args[0] === "--check") {
    if (!existsSync(generated) || !readFileSync(generated).equals(made)) {
      fail(
        "proto/ai/tools/v1/annotations.pb.go is not generated from proto/ai/tools/v1/annotations.proto: run node scripts/annotations-go.mjs",
      );
    }
  } else {
    writeFileSync(generated, made);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
