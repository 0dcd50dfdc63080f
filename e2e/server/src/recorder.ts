import { create } from "@bufbuild/protobuf";
import {
  RecordedRequestSchema,
  type RecordedRequest,
} from "./gen/linkhub/v1/control_pb.js";

/**
 * The requests a server received, oldest first.
 */
export interface Recorder {
  /**
   * Appends one request: its procedure, its protobuf JSON and its metadata
   * (lower-case keys, pseudo-headers left out).
   */
  record(
    procedure: string,
    requestJson: string,
    metadata?: Readonly<Record<string, string>>,
  ): void;
  /** A copy of every request recorded since the last clear, oldest first. */
  list(): RecordedRequest[];
  /** Forgets every recorded request. */
  clear(): void;
}

/**
 * Creates an empty recorder.
 */
export function createRecorder(): Recorder {
  const recorded: RecordedRequest[] = [];
  return {
    record(procedure, requestJson, metadata = {}) {
      recorded.push(
        create(RecordedRequestSchema, {
          procedure,
          requestJson,
          metadata: { ...metadata },
        }),
      );
    },
    list() {
      return recorded.slice();
    },
    clear() {
      recorded.length = 0;
    },
  };
}
