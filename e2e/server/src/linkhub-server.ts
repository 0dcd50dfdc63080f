import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { createHolds } from "./holds.js";
import { createRecorder } from "./recorder.js";
import { createRecordingInterceptor } from "./recording-interceptor.js";
import {
  createReflectionRoutes,
  type ReflectionOptions,
} from "./reflection-service.js";
import { createRoutes, recordedServices, routedServices } from "./routes.js";
import { createStore } from "./store.js";

/** The host the server listens on unless told otherwise. */
export const defaultHost = "127.0.0.1";

/** How long close() lets open HTTP/2 sessions finish before destroying them. */
const closeGraceMillis = 2_000;

/**
 * Where a listening server can be reached.
 */
export interface ServerAddress {
  /** The host it listens on, `127.0.0.1` by default. */
  readonly host: string;
  /** The port it listens on; the one the OS chose when asked for port 0. */
  readonly port: number;
  /** `<host>:<port>`, as printed in the ready line. */
  readonly address: string;
  /** `http://<host>:<port>` (`https://` with TLS): the base URL for a Connect transport. */
  readonly baseUrl: string;
}

/**
 * The test API on an HTTP/2 cleartext server, with its own empty state.
 */
export interface LinkhubServer {
  /** The underlying server; its request handler serves every service. */
  readonly http2Server: http2.Http2Server | http2.Http2SecureServer;
  /** Starts listening; port 0 (the default) lets the OS choose one. */
  listen(options?: ListenOptions): Promise<ServerAddress>;
  /**
   * Stops accepting connections, lets open sessions finish their calls
   * (destroying those still open after a grace period) and resolves once the
   * server is closed. Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/**
 * Where to listen.
 */
export interface ListenOptions {
  /** The port; 0 (the default) lets the OS choose one. */
  port?: number;
  /** The host; `127.0.0.1` by default. */
  host?: string;
}

/**
 * The server's certificate and key (PEM), to serve over TLS instead of
 * cleartext HTTP/2.
 */
export interface TlsOptions {
  /** The certificate chain, PEM. */
  cert: string | Buffer;
  /** Its private key, PEM. */
  key: string | Buffer;
}

/**
 * How to create the server.
 */
export interface LinkhubServerOptions {
  /** Serve over TLS with this certificate; cleartext HTTP/2 when absent. */
  tls?: TlsOptions;
  /**
   * Serve gRPC server reflection (grpc.reflection.v1 and v1alpha, or the
   * versions given) over the services' compiled descriptors; off when
   * absent.
   */
  reflection?: ReflectionOptions;
}

/**
 * A server that is listening: its address, and close().
 */
export interface RunningServer extends ServerAddress {
  /** Closes the server, as LinkhubServer.close() does. */
  close(): Promise<void>;
}

/**
 * Creates the test API server: every `linkhub.v1` service over fresh
 * in-memory state, served with the gRPC, gRPC-Web and Connect protocols over
 * HTTP/2 cleartext, or over TLS with `options.tls`. It does not listen until
 * listen() is called.
 */
export function createLinkhubServer(
  options: LinkhubServerOptions = {},
): LinkhubServer {
  const store = createStore();
  const recorder = createRecorder();
  const holds = createHolds();
  const handler = connectNodeAdapter({
    routes: withReflection(
      createRoutes(store, recorder, holds),
      options.reflection,
    ),
    interceptors: [
      createRecordingInterceptor(recorder, recordedServices),
      holds.interceptor,
    ],
    grpc: true,
  });
  const server =
    options.tls === undefined
      ? http2.createServer(handler)
      : http2.createSecureServer(
          { cert: options.tls.cert, key: options.tls.key, allowHTTP1: false },
          handler,
        );
  const scheme = options.tls === undefined ? "http" : "https";
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  let closing: Promise<void> | undefined;

  return {
    http2Server: server,

    listen(options = {}) {
      const host = options.host ?? defaultHost;
      const port = options.port ?? 0;
      return new Promise((resolve, reject) => {
        const onError = (err: Error) => reject(err);
        server.once("error", onError);
        server.listen(port, host, () => {
          server.off("error", onError);
          const bound = (server.address() as AddressInfo).port;
          resolve({
            host,
            port: bound,
            address: `${host}:${bound}`,
            baseUrl: `${scheme}://${host}:${bound}`,
          });
        });
      });
    },

    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const session of sessions) {
            session.destroy();
          }
        }, closeGraceMillis);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        for (const session of sessions) {
          session.close();
        }
      });
      return closing;
    },
  };
}

/**
 * Creates the test API server and starts listening, by default on
 * `127.0.0.1` and a port the OS chooses, over TLS with `options.tls`,
 * serving reflection with `options.reflection`.
 */
export async function startServer(
  options: ListenOptions & LinkhubServerOptions = {},
): Promise<RunningServer> {
  const server = createLinkhubServer({
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    ...(options.reflection === undefined
      ? {}
      : { reflection: options.reflection }),
  });
  const address = await server.listen(options);
  return { ...address, close: () => server.close() };
}

/** `routes`, and reflection over the routed services when asked for. */
function withReflection(
  routes: (router: ConnectRouter) => void,
  reflection: ReflectionOptions | undefined,
): (router: ConnectRouter) => void {
  if (reflection === undefined) return routes;
  const reflectionRoutes = createReflectionRoutes(routedServices, reflection);
  return (router) => {
    routes(router);
    reflectionRoutes(router);
  };
}
