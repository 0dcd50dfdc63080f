// The rolling deploy of loaded tools against the real code of an older
// commit (issue 36; docs/store.md, "Key layout"): the Redis store of the
// three runtimes as they were at <commit> (4820ec6 by default, the last
// commit before loaded tools), taken from git, reads and registers in a
// conversation whose tools today's code loaded, and today's code of each
// language loads tools into a conversation the old code wrote; the hash is
// checked at the end. Not part of CI: it needs the git history.
//
//   node e2e/store/scripts/old-read-path.mjs [commit]
//
// Needs what the tests need (redis-server, Go, .venv with the Python
// runtime, runtimes/ts built). Prints each step; exits 1 on a mismatch.
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startRedis } from "@protoc-gen-ai-tools/testkit";
import { createClient } from "redis";

const repo = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../..",
);
const commit = process.argv[2] ?? "4820ec6";
const python = path.join(repo, ".venv", "bin", "python");
const tmp = mkdtempSync(path.join(tmpdir(), "old-read-path-"));
const old = path.join(tmp, "old");
const module =
  "github.com/protoc-gen-ai-tools/protoc-gen-ai-tools/runtimes/go/redisstore";

/** Run a command; its stdout (stderr passed through); throw when it fails. */
function run(command, args, options = {}) {
  const r = spawnSync(command, args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", 2],
    ...options,
  });
  if (r.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (exit ${r.status})`);
  }
  return r.stdout;
}

/** The old code: git archive of <commit>, built where a build is needed. */
function prepareOld() {
  mkdirSync(old);
  const files = [
    "runtimes/go/redisstore",
    "runtimes/ts",
    "runtimes/python",
    "tsconfig.base.json",
  ];
  const tar = execFileSync("git", ["archive", commit, ...files], {
    cwd: repo,
    maxBuffer: 1 << 28,
  });
  execFileSync("tar", ["-x", "-C", old], { input: tar });
  const ts = path.join(old, "runtimes", "ts");
  run(process.execPath, ["scripts/embed-redis-scripts.mjs"], { cwd: ts });
  symlinkSync(
    path.join(repo, "runtimes", "ts", "node_modules"),
    path.join(ts, "node_modules"),
  );
  run(
    path.join(repo, "runtimes", "ts", "node_modules", ".bin", "tsc"),
    ["-p", "tsconfig.json"],
    { cwd: ts },
  );
  const lua = path.join(old, "runtimes", "go", "redisstore");
  for (const name of ["create.lua", "load.lua", "register.lua"]) {
    copyFileSync(
      path.join(lua, name),
      path.join(
        old,
        "runtimes",
        "python",
        "src",
        "ai_tools_runtime",
        "redis",
        name,
      ),
    );
  }
}

/** A Go program on the redisstore module at dir, built into tmp. */
function goProgram(name, dir, source) {
  const d = path.join(tmp, name);
  mkdirSync(d);
  writeFileSync(path.join(d, "main.go"), source);
  writeFileSync(
    path.join(d, "go.mod"),
    `module ${name}\n\ngo 1.26.0\n\nrequire ${module} v0.0.0\n\nreplace ${module} => ${dir}\n`,
  );
  copyFileSync(path.join(dir, "go.sum"), path.join(d, "go.sum"));
  run("go", ["mod", "tidy"], {
    cwd: d,
    env: { ...process.env, GOFLAGS: "-mod=mod" },
  });
  run("go", ["build", "-o", path.join(tmp, `${name}.bin`), "."], { cwd: d });
  return path.join(tmp, `${name}.bin`);
}

const goHead = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"${module}"
	"github.com/redis/go-redis/v9"
)

func main() {
	ctx := context.Background()
	s := redisstore.New(redis.NewClient(&redis.Options{Addr: os.Args[1]}), redisstore.Options{})
	h := os.Args[3]
	epoch, state, err := s.Load(ctx, h)
	if err != nil {
		panic(err)
	}
	_ = state
`;
const goOld = `${goHead}	_ = json.Valid
	state, err = s.Register(ctx, h, epoch, [][2]string{{"link", os.Args[2]}})
	if err != nil {
		panic(err)
	}
	fmt.Println(state)
}
`;
const goNew = `${goHead}	loaded, err := s.LoadTools(ctx, h, epoch, []string{os.Args[2]})
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(loaded)
	fmt.Println(string(b))
}
`;

/** Python: the old or new runtime (PYTHONPATH), register or loadTools. */
const py = `
import asyncio, sys, redis.asyncio
from ai_tools_runtime import AliasConfig, AliasManager
from ai_tools_runtime.redis import RedisConversationStore
async def main(address, op, arg, handle):
    host, port = address.split(":")
    c = redis.asyncio.Redis(host=host, port=int(port))
    s = RedisConversationStore(c)
    if handle == "new":
        handle = await s.create()
        print(handle)
    epoch, state = await s.load(handle)
    AliasManager(AliasConfig(known_alias_prefixes=frozenset({"link"}))).restore_state(state)
    if op == "register":
        print(await s.register(handle, epoch, [("link", arg)]))
    else:
        print(__import__("json").dumps(await s.load_tools(handle, epoch, [arg])))
    await c.aclose()
asyncio.run(main(*sys.argv[1:]))
`;

/** TypeScript: the old dist or today's, register or loadTools. */
const ts = (dist) => `
import { createClient } from "redis";
import { createRedisConversationStore } from "${dist}/redis-conversation-store.js";
import { createAliasManager } from "${dist}/alias-manager.js";
const [address, op, arg, handle] = process.argv.slice(2);
const client = createClient({ url: "redis://" + address });
client.on("error", () => {});
await client.connect();
const s = createRedisConversationStore({ client });
const { epoch, state } = await s.load(handle);
createAliasManager({ knownAliasPrefixes: ["link"], responseAliases: { types: {}, tools: {} } }).restoreState(state);
console.log(op === "register" ? await s.register(handle, epoch, [["link", arg]]) : JSON.stringify(await s.loadTools(handle, epoch, [arg])));
client.destroy();
`;

let failed = false;
/** Report a step and whether its output is what it should be. */
function check(what, output, ok) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}: ${output.trim()}`);
  failed ||= !ok;
}

const uuid = (i) => `0b6f000${i}-0000-4000-8000-00000000000${i}`;

prepareOld();
const redis = await startRedis();
try {
  const address = redis.url.replace("redis://", "");
  const oldGo = goProgram(
    "oldgo",
    path.join(old, "runtimes", "go", "redisstore"),
    goOld,
  );
  const newGo = goProgram(
    "newgo",
    path.join(repo, "runtimes", "go", "redisstore"),
    goNew,
  );
  writeFileSync(path.join(tmp, "store.py"), py);
  writeFileSync(path.join(old, "runtimes", "ts", "old.mjs"), ts("./dist"));
  const newTs = path.join(tmp, "newts");
  mkdirSync(newTs);
  symlinkSync(
    path.join(repo, "runtimes", "ts", "node_modules"),
    path.join(newTs, "node_modules"),
  );
  writeFileSync(
    path.join(newTs, "new.mjs"),
    ts(path.join(repo, "runtimes", "ts", "dist")),
  );
  const oldPy = {
    env: {
      ...process.env,
      PYTHONPATH: path.join(old, "runtimes", "python", "src"),
    },
  };
  const readers = {
    "old py": (h, i) =>
      run(
        python,
        [path.join(tmp, "store.py"), address, "register", uuid(i), h],
        oldPy,
      ),
    "old go": (h, i) => run(oldGo, [address, uuid(i), h]),
    "old ts": (h, i) =>
      run(process.execPath, [
        path.join(old, "runtimes", "ts", "old.mjs"),
        address,
        "register",
        uuid(i),
        h,
      ]),
  };
  const loaders = {
    "new py": (h, t) =>
      run(python, [path.join(tmp, "store.py"), address, "loadTools", t, h]),
    "new go": (h, t) => run(newGo, [address, t, h]),
    "new ts": (h, t) =>
      run(process.execPath, [
        path.join(newTs, "new.mjs"),
        address,
        "loadTools",
        t,
        h,
      ]),
  };
  const client = createClient({ url: redis.url });
  await client.connect();
  // A conversation the old code made and registered in; today's code of
  // each language loads a tool; the old code of each registers beside the
  // loaded tools; today's code loads one more, all in load order.
  const [h] = run(
    python,
    [path.join(tmp, "store.py"), address, "register", uuid(1), "new"],
    oldPy,
  ).split("\n");
  const tools = [];
  for (const [name, load] of Object.entries(loaders)) {
    tools.push(`${name.slice(4)}_tool`);
    const out = load(h, tools.at(-1));
    check(
      `${name} loadTools on a conversation ${commit} wrote`,
      out,
      JSON.stringify(JSON.parse(out)) === JSON.stringify(tools),
    );
  }
  let i = 2;
  for (const [name, read] of Object.entries(readers)) {
    const state = read(h, i);
    check(
      `${name} load and register beside the loaded tools`,
      state,
      JSON.parse(state).aliases[`link-${i}`] === uuid(i),
    );
    i++;
  }
  tools.push("extra");
  for (const [name, load] of Object.entries(loaders)) {
    const out = load(h, "extra");
    check(
      `${name} loadTools after the old registers`,
      out,
      JSON.stringify(JSON.parse(out)) === JSON.stringify(tools),
    );
  }
  const hash = await client.hGetAll(`ai-tools:conv:{${h}}`);
  const fields = Object.entries(hash)
    .filter(([f]) => f.startsWith("t") || f.startsWith("n:"))
    .map(([f, v]) => `${f}=${v}`)
    .sort();
  check(
    "the hash",
    fields.join(" "),
    fields.join(" ") ===
      "n:link=4 t:extra=4 t:go_tool=2 t:py_tool=1 t:ts_tool=3 tn=4",
  );
  client.destroy();
} finally {
  await redis.stop();
  rmSync(tmp, { recursive: true, force: true });
}
console.log(
  failed
    ? "some steps failed"
    : `the ${commit} read path and today's loaded tools share conversations`,
);
process.exit(failed ? 1 : 0);
