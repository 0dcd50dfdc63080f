// A local Redis Cluster of six redis-server processes (three primaries,
// three replicas) on free ports, for the failover tests of the stores.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  launchRedis,
  pollUntil,
  redisCli,
  type RedisProcess,
} from "./redis-process.js";
import { freePort } from "./redis-server.js";

/** One node of a {@link RedisCluster}. */
export interface RedisClusterNode {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Its process id (-1 once killed). */
  readonly pid: number;
  /** Whether its process runs. */
  readonly running: boolean;
  /** Run a command on this node with redis-cli; its output. */
  cli(...command: string[]): Promise<string>;
}

/** The nodes serving a key's slot. */
export interface Shard {
  readonly slot: number;
  readonly primary: RedisClusterNode;
  readonly replicas: readonly RedisClusterNode[];
}

/** A cluster started by {@link startRedisCluster}. */
export interface RedisCluster {
  /** Six nodes; the first three were created primaries. */
  readonly nodes: readonly RedisClusterNode[];
  /** A seed node's URL (the first node's). */
  readonly url: string;
  /** The shard serving key, as the cluster reports it now. */
  shardOf(key: string): Promise<Shard>;
  /**
   * `CLUSTER FAILOVER` sent to the replica of key's primary; resolves when
   * every running node names the replica the slot's primary.
   */
  failover(key: string): Promise<{ primary: RedisClusterNode }>;
  /**
   * SIGKILL key's primary; resolves once it is dead, with `takeover`, which
   * resolves when every running node names a replica the slot's primary
   * and the cluster state is ok again.
   */
  killPrimary(key: string): Promise<{
    killed: RedisClusterNode;
    takeover: Promise<{ primary: RedisClusterNode }>;
  }>;
  /** Kill every node and remove their files. Idempotent. */
  stop(): Promise<void>;
}

/** How long a node may miss others before a failover (ms): the takeover time. */
const nodeTimeoutMs = 2000;

/** A line of `CLUSTER NODES`. */
interface NodeLine {
  readonly id: string;
  readonly port: number;
  readonly flags: readonly string[];
  readonly primaryId: string;
  readonly slots: readonly [number, number][];
}

/** Parse `CLUSTER NODES` (ip:port@bus flags primary … slots). */
function parseNodes(text: string): NodeLine[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((line) => {
      const [id = "", addr = "", flags = "", primaryId = "", , , , , ...slots] =
        line.trim().split(" ");
      return {
        id,
        port: Number(/:(\d+)@/.exec(addr)?.[1] ?? 0),
        flags: flags.split(","),
        primaryId,
        slots: slots
          .filter((s) => !s.startsWith("["))
          .map((s): [number, number] => {
            const [a, b = a] = s.split("-").map(Number) as [number, number?];
            return [a, b];
          }),
      };
    });
}

/** The command line of a cluster node. */
function nodeArgs(port: number, busPort: number, dir: string): string[] {
  return [
    ...["--port", String(port), "--bind", "127.0.0.1"],
    ...["--cluster-enabled", "yes", "--cluster-port", String(busPort)],
    ...["--cluster-config-file", path.join(dir, "nodes.conf")],
    ...["--cluster-node-timeout", String(nodeTimeoutMs)],
    ...["--dir", dir, "--save", "", "--appendonly", "no"],
    // A replica's first sync starts at once (the default waits 5 s for more replicas).
    ...["--repl-diskless-sync-delay", "0", "--loglevel", "warning"],
  ];
}

/** n distinct free ports. */
async function freePorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < n) {
    const p = await freePort();
    if (!ports.includes(p)) ports.push(p);
  }
  return ports;
}

/**
 * Start six redis-servers in cluster mode (no persistence, node timeout
 * 2 s, cluster bus on its own free port, each in its own temporary
 * directory) and create a cluster of three primaries with a replica each
 * (`redis-cli --cluster create --cluster-replicas 1`); resolves when every
 * node reports `cluster_state:ok` and the same slots, and every replica is
 * in sync. On any failure the nodes are killed and their files removed.
 */
export async function startRedisCluster(
  options: { bin?: string } = {},
): Promise<RedisCluster> {
  const bin = options.bin ?? process.env["REDIS_SERVER"] ?? "redis-server";
  const dir = await mkdtemp(path.join(tmpdir(), "ai-tools-cluster-"));
  const procs = new Map<number, RedisProcess>();
  const stop = async () => {
    await Promise.all([...procs.values()].map((p) => p.end("SIGKILL")));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const ports = await freePorts(12);
    const nodes = ports.slice(0, 6).map((port): RedisClusterNode => ({
      port,
      url: `redis://127.0.0.1:${port}`,
      get pid() {
        return procs.get(port)?.pid ?? -1;
      },
      get running() {
        return procs.get(port)?.running ?? false;
      },
      cli: (...command) => redisCli({ port }, ...command),
    }));
    await Promise.all(
      nodes.map(async ({ port }, i) => {
        const nodeDir = path.join(dir, String(port));
        await mkdir(nodeDir);
        const args = nodeArgs(port, ports[6 + i]!, nodeDir);
        procs.set(port, await launchRedis(bin, port, args));
      }),
    );
    await redisCli(
      nodes[0]!,
      "--cluster",
      "create",
      ...nodes.map((n) => `127.0.0.1:${n.port}`),
      ...["--cluster-replicas", "1", "--cluster-yes"],
    );
    await settled(nodes, "the new cluster");
    return {
      nodes,
      url: nodes[0]!.url,
      shardOf: (key) => shardOf(nodes, key),
      async failover(key) {
        const { slot, primary, replicas } = await shardOf(nodes, key);
        const replica = replicas[0]!;
        await replica.cli("CLUSTER", "FAILOVER");
        await settled(nodes, `CLUSTER FAILOVER to ${replica.port}`, (n) =>
          n[slot] === replica.port ? true : undefined,
        );
        await inSync(primary);
        return { primary: replica };
      },
      async killPrimary(key) {
        const { slot, primary, replicas } = await shardOf(nodes, key);
        await procs.get(primary.port)?.end("SIGKILL");
        const ports = replicas.map((r) => r.port);
        const takeover = settled(
          nodes,
          `the takeover of ${primary.port}'s slots`,
          (n) => (ports.includes(n[slot]!) ? n[slot] : undefined),
        ).then((owner) => ({
          primary: nodes.find((n) => n.port === owner)!,
        }));
        takeover.catch(() => {}); // the caller's to await
        return { killed: primary, takeover };
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** The port of the primary serving each slot (index), in one node's view. */
type SlotMap = number[];

/** A node's view of which primary serves which slot (failed ones left out). */
async function slotMap(node: RedisClusterNode): Promise<SlotMap> {
  const map: SlotMap = [];
  for (const line of parseNodes(await node.cli("CLUSTER", "NODES"))) {
    if (!line.flags.includes("master") || line.flags.includes("fail")) continue;
    for (const [a, b] of line.slots) {
      for (let s = a; s <= b; s++) map[s] = line.port;
    }
  }
  return map;
}

/**
 * Wait (30 s at most) until every running node reports `cluster_state:ok`
 * and the same slot map covering every slot, that map passing check, and
 * every replica in sync; resolves with check's value.
 */
async function settled<T = true>(
  nodes: readonly RedisClusterNode[],
  what: string,
  check: (map: SlotMap) => T | undefined = () => true as T,
): Promise<T> {
  const value = await pollUntil(what, 30, async () => {
    const running = nodes.filter((n) => n.running);
    const maps: SlotMap[] = [];
    for (const node of running) {
      const info = await node.cli("CLUSTER", "INFO");
      if (!info.includes("cluster_state:ok")) return undefined;
      maps.push(await slotMap(node));
    }
    const key = (m: SlotMap) => m.join(",");
    if (maps[0]?.filter((p) => p > 0).length !== 16384) return undefined;
    if (maps.some((m) => key(m) !== key(maps[0]!))) return undefined;
    return check(maps[0]);
  }).catch(async (e: Error) => {
    const view = await nodes.find((n) => n.running)?.cli("CLUSTER", "NODES");
    throw new Error(`${e.message}; CLUSTER NODES:\n${view}`);
  });
  for (const node of nodes.filter((n) => n.running)) await inSync(node);
  return value;
}

/** Wait until node, if a replica, has its link to its primary up. */
async function inSync(node: RedisClusterNode): Promise<void> {
  await pollUntil(`replica ${node.port} in sync`, 30, async () => {
    const info = await node.cli("INFO", "replication");
    return info.includes("role:master") ||
      info.includes("master_link_status:up")
      ? true
      : undefined;
  });
}

/** The shard serving key, in the view of the first running node. */
async function shardOf(
  nodes: readonly RedisClusterNode[],
  key: string,
): Promise<Shard> {
  const node = nodes.find((n) => n.running)!;
  const slot = Number(await node.cli("CLUSTER", "KEYSLOT", key));
  const lines = parseNodes(await node.cli("CLUSTER", "NODES"));
  const owner = lines.find(
    (l) =>
      l.flags.includes("master") &&
      !l.flags.includes("fail") &&
      l.slots.some(([a, b]) => a <= slot && slot <= b),
  );
  if (owner === undefined) {
    throw new Error(`no primary serves slot ${slot} of ${JSON.stringify(key)}`);
  }
  const byPort = (port: number) => nodes.find((n) => n.port === port)!;
  return {
    slot,
    primary: byPort(owner.port),
    replicas: lines
      .filter((l) => l.primaryId === owner.id && !l.flags.includes("fail"))
      .map((l) => byPort(l.port)),
  };
}
