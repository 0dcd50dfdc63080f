// Fuzzing the plugin (issue 12, point 6): mutated CodeGeneratorRequests
// (structure- and bytes-level, from the golden cases and e2e/proto) and
// random valid protos (test/fuzz/random-proto.ts, compiled with buf). Every
// input runs in a worker thread with a time limit, through the built plugin
// (dist/) as the plugin process runs it. It must not throw, hang, or report
// an internal error; an error names the problem (file: element: message, or
// a request-level message), with no stack trace; output is files with
// content. In a timed run (FUZZ_SECONDS) a few outputs of random protos are
// compiled: Go (go vet), Python (import) and TypeScript (tsc; and prettier
// leaves it as it is).
//
// Without FUZZ_SECONDS (`pnpm test`) the kept cases (test/fuzz/corpus: seed
// protos, and in found/ the requests that once failed, with the error they
// now get in <name>.expected.txt) and a fixed set of seeds run. A failing
// input is written to test/fuzz/corpus/found/ to be kept.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  type CodeGeneratorRequest,
} from "@bufbuild/protobuf/wkt";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileTs } from "./fuzz/compile-ts.js";
import { mutateBytes, mutateRequest } from "./fuzz/mutate.js";
import { randomProto } from "./fuzz/random-proto.js";
import { oneLine } from "../src/errors.js";
import { formatTs } from "../src/targets/ts/build-ts-view.js";
import { buildRequest } from "./support/request.js";

const seconds = Number(process.env["FUZZ_SECONDS"] ?? "0");
const fuzzing = Number.isFinite(seconds) && seconds > 0;
const repoRoot = resolve(import.meta.dirname, "..", "..");
const corpusDir = join(import.meta.dirname, "fuzz", "corpus");
const foundDir = join(corpusDir, "found");
/** The most one input may take (a generous bound: the machine is shared). */
const inputLimitMs = 30_000;
const seedCases = ["executors", "fixup", "mcp", "schemas", "validate"];

interface Outcome {
  id: number;
  ms: number;
  error?: string;
  files?: { name: string; content: string }[];
  readError?: string;
  thrown?: string;
  hung?: boolean;
}

/** The plugin in a worker thread, restarted after an input that hangs. */
function createRunner() {
  let worker: Worker | undefined;
  let nextId = 0;
  const start = () =>
    new Worker(new URL("./fuzz/plugin-worker.mjs", import.meta.url));
  return {
    run(bytes: Uint8Array): Promise<Outcome> {
      worker ??= start();
      const w = worker;
      const id = ++nextId;
      return new Promise((done, fail) => {
        const timer = setTimeout(() => {
          w.removeAllListeners("message");
          void w.terminate();
          worker = undefined;
          done({ id, ms: inputLimitMs, hung: true });
        }, inputLimitMs);
        w.once("error", (e) => {
          clearTimeout(timer);
          worker = undefined;
          fail(e);
        });
        w.on("message", (m: Outcome) => {
          if (m.id !== id) return;
          clearTimeout(timer);
          w.removeAllListeners("message");
          w.removeAllListeners("error");
          done(m);
        });
        w.postMessage({ id, bytes });
      });
    },
    async close() {
      await worker?.terminate();
    },
  };
}

const requestLevel = [
  /^cannot resolve the request's descriptors: /,
  /^file_to_generate names /,
  /^import cycle: /,
  /^\S+ imports ".*", which the request does not contain$/,
  /^unknown option /,
  /^option "/,
  /^invalid value /,
];

/**
 * The names of the request's files, which an error line starts with; none
 * when protobuf-es cannot read the bytes.
 */
function fileNamesOf(bytes: Uint8Array): string[] {
  try {
    return fromBinary(CodeGeneratorRequestSchema, bytes).protoFile.map(
      (f) => f.name,
    );
  } catch {
    return [];
  }
}

/**
 * What is wrong with an outcome of the request whose files are named
 * `fileNames`, or undefined when it is acceptable.
 */
function fault(o: Outcome, fileNames: readonly string[]): string | undefined {
  if (o.hung) return `no answer within ${inputLimitMs} ms`;
  if (o.thrown !== undefined) return `run threw: ${o.thrown}`;
  const stack = /\n\s+at /;
  if (o.readError !== undefined) {
    return o.readError === "" || stack.test(o.readError)
      ? `unclear read error: ${JSON.stringify(o.readError)}`
      : undefined;
  }
  const error = o.error ?? "";
  if (error !== "") {
    if (error.startsWith("internal error")) return error;
    if (stack.test(error)) return `stack trace in the error: ${error}`;
    const lines = error.split("\n");
    // `<file>: <element>: <message>`: a `.proto` file, or a file as the
    // request names it (a request may name a file anything: "a b"; bytes
    // protobuf-es cannot read give no names), its line breaks and other
    // control characters escaped as every problem's are (oneLine).
    const named = (line: string) =>
      /^[^\n]*\.proto: \S[^\n]*: \S/.test(line) ||
      fileNames
        .map(oneLine)
        .some(
          (name) =>
            line.startsWith(`${name}: `) &&
            /^\S[^\n]*: \S/.test(line.slice(name.length + 2)),
        ) ||
      requestLevel.some((p) => p.test(line));
    if (lines.length === 1 && requestLevel.some((p) => p.test(error))) {
      return undefined;
    }
    const bad = lines.find((l) => !named(l));
    return bad === undefined
      ? undefined
      : `an error line names no file and element: ${JSON.stringify(bad)}`;
  }
  for (const f of o.files ?? []) {
    if (f.name === "" || f.content === "") {
      return `an empty file: ${JSON.stringify(f.name)}`;
    }
  }
  return undefined;
}

/** Keep an input that failed, for a regression test, and fail with it. */
function keep(label: string, bytes: Uint8Array, why: string): never {
  mkdirSync(foundDir, { recursive: true });
  const file = join(
    foundDir,
    `${label.replace(/[^a-zA-Z0-9_.-]+/g, "_")}.binpb`,
  );
  writeFileSync(file, bytes);
  throw new Error(`${label}: ${why}\n(input kept in ${file})`);
}

const runner = createRunner();
const seeds = new Map<string, CodeGeneratorRequest>();
const stats = { inputs: 0, errors: 0, outputs: 0, unreadable: 0, slowestMs: 0 };

beforeAll(async () => {
  for (const c of seedCases) {
    seeds.set(c, await buildRequest(c, { parameter: "target=go" }));
  }
  seeds.set(
    "e2e",
    await buildRequest(join(repoRoot, "e2e", "proto"), {
      parameter: "target=ts",
    }),
  );
}, 120_000);

afterAll(async () => {
  await runner.close();
  if (fuzzing) {
    console.log(
      `fuzz plugin: ${stats.inputs} inputs (${stats.outputs} with output, ${stats.errors} errors, ${stats.unreadable} unreadable; slowest ${Math.round(stats.slowestMs)} ms)`,
    );
  }
});

async function check(label: string, bytes: Uint8Array): Promise<Outcome> {
  const o = await runner.run(bytes);
  stats.inputs++;
  stats.slowestMs = Math.max(stats.slowestMs, o.ms);
  if (o.readError !== undefined) stats.unreadable++;
  else if ((o.error ?? "") !== "") stats.errors++;
  else stats.outputs++;
  const why = fault(o, fileNamesOf(bytes));
  if (why !== undefined) keep(label, bytes, why);
  return o;
}

/** Run fn on seeds 0, 1, … for `runs` seeds, or until the time share is spent. */
async function forSeeds(
  share: number,
  runs: number,
  fn: (seed: number) => Promise<void>,
): Promise<void> {
  const end = Date.now() + seconds * 1000 * share;
  const base = fuzzing ? (Date.now() ^ (process.pid << 16)) >>> 0 : 0;
  for (let i = 0; fuzzing ? Date.now() < end : i < runs; i++) {
    await fn((base + i) >>> 0);
  }
}

const timeout = (share: number) =>
  fuzzing ? seconds * 1000 * share + 300_000 : 300_000;

describe("fuzz: plugin", () => {
  it("keeps its found cases: each still gets a clear answer", async () => {
    const files = existsSync(foundDir)
      ? readdirSync(foundDir).filter((f) => f.endsWith(".binpb"))
      : [];
    for (const f of files) {
      const o = await check(`kept-${f}`, readFileSync(join(foundDir, f)));
      const expected = join(foundDir, f.replace(/\.binpb$/, ".expected.txt"));
      if (existsSync(expected)) {
        expect(o.error).toContain(readFileSync(expected, "utf8").trim());
      }
    }
    const protos = readdirSync(corpusDir).filter((f) => f.endsWith(".proto"));
    expect(protos.length).toBeGreaterThan(0);
  });

  it(
    "mutated requests: an answer naming the problem, or files",
    async () => {
      const names = [...seeds.keys()];
      await forSeeds(0.35, 60, async (seed) => {
        const name = names[seed % names.length]!;
        const req = mutateRequest(seeds.get(name)!, seed);
        await check(
          `mutate-${name}-${seed}`,
          toBinary(CodeGeneratorRequestSchema, req),
        );
      });
    },
    timeout(0.35),
  );

  it(
    "mutated bytes: read as a request or refused, never a crash",
    async () => {
      const names = [...seeds.keys()];
      await forSeeds(0.15, 30, async (seed) => {
        const name = names[seed % names.length]!;
        await check(
          `bytes-${name}-${seed}`,
          mutateBytes(seeds.get(name)!, seed),
        );
      });
    },
    timeout(0.15),
  );

  it(
    "random valid protos: an answer naming the problem, or files that compile",
    async () => {
      const parameters = [
        "target=go",
        "target=ts",
        "target=py",
        "target=go,mcp=true",
        "target=ts,mcp=true",
        "target=py,mcp=true",
        "target=go,tools=all",
        "target=ts,schema=compact",
        "target=py,providers=openai,providers=anthropic,providers=gemini",
      ];
      const compiled = new Set<string>();
      const kept = readdirSync(corpusDir)
        .filter((f) => f.endsWith(".proto"))
        .map((f) => ({
          name: `kept/v1/${f}`,
          text: readFileSync(join(corpusDir, f), "utf8"),
        }));
      let first = true;
      await forSeeds(0.5, 1, async (seed) => {
        // One buf build for a batch of files, each in its own package.
        const batch = Array.from({ length: 8 }, (_, i) =>
          randomProto((seed * 8 + i) >>> 0),
        );
        if (first) batch.push(...kept);
        first = false;
        const request = await compileBatch(batch);
        for (const [i, file] of batch.entries()) {
          const parameter = parameters[(seed + i) % parameters.length]!;
          const one = create(CodeGeneratorRequestSchema, {
            parameter,
            fileToGenerate: [file.name],
            protoFile: request.protoFile.filter(
              (f) =>
                f.name === file.name || !batch.some((b) => b.name === f.name),
            ),
          });
          const bytes = toBinary(CodeGeneratorRequestSchema, one);
          const o = await check(`proto-${file.name}-${parameter}`, bytes);
          for (const prefix of refusedAliasPrefixes(file.text)) {
            expect(o.error ?? "", `${file.name} (${parameter})`).toContain(
              `alias_prefix ${JSON.stringify(prefix)} cannot form aliases`,
            );
          }
          const target = /target=(\w+)/.exec(parameter)![1]!;
          if (
            fuzzing &&
            o.files !== undefined &&
            o.files.length > 0 &&
            !compiled.has(target) &&
            // (the Go package of google/api, genproto, is not in the test module)
            !(target === "go" && file.text.includes('import "google/api/'))
          ) {
            compiled.add(target);
            const why =
              compileOutput(target, file, o.files) ??
              (target === "ts" ? compileTs(file, o.files) : undefined);
            if (why !== undefined) {
              mkdirSync(foundDir, { recursive: true });
              writeFileSync(
                join(foundDir, `${file.name.replace(/\W+/g, "_")}.proto`),
                file.text,
              );
              throw new Error(
                `${file.name} (${parameter}): the output does not compile:\n${why}`,
              );
            }
          }
        }
      });
      if (fuzzing) {
        const none = ["go", "py", "ts"].filter((t) => !compiled.has(t));
        console.log(
          `fuzz plugin: compiled a sample of ${[...compiled].join(", ") || "no target"}` +
            (none.length > 0
              ? `; NOT compiled (no ${none.join(", ")} output in this run)`
              : ""),
        );
      }
    },
    timeout(0.5),
  );
});

/** The shape of an alias prefix the plugin accepts (docs/annotations.md). */
const aliasPrefixShape = /^[a-zA-Z](?:[a-zA-Z0-9_-]{0,62}[a-zA-Z0-9_])?$/;

/**
 * The alias_prefix values of a proto file's text that the plugin must refuse
 * (the file's strings hold only escapes JSON shares: \", \\, \t, \n).
 */
function refusedAliasPrefixes(text: string): string[] {
  return [...text.matchAll(/alias_prefix: "((?:[^"\\]|\\.)*)"/g)]
    .map((m) => JSON.parse(`"${m[1]!}"`) as string)
    .filter((p) => p !== "" && !aliasPrefixShape.test(p));
}

/** Compile random files with buf into one request (all files generated). */
async function compileBatch(
  files: { name: string; text: string }[],
): Promise<CodeGeneratorRequest> {
  const dir = mkdtempSync(join(tmpdir(), "ai-tools-fuzz-"));
  try {
    for (const f of files) {
      mkdirSync(dirname(join(dir, f.name)), { recursive: true });
      writeFileSync(join(dir, f.name), f.text);
    }
    try {
      return await buildRequest(dir);
    } catch (e) {
      // A file random-proto.ts wrote that buf refuses: its bug, shown whole.
      const bad = files.find((f) => {
        const one = mkdtempSync(join(tmpdir(), "ai-tools-fuzz-"));
        try {
          mkdirSync(dirname(join(one, f.name)), { recursive: true });
          writeFileSync(join(one, f.name), f.text);
          const r = spawnSync(
            join(repoRoot, "node_modules", ".bin", "buf"),
            ["build", one, "-o", "/dev/null"],
            { encoding: "utf8" },
          );
          return r.status !== 0;
        } finally {
          rmSync(one, { recursive: true, force: true });
        }
      });
      throw new Error(
        `buf refused a random proto: ${e instanceof Error ? e.message : String(e)}\n${bad?.text ?? ""}`,
        { cause: e },
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Run a command; its output when it fails, else undefined. */
function failing(
  cmd: string,
  args: string[],
  cwd: string,
  env = {},
): string | undefined {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 240_000,
  });
  return r.status === 0
    ? undefined
    : `${cmd} ${args.join(" ")}:\n${r.stdout}${r.stderr}${r.error?.message ?? ""}`;
}

/**
 * Compile one output with the code of the language's own generators next to
 * it: Python imports every generated module (grpcio-tools code, the
 * runtime on the path), Go builds and vets the package (protoc-gen-go and
 * protoc-gen-go-grpc code, the module of generator/test-go's versions),
 * TypeScript, which the plugin writes as prettier would without running it
 * (src/targets/ts/ts-doc.ts), is formatted by the pinned prettier, which must
 * parse it and leave it as it is (compileTs then runs tsc). The compiler's
 * complaint, or undefined.
 */
function compileOutput(
  target: string,
  file: { name: string; text: string },
  outputs: { name: string; content: string }[],
): string | undefined {
  if (target === "ts") {
    for (const o of outputs) {
      try {
        if (formatTs(o.content) !== o.content) {
          return `${o.name}: prettier changes the written file`;
        }
      } catch (e) {
        return `${o.name}: prettier cannot parse it: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), "ai-tools-fuzz-out-"));
  try {
    mkdirSync(dirname(join(dir, "proto", file.name)), { recursive: true });
    writeFileSync(join(dir, "proto", file.name), file.text);
    const includes = [
      `-I${join(dir, "proto")}`,
      `-I${join(repoRoot, "proto")}`,
      `-I${join(repoRoot, "generator", "testdata", "include")}`,
    ];
    const imported = [...file.text.matchAll(/^import "(.*)";$/gm)]
      .map((m) => m[1]!)
      .filter((f) => !f.startsWith("google/protobuf/"));
    if (target === "py") {
      const python = join(repoRoot, ".venv", "bin", "python");
      const out = join(dir, "py");
      mkdirSync(out);
      const protoc = failing(
        python,
        [
          "-m",
          "grpc_tools.protoc",
          ...includes,
          `--python_out=${out}`,
          `--grpc_python_out=${out}`,
          file.name,
          ...imported,
        ],
        dir,
      );
      if (protoc !== undefined) return protoc;
      for (const o of outputs) writeFileSync(join(out, o.name), o.content);
      const modules = outputs.map((o) => o.name.replace(/\.py$/, ""));
      return failing(
        python,
        ["-c", modules.map((m) => `import ${m}`).join("; ")],
        out,
        {
          PYTHONPATH: [out, join(repoRoot, "runtimes", "python", "src")].join(
            ":",
          ),
          PYTHONDONTWRITEBYTECODE: "1",
        },
      );
    }
    const out = join(dir, "go");
    mkdirSync(join(out, "gentools"), { recursive: true });
    const testGo = join(repoRoot, "generator", "test-go");
    writeFileSync(
      join(out, "go.mod"),
      readFileSync(join(testGo, "go.mod"), "utf8")
        .replace(/^module .*$/m, "module example.com/fuzz")
        .replace(
          /=> \.\.\/\.\.\/runtimes\/go/,
          `=> ${join(repoRoot, "runtimes", "go")}`,
        ),
    );
    writeFileSync(join(out, "go.sum"), readFileSync(join(testGo, "go.sum")));
    const bin = join(repoRoot, ".tools", "bin");
    const opts = [
      "module=example.com/fuzz",
      "Mai/tools/v1/annotations.proto=example.com/fuzz/pb/ai/tools/v1;toolsv1",
    ];
    const protoc = failing(
      "protoc",
      [
        ...includes,
        `--plugin=protoc-gen-go=${join(bin, "protoc-gen-go")}`,
        `--plugin=protoc-gen-go-grpc=${join(bin, "protoc-gen-go-grpc")}`,
        `--go_out=${out}`,
        `--go-grpc_out=${out}`,
        ...opts.flatMap((o) => [`--go_opt=${o}`, `--go-grpc_opt=${o}`]),
        file.name,
        ...imported,
      ],
      dir,
    );
    if (protoc !== undefined) return protoc;
    for (const o of outputs)
      writeFileSync(join(out, "gentools", o.name), o.content);
    return failing("go", ["vet", "./..."], out, { GOFLAGS: "-mod=mod" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
