// Type-checking a sampled TypeScript output of the plugin fuzz test
// (fuzz-plugin.test.ts, timed runs): as ts-parity.test.ts does, next to the
// protoc-gen-es output of its proto files, under the project's tsc.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { strictCompilerOptions } from "../support/strict-tsconfig.js";

const repoRoot = resolve(import.meta.dirname, "..", "..", "..");
const generatorDir = join(repoRoot, "generator");
const runtimeDir = join(repoRoot, "runtimes", "ts");

/** Run a command in cwd; its output when it fails, else undefined. */
function failing(cmd: string, args: string[], cwd: string): string | undefined {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: 240_000 });
  return r.status === 0
    ? undefined
    : `${cmd} ${args.join(" ")}:\n${r.stdout}${r.stderr}${r.error?.message ?? ""}`;
}

/**
 * Type-check the TypeScript files the plugin wrote for one proto file
 * (`ts_import_path` left at `.`): protoc-gen-es writes the `_pb.ts` files of
 * the file and of its imports next to them, @bufbuild/protobuf,
 * @connectrpc/connect and the built runtimes/ts are linked in, and the
 * pinned tsc checks them with the tests' strict options. The compiler's
 * complaint, or undefined.
 */
export function compileTs(
  file: { name: string; text: string },
  outputs: readonly { name: string; content: string }[],
): string | undefined {
  if (!existsSync(join(runtimeDir, "dist", "index.d.ts"))) {
    return "runtimes/ts is not built: run `pnpm build` (turbo builds it before the fuzz task)";
  }
  const dir = mkdtempSync(join(tmpdir(), "ai-tools-fuzz-ts-"));
  try {
    const protoDir = join(dir, "proto");
    mkdirSync(dirname(join(protoDir, file.name)), { recursive: true });
    writeFileSync(join(protoDir, file.name), file.text);
    const imported = [...file.text.matchAll(/^import "(.*)";$/gm)]
      .map((m) => m[1]!)
      .filter((f) => !f.startsWith("google/protobuf/"));
    const out = join(dir, "ts");
    const links: [string, string][] = [
      [
        "@bufbuild/protobuf",
        join(generatorDir, "node_modules", "@bufbuild", "protobuf"),
      ],
      [
        "@connectrpc/connect",
        join(generatorDir, "node_modules", "@connectrpc", "connect"),
      ],
      ["@protoc-gen-ai-tools/runtime", runtimeDir],
    ];
    for (const [name, target] of links) {
      const at = join(out, "node_modules", name);
      mkdirSync(dirname(at), { recursive: true });
      symlinkSync(target, at);
    }
    writeFileSync(
      join(out, "package.json"),
      JSON.stringify({ type: "module", private: true }),
    );
    const protoc = failing(
      "protoc",
      [
        `-I${protoDir}`,
        `-I${join(repoRoot, "proto")}`,
        `-I${join(generatorDir, "testdata", "include")}`,
        `--plugin=protoc-gen-es=${join(generatorDir, "node_modules", ".bin", "protoc-gen-es")}`,
        `--es_out=${out}`,
        "--es_opt=target=ts,import_extension=js",
        file.name,
        ...imported,
      ],
      dir,
    );
    if (protoc !== undefined) return protoc;
    for (const o of outputs) writeFileSync(join(out, o.name), o.content);
    writeFileSync(
      join(out, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: strictCompilerOptions,
        files: outputs.map((o) => o.name),
      }),
    );
    return failing(
      join(repoRoot, "node_modules", ".bin", "tsc"),
      ["-p", "tsconfig.json"],
      out,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
