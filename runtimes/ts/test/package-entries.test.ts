// The package as a user installs it: its built entries (dist/, as `files`
// ships it) under node_modules/@protoc-gen-ai-tools/runtime of a scratch
// directory that holds only the required peers, @bufbuild/protobuf and
// @connectrpc/connect. The main entry must load there: the optional peers
// (the MCP SDK, redis, ai) are reached only through the subpath exports.
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const packageDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
);
const manifest = JSON.parse(
  readFileSync(path.join(packageDir, "package.json"), "utf8"),
) as {
  name: string;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};
const requiredPeers = Object.keys(manifest.peerDependencies).filter(
  (name) => manifest.peerDependenciesMeta[name]?.optional !== true,
);

let scratch: string;

/** Imports `specifier` in a node process run in the scratch directory. */
function importIn(specifier: string) {
  return spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(specifier)}); console.log(Object.keys(m).length);`,
    ],
    { cwd: scratch, encoding: "utf8" },
  );
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "ai-tools-runtime-entries-"));
  const installed = path.join(
    scratch,
    "node_modules",
    ...manifest.name.split("/"),
  );
  mkdirSync(installed, { recursive: true });
  cpSync(
    path.join(packageDir, "package.json"),
    path.join(installed, "package.json"),
  );
  cpSync(path.join(packageDir, "dist"), path.join(installed, "dist"), {
    recursive: true,
  });
  for (const peer of requiredPeers) {
    const link = path.join(scratch, "node_modules", ...peer.split("/"));
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(
      realpathSync(path.join(packageDir, "node_modules", peer)),
      link,
    );
  }
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe("the peer dependency ranges", () => {
  // The nightly workflow installs the lowest version of each range: it
  // must be the one the tests run (the devDependencies' pin).
  it.each(Object.entries(manifest.peerDependencies))(
    "%s %s starts at the tested version",
    (name, range) => {
      expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
      expect(range.slice(1)).toBe(manifest.devDependencies[name]);
    },
  );
});

describe("the package's entries without the optional peers", () => {
  it("the required peers are protobuf-es and Connect alone", () => {
    expect(requiredPeers.sort()).toEqual([
      "@bufbuild/protobuf",
      "@connectrpc/connect",
    ]);
  });

  it("the main entry loads", () => {
    const run = importIn(manifest.name);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(Number(run.stdout)).toBeGreaterThan(10);
  });

  it("/redis loads without redis: it sends commands through the client it is given", () => {
    const run = importIn(`${manifest.name}/redis`);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it.each([
    ["/mcp", "@modelcontextprotocol/"],
    ["/vercel-ai", "ai"],
    ["/otel", "@opentelemetry/api"],
  ])("%s needs its optional peer (%s)", (subpath, peer) => {
    const run = importIn(manifest.name + subpath);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("ERR_MODULE_NOT_FOUND");
    expect(run.stderr).toContain(`'${peer}`);
  });

  it("the optional peers are installed next to this package, so the subpaths load there", () => {
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `for (const s of ["/mcp", "/redis", "/vercel-ai", "/otel"]) await import(${JSON.stringify(manifest.name)} + s);`,
      ],
      { cwd: packageDir, encoding: "utf8" },
    );
    expect(out).toBe("");
  });
});
