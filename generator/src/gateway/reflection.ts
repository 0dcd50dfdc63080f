import { fromBinary } from "@bufbuild/protobuf";
import {
  FileDescriptorProtoSchema,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { GeneratorError } from "../errors.js";
import type { ServerReflectionResponse } from "../gen/grpc/reflection/v1/reflection_pb.js";
import {
  createReflectionSession,
  reflectionVersions,
  type ReflectionQuestion,
  type ReflectionSession,
  type ReflectionVersion,
} from "./reflection-session.js";

/** Options of {@link fetchDescriptorsByReflection}. */
export interface ReflectionFetchOptions {
  /** Bounds the whole fetch; 10 seconds when absent. */
  timeoutMs?: number;
  /**
   * The transport to the server (e.g. over TLS); plaintext HTTP/2 to
   * `target` when absent.
   */
  transport?: Transport;
}

/** Services a server lists that are never tools: reflection, health. */
const infrastructure = /^grpc\.(reflection|health)\./;

/** The fix named by every error that reflection cannot give the files. */
const orDescriptorSet =
  "or pass the API's descriptors with --descriptor-set FILE (buf build -o FILE)";

/**
 * Fetches, over gRPC server reflection, the files declaring every service
 * the server at `target` ("host:port", or a URL "http://host:port" /
 * "https://host:port") lists, less grpc.reflection.* and grpc.health.*,
 * with every file they import. Uses one bidirectional stream for the whole
 * fetch, on grpc.reflection.v1, or grpc.reflection.v1alpha when the server
 * does not serve v1; asks for a service's file only when no file received
 * so far declares the service. Returns the files imports-first. Throws a
 * GeneratorError naming the target and the fix when the server is
 * unreachable, serves no reflection, or cannot resolve a file or symbol.
 */
export async function fetchDescriptorsByReflection(
  target: string,
  options: ReflectionFetchOptions = {},
): Promise<FileDescriptorProto[]> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const transport =
    options.transport ?? createGrpcTransport({ baseUrl: baseUrlOf(target) });
  const opened = await openReflection(target, (version) =>
    createReflectionSession(transport, version, timeoutMs),
  );
  try {
    const files = await fetchFiles(target, opened.session, opened.services);
    return importsFirst(files);
  } catch (err) {
    throw err instanceof GeneratorError ? err : streamError(target, err);
  } finally {
    opened.session.close();
  }
}

/** The base URL of a target: itself when it has a scheme, else over h2c. */
function baseUrlOf(target: string): string {
  if (/^https?:\/\//.test(target)) return target;
  if (
    !/^[^\s/:]+:\d+$/.test(target) &&
    !/^\[[0-9a-f:.]+\]:\d+$/i.test(target)
  ) {
    throw new GeneratorError(
      `invalid gRPC server address ${JSON.stringify(target)}: want host:port, e.g. "localhost:50051", or a URL "https://host:port"`,
    );
  }
  return `http://${target}`;
}

/**
 * Opens a stream on the first reflection version the server serves and
 * lists its services.
 */
async function openReflection(
  target: string,
  open: (version: ReflectionVersion) => ReflectionSession,
): Promise<{ session: ReflectionSession; services: string[] }> {
  for (const version of Object.keys(
    reflectionVersions,
  ) as ReflectionVersion[]) {
    const session = open(version);
    try {
      const response = await session.ask({ case: "listServices", value: "" });
      const listed = answerOf(target, response, {
        case: "listServices",
        value: "",
      });
      if (listed.case !== "listServicesResponse") {
        throw new GeneratorError(
          `the gRPC server ${JSON.stringify(target)} answered a list of services with ${JSON.stringify(listed.case)}: ${orDescriptorSet}`,
        );
      }
      return { session, services: listed.value.service.map((s) => s.name) };
    } catch (err) {
      session.close();
      if (ConnectError.from(err).code !== Code.Unimplemented) {
        throw err instanceof GeneratorError ? err : streamError(target, err);
      }
    }
  }
  throw new GeneratorError(
    `the gRPC server ${JSON.stringify(target)} does not serve reflection (neither grpc.reflection.v1 nor grpc.reflection.v1alpha is implemented): register the reflection service on the server (grpc-go: reflection.Register(server)), ${orDescriptorSet}`,
  );
}

/**
 * Asks for the file of each service not yet covered, then for every import
 * not yet received, until the files are closed under their imports.
 */
async function fetchFiles(
  target: string,
  session: ReflectionSession,
  services: readonly string[],
): Promise<Map<string, FileDescriptorProto>> {
  const files = new Map<string, FileDescriptorProto>();
  const covered = new Set<string>();
  const receive = async (question: ReflectionQuestion) => {
    const answer = answerOf(target, await session.ask(question), question);
    if (answer.case !== "fileDescriptorResponse") return;
    for (const bytes of answer.value.fileDescriptorProto) {
      const file = fromBinary(FileDescriptorProtoSchema, bytes);
      files.set(file.name, file);
      const prefix = file.package === "" ? "" : `${file.package}.`;
      for (const s of file.service) covered.add(prefix + s.name);
    }
  };
  for (const service of services) {
    if (infrastructure.test(service) || covered.has(service)) continue;
    await receive({ case: "fileContainingSymbol", value: service });
  }
  for (;;) {
    const missing = [...files.values()]
      .flatMap((f) => f.dependency)
      .filter((name) => !files.has(name));
    if (missing.length === 0) return files;
    for (const name of new Set(missing)) {
      if (!files.has(name))
        await receive({ case: "fileByFilename", value: name });
    }
  }
}

/**
 * The response's message, or a GeneratorError for an error response naming
 * what was asked.
 */
function answerOf(
  target: string,
  response: ServerReflectionResponse,
  question: ReflectionQuestion,
): ServerReflectionResponse["messageResponse"] {
  const answer = response.messageResponse;
  if (answer.case !== "errorResponse") return answer;
  const what =
    question?.case === "fileByFilename"
      ? `the file ${JSON.stringify(question.value)}`
      : `the symbol ${JSON.stringify(question?.value ?? "")}`;
  throw new GeneratorError(
    `the gRPC server ${JSON.stringify(target)} cannot resolve ${what} through reflection (${Code[answer.value.errorCode] ?? answer.value.errorCode}: ${answer.value.errorMessage}): serve reflection from descriptors that include every file the services import, ${orDescriptorSet}`,
  );
}

/** A failed stream as an error naming the target and the fix. */
function streamError(target: string, err: unknown): GeneratorError {
  const e = ConnectError.from(err);
  if (e.code === Code.Unavailable) {
    return new GeneratorError(
      `cannot reach the gRPC server ${JSON.stringify(target)}: ${e.rawMessage}: check the address and that the server is running`,
    );
  }
  if (e.code === Code.DeadlineExceeded) {
    return new GeneratorError(
      `the gRPC server ${JSON.stringify(target)} did not answer reflection in time: check the address, or raise the timeout`,
    );
  }
  return new GeneratorError(
    `reflection on the gRPC server ${JSON.stringify(target)} failed (${Code[e.code]}: ${e.rawMessage}): ${orDescriptorSet}`,
  );
}

/** The files ordered so that each comes after the files it imports. */
function importsFirst(
  files: ReadonlyMap<string, FileDescriptorProto>,
): FileDescriptorProto[] {
  const ordered: FileDescriptorProto[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    const file = files.get(name);
    if (file === undefined || seen.has(name)) return;
    seen.add(name);
    file.dependency.forEach(visit);
    ordered.push(file);
  };
  [...files.keys()].sort().forEach(visit);
  return ordered;
}
