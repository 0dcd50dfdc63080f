// A worker process of the Redis store tests, on the built runtime (dist/):
//   node redis-worker.mjs <redis url> <handle> <worker id> <batches>
// registers, batch after batch, one UUID of its own and one shared by every
// worker (0b6f…-<batch>), and prints each UUID's alias as soon as the store
// returned it, one JSON line per batch: {"batch":i,"own":[uuid,alias],
// "shared":[uuid,alias]}.
import { createClient } from "redis";
import { createRedisConversationStore } from "../../dist/redis-conversation-store.js";

const [url, handle, worker, batches] = process.argv.slice(2);
const client = createClient({ url, disableOfflineQueue: true });
client.on("error", () => {});
await client.connect();
const store = createRedisConversationStore({ client });
const { epoch } = await store.load(handle);
const hex = (n, width) => n.toString(16).padStart(width, "0");
for (let i = 0; i < Number(batches); i++) {
  const own = `${hex(Number(worker), 8)}-0000-4000-8000-${hex(i, 12)}`;
  const shared = `0b6f0000-0000-4000-8000-${hex(i, 12)}`;
  const state = JSON.parse(
    await store.register(handle, epoch, [
      ["acct", own],
      ["acct", shared],
    ]),
  );
  const aliasOf = (uuid) =>
    Object.keys(state.aliases).find((a) => state.aliases[a] === uuid);
  process.stdout.write(
    `${JSON.stringify({ batch: i, own: [own, aliasOf(own)], shared: [shared, aliasOf(shared)] })}\n`,
  );
}
await client.quit();
