import { createClient, type Transport } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  ServerReflection as ServerReflectionV1,
  type ServerReflectionResponse,
  type ServerReflectionRequestSchema,
} from "../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1alpha } from "../gen/grpc/reflection/v1alpha/reflection_pb.js";

/** The versions of the reflection service, in the order a client tries them. */
export const reflectionVersions = {
  v1: ServerReflectionV1,
  v1alpha: ServerReflectionV1alpha,
} as const;

/** A version of the reflection service: `v1` or `v1alpha`. */
export type ReflectionVersion = keyof typeof reflectionVersions;

/** What a reflection request asks: `case` and its value. */
export type ReflectionQuestion = MessageInitShape<
  typeof ServerReflectionRequestSchema
>["messageRequest"];

/**
 * One bidirectional `ServerReflectionInfo` stream, used request by
 * request: each ask() sends one request and waits for its response.
 */
export interface ReflectionSession {
  /** Sends `question` and resolves to the server's response to it. */
  ask(question: ReflectionQuestion): Promise<ServerReflectionResponse>;
  /** Ends the request stream; the server then ends the call. */
  close(): void;
}

/**
 * Opens a reflection stream on `transport` with the service of `version`.
 * The stream is lazy: a server that does not serve the version, or no
 * server at all, shows as the first ask() rejecting with a ConnectError.
 * `timeoutMs` bounds the whole stream.
 */
export function createReflectionSession(
  transport: Transport,
  version: ReflectionVersion,
  timeoutMs: number,
): ReflectionSession {
  // The two versions' messages are the same but for their package name.
  const service = reflectionVersions[version] as typeof ServerReflectionV1;
  const client = createClient(service, transport);
  const queue: (ReflectionQuestion | null)[] = [];
  let wake: (() => void) | undefined;
  async function* requests() {
    for (;;) {
      const next = queue.shift();
      if (next === null) return;
      if (next !== undefined) {
        yield { messageRequest: next };
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  }
  const call = client.serverReflectionInfo(requests(), { timeoutMs });
  const responses = call[Symbol.asyncIterator]();
  const push = (item: ReflectionQuestion | null) => {
    queue.push(item);
    wake?.();
  };
  return {
    async ask(question) {
      push(question);
      const next = await responses.next();
      if (next.done === true) {
        throw new Error("the server ended the reflection stream early");
      }
      return next.value;
    },
    close() {
      push(null);
    },
  };
}
