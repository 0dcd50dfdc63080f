// Bundles the plugin executable (src/cli.ts, built into dist/cli.js by tsc)
// with its dependencies into one CommonJS file, dist/protoc-gen-ai-tools.cjs,
// which bin/protoc-gen-ai-tools compiles with node:vm: loading one file
// instead of a few hundred modules saves about 130 ms of CPU per run (issue
// 13, point 3). Uses Vite (already the test runner's), which bundles with
// Rolldown. What the plugin loads only on demand (@prettier/sync for the MCP
// file) stays a package import.
//
// Then it writes dist/protoc-gen-ai-tools.cache, V8's code cache of the
// bundle as the bin compiles it, made by running the bin once on an empty
// request: with it, a run skips parsing and compiling the bundle's code
// that loading runs. The cache is optional (the bin compiles the bundle
// without it) and tied to the bundle's bytes, to this Node version and to
// the V8 flags the bin runs under (bin/tune-v8.cjs).
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const generatorDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(generatorDir, "dist");
const out = join(dist, "protoc-gen-ai-tools.cjs");
const cache = join(dist, "protoc-gen-ai-tools.cache");
rmSync(join(dist, "protoc-gen-ai-tools.mjs"), { force: true });
rmSync(out, { force: true });
rmSync(cache, { force: true });
await build({
  configFile: false,
  root: generatorDir,
  logLevel: "warn",
  ssr: { noExternal: true, external: ["@prettier/sync"] },
  build: {
    ssr: join(dist, "cli.js"),
    outDir: dist,
    emptyOutDir: false,
    minify: false,
    sourcemap: false,
    target: "node20",
    rollupOptions: {
      output: {
        entryFileNames: "protoc-gen-ai-tools.cjs",
        format: "cjs",
        // Strict, as the ES modules it is made of.
        strict: true,
        // An ASCII-only file decodes several times faster than UTF-8 text
        // with a few non-ASCII characters, and becomes a one-byte string.
        charset: "ascii",
        comments: false,
      },
    },
  },
});
const bundled = readFileSync(out);
if (bundled.some((byte) => byte > 0x7f)) {
  throw new Error(`${out} is not ASCII-only`);
}
// The bin runs the bundle as a vm.Script, which has no dynamic import.
if (/\bimport\(/.test(bundled.toString("latin1"))) {
  throw new Error(
    `${out} holds a dynamic import(), which the bin cannot run: use require()`,
  );
}

// V8 checks a cache against its flags. The bin sets its own
// (bin/tune-v8.cjs) before it compiles the bundle, so the cache is made
// under those; NODE_OPTIONS could add others, so it is made without it, as
// the bin usually runs.
const env = { ...process.env, AI_TOOLS_WRITE_CODE_CACHE: cache };
delete env.NODE_OPTIONS;
const made = spawnSync(
  process.execPath,
  [join(generatorDir, "bin", "protoc-gen-ai-tools")],
  // parameter (field 2) "target=go", nothing to generate
  { env, input: Buffer.from("\x12\x09target=go", "latin1") },
);
if (made.status !== 0) {
  throw new Error(
    `making the code cache failed (${made.status ?? made.signal}): ${made.stderr}`,
  );
}
