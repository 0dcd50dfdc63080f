// Writes a corpus to disk, compiles it once with buf into an Image (source
// info kept, imports included) and turns that into the CodeGeneratorRequest
// the plugin reads on stdin.
import { mkdirSync, writeFileSync, readFileSync, symlinkSync } from "node:fs";
import { join, dirname } from "node:path";
import { spawnSync } from "node:child_process";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";

/**
 * @param {object} o
 * @param {string} o.dir       empty working directory for this size
 * @param {{path: string, content: string}[]} o.files
 * @param {string} o.buf       buf executable
 * @param {string} o.includeDir directory holding ai/tools/v1/annotations.proto
 * @param {string} o.parameter plugin parameter, e.g. "target=go"
 * @returns {{request: Uint8Array, requestPath: string, imagePath: string, protoFiles: number, bufMs: number}}
 */
export function compileCorpus({ dir, files, buf, includeDir, parameter }) {
  const corpusDir = join(dir, "corpus");
  for (const f of files) {
    const p = join(corpusDir, f.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.content);
  }
  // A buf v2 workspace with two modules: the corpus and the project's own
  // proto directory (linked, not copied, so it is the real annotations.proto).
  symlinkSync(includeDir, join(dir, "include"), "dir");
  writeFileSync(
    join(dir, "buf.yaml"),
    "version: v2\nmodules:\n  - path: corpus\n  - path: include\n",
  );
  const imagePath = join(dir, "image.binpb");
  const t0 = performance.now();
  const r = spawnSync(buf, ["build", "corpus", "-o", imagePath], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const bufMs = performance.now() - t0;
  if (r.error) throw new Error(`cannot run ${buf}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(
      `buf build failed (exit ${r.status}):\n${r.stderr}${r.stdout}`,
    );
  }
  if (r.stderr.trim())
    process.stderr.write(
      `buf build (${files.length} files) said:\n${r.stderr}`,
    );

  const image = fromBinary(FileDescriptorSetSchema, readFileSync(imagePath));
  const wanted = new Set(files.map((f) => f.path));
  const fileToGenerate = image.file
    .map((f) => f.name)
    .filter((n) => wanted.has(n));
  if (fileToGenerate.length !== files.length) {
    const missing = [...wanted].filter((n) => !fileToGenerate.includes(n));
    throw new Error(
      `image lacks ${missing.length} corpus files, e.g. ${missing[0]}`,
    );
  }
  if (
    !image.file.every(
      (f) => f.sourceCodeInfo && f.sourceCodeInfo.location.length > 0,
    )
  ) {
    throw new Error("image has files without source info");
  }
  const request = toBinary(
    CodeGeneratorRequestSchema,
    create(CodeGeneratorRequestSchema, {
      fileToGenerate,
      parameter,
      protoFile: image.file,
    }),
  );
  const requestPath = join(dir, "request.binpb");
  writeFileSync(requestPath, request);
  return {
    request,
    requestPath,
    imagePath,
    protoFiles: image.file.length,
    bufMs,
  };
}

/**
 * The request once per target: the same files, only the parameter
 * (`target=<t>`) differs.
 * @param {Uint8Array} request
 * @param {readonly string[]} targets
 * @returns {Map<string, Uint8Array>}
 */
export function requestPerTarget(request, targets) {
  const decoded = fromBinary(CodeGeneratorRequestSchema, request);
  return new Map(
    targets.map((target) => {
      decoded.parameter = `target=${target}`;
      return [target, toBinary(CodeGeneratorRequestSchema, decoded)];
    }),
  );
}
