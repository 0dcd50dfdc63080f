import { create } from "@bufbuild/protobuf";
import {
  RecordedRequestSchema,
  type RecordedRequest,
} from "./gen/linkhub/v1/control_pb.js";

/**
 * The requests a server received, oldest first.
 */
export interface Recorder {
  /** Appends one request: its procedure and its protobuf JSON. */
  record(procedure: string, requestJson: string): void;
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
    record(procedure, requestJson) {
      recorded.push(create(RecordedRequestSchema, { procedure, requestJson }));
    },
    list() {
      return recorded.slice();
    },
    clear() {
      recorded.length = 0;
    },
  };
}
