import {
  toJsonString,
  type DescMessage,
  type MessageShape,
} from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import type { Recorder } from "./recorder.js";

/**
 * Creates a server interceptor that records every unary request to one of
 * `services` (fully-qualified names) before its handler runs, so that
 * requests the handler rejects are recorded too.
 *
 * A request is recorded as its procedure, `linkhub.v1.LinkService/CreateLink`,
 * and its JSON as protobuf-es `toJsonString` writes it with default options.
 * A request that has no JSON form (a field mask path such as `targetUrl`, a
 * timestamp out of range) is still recorded and still handled; its JSON is
 * then `{"$error":"<why it cannot be written>"}`. Its metadata is recorded
 * whole, `authorization` included.
 */
export function createRecordingInterceptor(
  recorder: Recorder,
  services: readonly string[],
): Interceptor {
  return (next) => async (req) => {
    if (!req.stream && services.includes(req.service.typeName)) {
      recorder.record(
        `${req.service.typeName}/${req.method.name}`,
        requestJson(req.method.input, req.message),
        metadataOf(req.header),
      );
    }
    return await next(req);
  };
}

/** The protobuf JSON of `message`, or a `$error` object when it has none. */
function requestJson<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
): string {
  try {
    return toJsonString(schema, message);
  } catch (err) {
    return JSON.stringify({
      $error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** Every header of a request but the HTTP/2 pseudo-headers, keys lower-case. */
function metadataOf(header: Headers): Record<string, string> {
  const metadata: Record<string, string> = {};
  header.forEach((value, key) => {
    if (!key.startsWith(":")) metadata[key] = value;
  });
  return metadata;
}
