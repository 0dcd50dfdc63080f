import type { IncomingMessage, ServerResponse } from "node:http";

/** The most bytes a request body may have by default (the SDK's bound). */
export const defaultMaxBodyBytes = 4 * 1024 * 1024;

/**
 * The most bytes past the limit read and dropped so that a keep-alive
 * connection outlives a 413; past them the connection is closed.
 */
const maxDrainBytes = 1024 * 1024;

/** How long a request body may take to arrive: 30 s. */
export const bodyTimeoutMs = 30_000;

/**
 * A request body read: its text, or why not (too large, or `timedOut`: not
 * all there within the time given; the connection must close).
 */
export type ReadBody =
  | { readonly text: string; readonly tooLarge?: undefined }
  | { readonly text?: undefined; readonly tooLarge: "drained" | "cut" }
  | {
      readonly text?: undefined;
      readonly tooLarge?: undefined;
      readonly timedOut: true;
    };

/**
 * The request body as text, unless past `maxBytes` (with or without a
 * `Content-Length`). A body past the limit is still read to its end and
 * dropped (`drained`: what a 413 left unread would be taken for the next
 * request of a keep-alive connection), up to 1 MiB more; past those, or
 * when `Content-Length` announces more, reading stops (`cut`) and the
 * connection must close ({@link closeAfterResponse}). A body still coming
 * after `timeoutMs` ({@link bodyTimeoutMs} by default) is not waited for
 * (a slow client holds no connection longer).
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  timeoutMs = bodyTimeoutMs,
): Promise<ReadBody> {
  const announced = Number(req.headers["content-length"] ?? 0);
  if (announced > maxBytes + maxDrainBytes) {
    req.pause();
    return Promise.resolve({ tooLarge: "cut" });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (read: ReadBody) => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).pause();
      resolve(read);
    };
    const timer = setTimeout(() => stop({ timedOut: true }), timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
      } else if (size <= maxBytes + maxDrainBytes) {
        chunks.length = 0;
      } else {
        stop({ tooLarge: "cut" });
      }
    };
    const onEnd = () => {
      stop(
        size > maxBytes
          ? { tooLarge: "drained" }
          : { text: Buffer.concat(chunks).toString("utf8") },
      );
    };
    req
      .on("data", onData)
      .once("end", onEnd)
      .once("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
  });
}

/** End the connection of `req` once the response is written. */
export function closeAfterResponse(
  req: IncomingMessage,
  res: ServerResponse,
): void {
  res.setHeader("connection", "close");
  res.once("finish", () => req.socket.destroy());
}
