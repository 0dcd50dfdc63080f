import { readFileSync } from "node:fs";
import { fromBinary } from "@bufbuild/protobuf";
import {
  FileDescriptorSetSchema,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { GatewayError } from "./gateway-error.js";

/**
 * Where the gateway's descriptors come from (a FileDescriptorSet file, a
 * server's gRPC reflection): every file of the API, imports included, in
 * any order.
 */
export interface DescriptorSource {
  /** How the start-up line and errors name it: `descriptor set "api.binpb"`. */
  readonly label: string;
  /** Load the files. Throws GatewayError for bad input. */
  load(): Promise<FileDescriptorProto[]>;
}

/**
 * A source reading a FileDescriptorSet file, as `buf build -o FILE` or
 * `protoc --descriptor_set_out=FILE --include_imports` write it (with
 * `--include_source_info`, protoc, for the comments to become descriptions).
 */
export function createDescriptorSetSource(path: string): DescriptorSource {
  const label = `descriptor set ${JSON.stringify(path)}`;
  return {
    label,
    load() {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(path);
      } catch (e) {
        throw new GatewayError(
          `cannot read the ${label}: ${(e as NodeJS.ErrnoException).code ?? String(e)}; pass the path of a file written by \`buf build -o FILE\``,
        );
      }
      let files: FileDescriptorProto[];
      try {
        files = fromBinary(FileDescriptorSetSchema, bytes).file;
      } catch (e) {
        throw new GatewayError(
          `the ${label} is not a FileDescriptorSet (${e instanceof Error ? e.message : String(e)}): write it with \`buf build -o FILE\` or \`protoc --descriptor_set_out=FILE --include_imports --include_source_info\``,
        );
      }
      if (files.length === 0 || files.some((f) => f.name === "")) {
        throw new GatewayError(
          `the ${label} is not a FileDescriptorSet (it holds ${files.length === 0 ? "no file" : "a file without a name"}): write it with \`buf build -o FILE\` or \`protoc --descriptor_set_out=FILE --include_imports --include_source_info\``,
        );
      }
      checkImports(files, label);
      return Promise.resolve(files);
    },
  };
}

/** Throws when a file of the set imports one the set lacks (no --include_imports). */
function checkImports(files: readonly FileDescriptorProto[], label: string) {
  const names = new Set(files.map((f) => f.name));
  for (const file of files) {
    const missing = file.dependency.find((d) => !names.has(d));
    if (missing !== undefined) {
      throw new GatewayError(
        `the ${label} lacks ${JSON.stringify(missing)}, imported by ${file.name}: write it with its imports (protoc --include_imports; buf build without --exclude-imports)`,
      );
    }
  }
}
