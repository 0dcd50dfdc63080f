import {
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  SUBSCRIPTION_ID_META_KEY,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";

/**
 * The `subscriptions/listen` streams of one stdio connection that take
 * tool list changes (2026-07-28). The SDK's stdio entry serves them on the
 * wire and never shows them to the server, so they are seen on the wire:
 * a listen opens with the entry's acknowledgement honoring
 * `toolsListChanged`, and ends with the client's `notifications/cancelled`
 * of it or the entry's closing result.
 */
export interface ToolListens {
  /** Whether a listen that takes tool list changes is open now. */
  readonly open: () => boolean;
}

type Id = string | number;

/**
 * Watch `transport`'s messages for the listens of its connection. Call it
 * before the SDK sets the transport's handlers; returns the watch.
 */
export function watchToolListens(transport: Transport): ToolListens {
  const open = new Set<Id>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    noteSent(open, message);
    return send(message, options);
  };
  let handler: Transport["onmessage"];
  const onmessage: Transport["onmessage"] = (message, extra) => {
    if (
      isJSONRPCNotification(message) &&
      message.method === "notifications/cancelled"
    ) {
      const id = (message.params as { requestId?: unknown } | undefined)
        ?.requestId;
      if (typeof id === "string" || typeof id === "number") {
        open.delete(id);
      }
    }
    handler?.(message, extra);
  };
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => onmessage,
    set: (h: Transport["onmessage"]) => {
      handler = h;
    },
  });
  return { open: () => open.size > 0 };
}

/** Note a listen acknowledged with tool list changes, or one closed. */
function noteSent(open: Set<Id>, message: JSONRPCMessage): void {
  if (
    isJSONRPCNotification(message) &&
    message.method === "notifications/subscriptions/acknowledged"
  ) {
    const params = message.params as
      | {
          notifications?: { toolsListChanged?: unknown };
          _meta?: Record<string, unknown>;
        }
      | undefined;
    const id = params?._meta?.[SUBSCRIPTION_ID_META_KEY];
    if (
      params?.notifications?.toolsListChanged === true &&
      (typeof id === "string" || typeof id === "number")
    ) {
      open.add(id);
    }
  } else if (isJSONRPCResultResponse(message)) {
    // The entry's graceful close of a listen answers its request.
    open.delete(message.id);
  }
}
