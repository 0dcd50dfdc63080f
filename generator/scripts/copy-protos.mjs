// `npm pack` / `npm publish` (prepack): copies the annotation protos a user
// imports from the repository's proto/ (their one source) into this
// package's proto/ (git-ignored), so that the package ships them:
// node_modules/protoc-gen-ai-tools/proto is an include path for protoc and a
// directory input for buf. Only ai/tools/v1: the companion project's
// ai/context/v1 declares extension 52104 too and is not ours to ship
// (generator/README.md, "The annotation protos").
import { cpSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const generatorDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const from = join(generatorDir, "..", "proto");
const to = join(generatorDir, "proto");
/** The proto files the package ships, relative to proto/. */
const shippedProtos = ["ai/tools/v1/annotations.proto"];

rmSync(to, { recursive: true, force: true });
for (const file of shippedProtos) {
  cpSync(join(from, file), join(to, file));
}
