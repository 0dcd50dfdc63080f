/**
 * Test helper: requests for real public APIs, Google's own protos from the
 * npm package google-proto-files (pinned in package.json), compiled by buf
 * as `buf generate` would (source info kept, imports included).
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { create, fromBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorSetSchema,
  type CodeGeneratorRequest,
} from "@bufbuild/protobuf/wkt";
import * as lib from "../../scripts/lib/request.mjs";

/** The directory of google-proto-files: the root of its proto paths. */
export const realApiProtos = dirname(
  createRequire(import.meta.url).resolve("google-proto-files/package.json"),
);

/**
 * A few APIs of usual size, each with its own shape: Secret Manager (IAM
 * methods from google.iam.v1, resource names), Pub/Sub (three services,
 * server streaming, two files) and Cloud Tasks (an HTTP target with maps
 * and oneofs).
 */
export const realApis = [
  "google/cloud/secretmanager/v1",
  "google/pubsub/v1",
  "google/cloud/tasks/v2",
] as const;

/** The request for every file of `api` (a directory of google-proto-files). */
export function realApiRequest(
  api: string,
  parameter: string,
): CodeGeneratorRequest {
  const bytes = execFileSync(
    lib.bufBin(),
    [
      "build",
      realApiProtos,
      "--path",
      join(realApiProtos, api),
      "--as-file-descriptor-set",
      "-o",
      "-",
    ],
    { maxBuffer: 1 << 28 },
  );
  const set = fromBinary(FileDescriptorSetSchema, new Uint8Array(bytes));
  return create(CodeGeneratorRequestSchema, {
    fileToGenerate: set.file
      .map((f) => f.name)
      .filter((name) => name.startsWith(`${api}/`)),
    parameter,
    protoFile: lib.topoSort(set.file),
  });
}
