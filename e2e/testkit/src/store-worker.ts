// The client side of the store workers' protocol (e2e/go/cmd/linkhub-worker,
// e2e/py/scripts/store_worker.py, e2e/ts/src/store-worker.ts): one JSON
// request per line on the worker's stdin, one JSON answer per line on its
// stdout, matched by id.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

/** One answer of a store worker, without its id. */
export interface WorkerAnswer {
  readonly handle?: string;
  /** The tool's result, parsed. */
  readonly result?: unknown;
  readonly ok?: boolean;
  readonly error?: {
    readonly reason: string;
    readonly code?: string;
    readonly message: string;
  };
}

/** A running store worker process. */
export interface StoreWorker {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Send a request (its id is added) and resolve with the answer. */
  send(request: object): Promise<WorkerAnswer>;
  /** Start a conversation: its handle (throws when the worker refuses). */
  start(): Promise<string>;
  /** Call a tool in a conversation. */
  call(handle: string, tool: string, args: unknown): Promise<WorkerAnswer>;
  /** End a conversation. */
  end(handle: string): Promise<WorkerAnswer>;
  /** Close its stdin: resolves with its exit code once it has answered all. */
  close(): Promise<number | null>;
}

/** How to start a store worker, see {@link spawnStoreWorker}. */
export interface StoreWorkerOptions {
  /** The executable and its first arguments (before the protocol flags). */
  readonly command: string;
  readonly args?: readonly string[];
  /** The gRPC test server, host:port. */
  readonly grpc: string;
  /** The Redis server, a redis:// or rediss:// URL (`user:password@` for an ACL user). */
  readonly redisUrl: string;
  /** The CA certificate (PEM) to trust for rediss:// (`--redis-ca`). */
  readonly redisCa?: string;
  /** redisUrl is a seed node of a Redis Cluster (`--redis-cluster`). */
  readonly cluster?: boolean;
  /** The store's timeout in ms (`--store-timeout`; the worker's default 5000). */
  readonly storeTimeoutMs?: number;
  /** The store's alias cap per conversation (`--max-aliases`). */
  readonly maxAliases?: number;
  /** How many requests the worker runs at once. */
  readonly parallel: number;
  /** Names the worker in errors, e.g. "go worker". */
  readonly label: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** The flags of the store's options that are set (contract D of issue 34). */
function storeFlags(options: StoreWorkerOptions): string[] {
  return [
    ...(options.redisCa !== undefined ? ["--redis-ca", options.redisCa] : []),
    ...(options.cluster === true ? ["--redis-cluster"] : []),
    ...(options.storeTimeoutMs !== undefined
      ? ["--store-timeout", String(options.storeTimeoutMs)]
      : []),
    ...(options.maxAliases !== undefined
      ? ["--max-aliases", String(options.maxAliases)]
      : []),
  ];
}

/**
 * Spawn a store worker. Requests still waiting when it exits are answered
 * with the reason `worker-exited`; a request sent after that throws.
 */
export function spawnStoreWorker(options: StoreWorkerOptions): StoreWorker {
  const { label } = options;
  const child = spawn(
    options.command,
    [
      ...(options.args ?? []),
      "--grpc",
      options.grpc,
      "--redis",
      options.redisUrl,
      "--parallel",
      String(options.parallel),
      ...storeFlags(options),
    ],
    { stdio: ["pipe", "pipe", "inherit"], env: options.env ?? process.env },
  );
  child.stdin.on("error", () => {}); // a worker killed on purpose: EPIPE
  const waiting = new Map<number, (a: WorkerAnswer) => void>();
  let next = 0;
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      exitCode = code;
      for (const [id, answer] of waiting) {
        answer({
          error: {
            reason: "worker-exited",
            message: `${label} exited (${String(code)}) before answering request ${id}`,
          },
        });
      }
      waiting.clear();
      resolve(code);
    }),
  );
  createInterface({ input: child.stdout }).on("line", (line) => {
    const { id, ...answer } = JSON.parse(line) as WorkerAnswer & {
      id: number;
    };
    waiting.get(id)?.(answer);
    waiting.delete(id);
  });
  const send = (request: object) =>
    new Promise<WorkerAnswer>((resolve) => {
      if (exitCode !== undefined) {
        throw new Error(`${label} has exited (${String(exitCode)})`);
      }
      const id = next++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  return {
    child,
    pid: child.pid ?? -1,
    send,
    async start() {
      const a = await send({ op: "start" });
      if (a.handle === undefined) {
        throw new Error(`${label}: start: ${JSON.stringify(a)}`);
      }
      return a.handle;
    },
    call: (handle, tool, args) => send({ op: "call", handle, tool, args }),
    end: (handle) => send({ op: "end", handle }),
    close() {
      child.stdin.end();
      return exited;
    },
  };
}
