import { create } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  type CodeGeneratorRequest,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { GatewayError } from "./gateway-error.js";

/**
 * Folders of libraries an API imports, whose services are not the API's:
 * their files are never chosen by default (`--file` still can). gRPC's
 * reflection and health services are never tools.
 */
const libraryFolders = [
  "google/protobuf/",
  "google/api/",
  "google/rpc/",
  "google/type/",
  "google/longrunning/",
  "grpc/",
  "buf/validate/",
  "ai/tools/",
];

/** gRPC's own services, never tools, whichever file declares them. */
const grpcServiceFiles = ["grpc/reflection/", "grpc/health/"];

/**
 * The files whose services become tools: `chosen` when given (each must be
 * in `files`), otherwise every file declaring a service, but the libraries'
 * (see {@link libraryFolders}).
 */
export function filesToGenerate(
  files: readonly FileDescriptorProto[],
  chosen: readonly string[],
  label: string,
): string[] {
  if (chosen.length > 0) {
    const names = new Set(files.map((f) => f.name));
    for (const name of chosen) {
      if (!names.has(name)) {
        throw new GatewayError(
          `--file ${JSON.stringify(name)}: the ${label} has no such file; give a path as it imports it (e.g. ${JSON.stringify(files[0]?.name ?? "api/v1/api.proto")})`,
        );
      }
      if (grpcServiceFiles.some((p) => name.startsWith(p))) {
        throw new GatewayError(
          `--file ${JSON.stringify(name)}: gRPC's reflection and health services are never tools; leave the file out`,
        );
      }
    }
    return [...chosen];
  }
  const picked = files
    .filter(
      (f) =>
        f.service.length > 0 &&
        !libraryFolders.some((p) => f.name.startsWith(p)),
    )
    .map((f) => f.name);
  if (picked.length === 0) {
    throw new GatewayError(
      `the ${label} declares no service of its own (only files under ${libraryFolders.join(", ")}, or none): build it from the protos that declare your services, or name files with --file`,
    );
  }
  return picked;
}

/**
 * An in-memory CodeGeneratorRequest, as protoc would send the plugin for
 * `files` with `fileToGenerate` and the plugin parameter `parameter`.
 */
export function gatewayRequest(
  files: FileDescriptorProto[],
  fileToGenerate: string[],
  parameter: string,
): CodeGeneratorRequest {
  return create(CodeGeneratorRequestSchema, {
    protoFile: files,
    fileToGenerate,
    parameter,
  });
}
