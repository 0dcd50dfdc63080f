// The memory one conversation takes in Redis (issue 34; docs/store.md),
// measured with MEMORY USAGE on a redis-server started here: a conversation
// created by create.lua, then aliases registered by register.lua (the
// scripts the three runtimes run, runtimes/go/redisstore/*.lua) ten UUIDs a
// call, as tool results bring them, with the default key prefix.
//
//   node e2e/store/scripts/memory.mjs [aliases ...]   (default: 100 300 1000)
//
// Prints one line per size: aliases, hash fields, encoding, bytes.
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startRedis } from "@protoc-gen-ai-tools/testkit";
import { createClient } from "redis";

const scripts = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../runtimes/go/redisstore",
);
const script = (name) => readFileSync(path.join(scripts, name), "utf8");
const [create, register] = [script("create.lua"), script("register.lua")];
const sizes = process.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(100, 300, 1000);
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error(
    "usage: node memory.mjs [aliases ...] (positive whole numbers)",
  );
  process.exit(2);
}

const ttlMs = String(30 * 60 * 1000);
const redis = await startRedis();
const client = createClient({ url: redis.url });
client.on("error", (err) => console.error(`redis: ${err.message}`));
try {
  await client.connect();
  console.log(
    `redis-server ${await serverVersion()}, key ai-tools:conv:{<22-char handle>}`,
  );
  for (const n of sizes) {
    const key = `ai-tools:conv:{${randomBytes(16).toString("base64url").slice(0, 22)}}`;
    const epoch = randomBytes(16).toString("hex");
    await client.eval(create, { keys: [key], arguments: [ttlMs, epoch] });
    for (let done = 0; done < n; done += 10) {
      const pairs = Array.from({ length: Math.min(10, n - done) }, () => [
        "link",
        randomUUID(),
      ]).flat();
      await client.eval(register, {
        keys: [key],
        arguments: [ttlMs, epoch, ...pairs],
      });
    }
    const bytes = await client.sendCommand([
      "MEMORY",
      "USAGE",
      key,
      "SAMPLES",
      "0",
    ]);
    const fields = await client.hLen(key);
    const encoding = await client.sendCommand(["OBJECT", "ENCODING", key]);
    console.log(
      `${n} aliases: ${fields} fields, ${encoding}, ${bytes} bytes (${(Number(bytes) / n).toFixed(0)} B an alias)`,
    );
  }
} finally {
  client.destroy();
  await redis.stop();
}

/** The server's version, from INFO server. */
async function serverVersion() {
  const info = await client.info("server");
  return /redis_version:(\S+)/.exec(info)?.[1] ?? "?";
}
