// Build a CodeGeneratorRequest for one test case directory with buf.
//
// Shared by scripts/golden.mjs, scripts/go-test.mjs and the vitest helper
// test/support/request.ts. One `buf build` call per case; nothing is cached
// across processes.
//
// Include paths, in this order: <repo>/proto (ai/tools/v1/annotations.proto),
// generator/testdata/include (google/api/field_behavior.proto,
// ai/context/v1/*.proto) and the case directory itself. The well-known types
// come from buf. Each include path becomes one module of a throw-away buf v2
// workspace (a temporary directory of symlinks, passed with --config), and
// the case's files are targeted with --path, so the output holds exactly the
// case's files and everything they import, with source info, in topological
// order.

import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { create, fromBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";

const here = path.dirname(fileURLToPath(import.meta.url));

/** generator/ */
export const generatorDir = path.resolve(here, "..", "..");
/** The repository root. */
export const repoRoot = path.resolve(generatorDir, "..");
/** generator/testdata */
export const testdataDir = path.join(generatorDir, "testdata");
/** generator/testdata/protos: one subdirectory per golden case. */
export const protosDir = path.join(testdataDir, "protos");
/** generator/testdata/bad: one subdirectory per generation error. */
export const badDir = path.join(testdataDir, "bad");
/** generator/testdata/include: test copies of third-party annotations. */
export const includeDir = path.join(testdataDir, "include");
/** <repo>/proto: the project's own annotations. */
export const protoDir = path.join(repoRoot, "proto");
/** generator/test-go: the Go module that compiles and tests golden files. */
export const testGoDir = path.join(generatorDir, "test-go");
/** generator/test-go/golden: one directory per case. */
export const goldenDir = path.join(testGoDir, "golden");

/** Go module path of generator/test-go. */
export const goModulePath = "example.com/aitools/testgo";

/** The default plugin parameter. */
export const defaultParameter = "target=go";

/** Sorted names of the case directories under `dir` (default: protos). */
export function listCases(dir = protosDir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort(byteOrder);
}

/**
 * Resolve a case argument: an absolute path; a case name under
 * testdata/protos ("schemas"); a path under testdata ("bad/client_streaming",
 * "protos/plain"); else a path relative to the working directory.
 */
export function resolveCaseDir(caseDir) {
  if (path.isAbsolute(caseDir)) return assertDir(caseDir);
  for (const base of [protosDir, testdataDir, process.cwd()]) {
    const p = path.resolve(base, caseDir);
    if (existsSync(p) && statSync(p).isDirectory()) return p;
  }
  throw new Error(
    `test case not found: ${caseDir} (looked under ${protosDir}, ${testdataDir} and ${process.cwd()})`,
  );
}

function assertDir(p) {
  if (!existsSync(p) || !statSync(p).isDirectory()) {
    throw new Error(`test case directory not found: ${p}`);
  }
  return p;
}

/** Every .proto file under `dir`, as sorted forward-slash relative paths. */
export function listProtoFiles(dir) {
  const out = [];
  const walk = (rel) => {
    const abs = path.join(dir, rel);
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      // Follow symbolic links: a case may link protos kept elsewhere
      // (testdata/protos/fixup/aitest → e2e/vectors/proto/aitest).
      const st = e.isSymbolicLink() ? statSync(path.join(abs, e.name)) : e;
      if (st.isDirectory()) walk(r);
      else if (st.isFile() && e.name.endsWith(".proto")) out.push(r);
    }
  };
  walk("");
  return out.sort(byteOrder);
}

/** Path of the buf binary of the @bufbuild/buf npm package. */
export function bufBin() {
  for (const p of [
    path.join(generatorDir, "node_modules", ".bin", "buf"),
    path.join(repoRoot, "node_modules", ".bin", "buf"),
  ]) {
    if (existsSync(p)) return p;
  }
  throw new Error(
    "buf not found in node_modules/.bin: run `npx -y pnpm@12.4.2 install` first",
  );
}

/** Run a command; resolve with stdout (a Buffer), reject with stderr in the message. */
export function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { encoding: "buffer", maxBuffer: 1 << 30, ...options },
      (err, stdout, stderr) => {
        if (err) {
          const msg = Buffer.isBuffer(stderr)
            ? stderr.toString("utf8")
            : String(stderr ?? "");
          const out = Buffer.isBuffer(stdout)
            ? stdout.toString("utf8")
            : String(stdout ?? "");
          const e = new Error(
            `${path.basename(cmd)} ${args.join(" ")} failed (${err.code ?? err.signal}):\n${msg || out || err.message}`,
          );
          e.stderr = msg;
          e.stdout = out;
          reject(e);
          return;
        }
        resolve(stdout);
      },
    );
  });
}

/**
 * Create a temporary buf workspace for a case: a directory of symlinks, one
 * per include path, and the `--config` JSON naming them as modules.
 * `dispose()` removes it.
 */
export async function makeWorkspace(caseDir) {
  const dir = resolveCaseDir(caseDir);
  const root = await mkdtemp(path.join(tmpdir(), "ai-tools-case-"));
  const modules = [
    ["proto", protoDir],
    ["include", includeDir],
    ["case", dir],
  ];
  for (const [name, target] of modules) {
    await symlink(target, path.join(root, name), "dir");
  }
  const config = JSON.stringify({
    version: "v2",
    modules: modules.map(([name]) => ({ path: name })),
  });
  return {
    root,
    caseDir: dir,
    config,
    /** Workspace-relative path of a case file. */
    casePath: (file) => `case/${file}`,
    /** Replace workspace paths in a message by the real directories. */
    unmap: (text) =>
      modules.reduce(
        (t, [name, target]) => t.split(`${root}/${name}/`).join(`${target}/`),
        text,
      ),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * Compile a case with one `buf build`. Returns `{ caseDir, files, protoFile }`:
 * `files` are the case's own files (or `opts.files`), `protoFile` the
 * FileDescriptorProtos of those files and their imports, topologically
 * sorted, with source code info.
 */
export async function buildCase(caseDir, opts = {}) {
  const ws = await makeWorkspace(caseDir);
  try {
    const all = listProtoFiles(ws.caseDir);
    const files = opts.files ? [...opts.files] : all;
    if (files.length === 0) throw new Error(`no .proto files in ${ws.caseDir}`);
    for (const f of files) {
      if (!all.includes(f)) {
        throw new Error(`${f} is not a .proto file of ${ws.caseDir}`);
      }
    }
    const args = ["build", ws.root, "--config", ws.config];
    for (const f of files) args.push("--path", ws.casePath(f));
    args.push("--as-file-descriptor-set", "-o", "-");
    let bytes;
    try {
      bytes = await run(bufBin(), args, { cwd: ws.root });
    } catch (e) {
      // Show the real paths, not the temporary workspace's symlinks.
      e.message = ws.unmap(e.message);
      throw e;
    }
    const set = fromBinary(FileDescriptorSetSchema, new Uint8Array(bytes));
    return { caseDir: ws.caseDir, files, protoFile: topoSort(set.file) };
  } finally {
    await ws.dispose();
  }
}

/**
 * The case's own plugin options: the text of its `options.txt` (e.g.
 * `tools=all`), trimmed, or "" when it has none. Every target's request
 * for the case carries them after the target's own.
 */
export function caseOptions(caseDir) {
  const file = path.join(resolveCaseDir(caseDir), "options.txt");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : "";
}

/**
 * The case's options for target=go only (`go_connect=true`, which other
 * targets refuse): the text of its `go-options.txt`, trimmed, or "".
 * buildRequest adds them when the parameter names target=go.
 */
export function goCaseOptions(caseDir) {
  const file = path.join(resolveCaseDir(caseDir), "go-options.txt");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : "";
}

/**
 * Build the CodeGeneratorRequest for a case directory: fileToGenerate = the
 * case's own files (or `opts.files`, paths relative to the case directory),
 * parameter = `opts.parameter` (default "target=go") followed by the case's
 * options (caseOptions, and goCaseOptions for target=go), protoFile = those
 * files and their imports in topological order.
 */
export async function buildRequest(caseDir, opts = {}) {
  const { files, protoFile } = await buildCase(caseDir, opts);
  const target = opts.parameter ?? defaultParameter;
  const parameter = [
    target,
    caseOptions(caseDir),
    target.split(",").includes("target=go") ? goCaseOptions(caseDir) : "",
  ]
    .filter((p) => p !== "")
    .join(",");
  const init = {
    fileToGenerate: files,
    parameter,
    protoFile,
  };
  if (opts.compilerVersion) init.compilerVersion = opts.compilerVersion;
  return create(CodeGeneratorRequestSchema, init);
}

/** Dependencies before dependents; otherwise the input order is kept. */
export function topoSort(files) {
  const byName = new Map(files.map((f) => [f.name, f]));
  const out = [];
  const state = new Map(); // name -> 1 visiting, 2 done
  const visit = (f) => {
    const s = state.get(f.name);
    if (s === 2) return;
    if (s === 1) throw new Error(`import cycle through ${f.name}`);
    state.set(f.name, 1);
    for (const dep of f.dependency) {
      const d = byName.get(dep);
      if (!d)
        throw new Error(`${f.name} imports ${dep}, which is not in the image`);
      visit(d);
    }
    state.set(f.name, 2);
    out.push(f);
  };
  for (const f of files) visit(f);
  return out;
}

/** Byte-order comparison of strings (code unit order equals UTF-8 order for BMP text). */
export function byteOrder(a, b) {
  const ba = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  return Buffer.compare(ba, bb);
}
