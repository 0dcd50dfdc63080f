import {
  createRegistry,
  toBinary,
  type DescFile,
  type DescService,
} from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import {
  ServerReflection as ServerReflectionV1,
  type ServerReflectionRequest,
  type ServerReflectionResponseSchema,
} from "./gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1alpha } from "./gen/grpc/reflection/v1alpha/reflection_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";

/** The versions of gRPC server reflection, by name. */
const versions = {
  v1: ServerReflectionV1,
  v1alpha: ServerReflectionV1alpha,
} as const;

/** A version of gRPC server reflection: `v1` or `v1alpha`. */
export type ReflectionVersion = keyof typeof versions;

/** What the reflection service serves. */
export interface ReflectionOptions {
  /** The versions served; both when absent. */
  versions?: readonly ReflectionVersion[];
  /**
   * Files the service answers NOT_FOUND for, as a server missing an
   * import would: for tests of a client's errors.
   */
  withoutFiles?: readonly string[];
}

type Response = MessageInitShape<typeof ServerReflectionResponseSchema>;

/**
 * Creates the routes of gRPC server reflection over `services`: their
 * protoc-gen-es descriptors, served as compiled (imports, options and the
 * ai.tools annotations intact, no source info). A file is answered with
 * every file it imports, transitively.
 */
export function createReflectionRoutes(
  services: readonly DescService[],
  options: ReflectionOptions = {},
): (router: ConnectRouter) => void {
  const served = options.versions ?? ["v1", "v1alpha"];
  const hidden = new Set(options.withoutFiles);
  const files = new Map<string, DescFile>();
  const add = (file: DescFile) => {
    if (files.has(file.proto.name) || hidden.has(file.proto.name)) return;
    files.set(file.proto.name, file);
    file.dependencies.forEach(add);
  };
  services.forEach((s) => add(s.file));
  const registry = createRegistry(...files.values());
  const listed = [
    ...services.map((s) => s.typeName),
    ...served.map((v) => versions[v].typeName),
  ];
  const withImports = (file: DescFile, out = new Map<string, Uint8Array>()) => {
    if (out.has(file.proto.name) || hidden.has(file.proto.name)) return out;
    out.set(file.proto.name, toBinary(FileDescriptorProtoSchema, file.proto));
    file.dependencies.forEach((d) => withImports(d, out));
    return out;
  };
  const fileOf = (request: ServerReflectionRequest): DescFile | undefined => {
    const r = request.messageRequest;
    if (r.case === "fileByFilename") return files.get(r.value);
    if (r.case !== "fileContainingSymbol") return undefined;
    // A method's name is its service's and one more component.
    const d =
      registry.get(r.value) ?? registry.get(r.value.replace(/\.[^.]+$/, ""));
    return d?.file;
  };
  const answer = (request: ServerReflectionRequest): Response => {
    const base = { validHost: request.host, originalRequest: request };
    if (request.messageRequest.case === "listServices") {
      const service = listed.map((name) => ({ name }));
      return {
        ...base,
        messageResponse: { case: "listServicesResponse", value: { service } },
      };
    }
    const file = fileOf(request);
    if (file === undefined) {
      const errorMessage = `${JSON.stringify(request.messageRequest.value)} not found`;
      return {
        ...base,
        messageResponse: {
          case: "errorResponse",
          value: { errorCode: 5, errorMessage },
        },
      };
    }
    const fileDescriptorProto = [...withImports(file).values()];
    return {
      ...base,
      messageResponse: {
        case: "fileDescriptorResponse",
        value: { fileDescriptorProto },
      },
    };
  };
  const impl = {
    async *serverReflectionInfo(
      requests: AsyncIterable<ServerReflectionRequest>,
    ) {
      for await (const request of requests) yield answer(request);
    },
  };
  return (router) => {
    // The two versions' messages are the same but for their package name.
    for (const v of served)
      router.service(versions[v] as typeof ServerReflectionV1, impl);
  };
}
