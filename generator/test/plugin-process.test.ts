import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
  mkdirSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commonOptions } from "../src/options.js";
import { targets } from "../src/targets/registry.js";

// The plugin as users run it: a separate process started by protoc or buf.

const root = resolve(import.meta.dirname, "..", "..");
const plugin = join(root, "node_modules", ".bin", "protoc-gen-ai-tools");
const buf = join(root, "node_modules", ".bin", "buf");
const exampleFiles = [
  "acme/links/v1/links.proto",
  "acme/themes/v1/themes.proto",
];

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ai-tools-proc-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

function protoc(out: string, args: string[], files = exampleFiles) {
  return spawnSync(
    "protoc",
    [
      `-I${join(root, "proto")}`,
      `-I${join(root, "proto", "examples")}`,
      `--plugin=protoc-gen-ai-tools=${plugin}`,
      `--ai-tools_out=${out}`,
      ...args,
      ...files,
    ],
    { encoding: "utf8", cwd: join(root, "proto", "examples") },
  );
}

/** Runs the executable with `args` and no stdin. */
function runBin(args: string[]) {
  return spawnSync(plugin, args, { encoding: "utf8", input: "" });
}

describe("the plugin executable", () => {
  it("prints its version with --version and -v, exit code 0", () => {
    const { version } = JSON.parse(
      readFileSync(join(root, "generator", "package.json"), "utf8"),
    ) as { version: string };
    for (const arg of ["--version", "-v"]) {
      const res = runBin([arg]);
      expect(res.stderr).toBe("");
      expect(res.status).toBe(0);
      expect(res.stdout).toBe(`protoc-gen-ai-tools v${version}\n`);
    }
  });

  it("prints its help with --help and -h, exit code 0: how to run it and every option", () => {
    for (const arg of ["--help", "-h"]) {
      const res = runBin([arg]);
      expect(res.stderr).toBe("");
      expect(res.status).toBe(0);
      expect(res.stdout).toContain("protoc and buf run it without arguments");
      expect(res.stdout).toContain("buf.gen.yaml");
      expect(res.stdout).toContain("--ai-tools_out=");
      expect(res.stdout).toContain(
        "https://github.com/protoc-gen-ai-tools/protoc-gen-ai-tools",
      );
      const options = [
        "target",
        ...Object.keys(commonOptions),
        ...Object.values(targets).flatMap((t) => Object.keys(t.options)),
      ];
      for (const option of options) {
        expect(res.stdout).toMatch(new RegExp(`^  ${option}=`, "m"));
      }
      for (const target of Object.values(targets)) {
        if ("mapping" in target) {
          const { prefix, suffix } = target.mapping;
          expect(res.stdout).toMatch(
            new RegExp(`^  ${prefix}\\w+\\${suffix}=`, "m"),
          );
        }
      }
    }
  });

  it("refuses any other argument with a usage error, exit code 2", () => {
    for (const args of [["--out"], ["gen"], ["--help", "x"]]) {
      const res = runBin(args);
      expect(res.status).toBe(2);
      expect(res.stdout).toBe("");
      expect(res.stderr).toContain(
        `protoc-gen-ai-tools: unknown argument ${JSON.stringify(args.at(-1))}: protoc and buf run it without arguments`,
      );
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
    const both = runBin(["--help", "--version"]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("give --help and --version one at a time");
  });

  it("says stdin is not a request when it is not protobuf, exit code 1", () => {
    const res = spawnSync(plugin, [], { encoding: "utf8", input: "hello\n" });
    expect(res.status).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toMatch(
      /^protoc-gen-ai-tools: stdin is not a google\.protobuf\.compiler\.CodeGeneratorRequest \(.+\): protoc or buf runs this plugin and sends one; see protoc-gen-ai-tools --help\n$/,
    );
  });

  it("runs under protoc and under buf generate, with the same bytes", () => {
    const viaProtoc = tempDir();
    const res = protoc(viaProtoc, ["--ai-tools_opt=target=go"]);
    expect(res.stderr).toBe("");
    expect(res.status).toBe(0);

    const viaBuf = tempDir();
    writeFileSync(
      join(viaBuf, "buf.gen.yaml"),
      `version: v2\nplugins:\n  - local: ${plugin}\n    out: ${join(viaBuf, "out")}\n    opt: target=go\n    strategy: all\n`,
    );
    execFileSync(
      buf,
      [
        "generate",
        "proto/examples",
        "--template",
        join(viaBuf, "buf.gen.yaml"),
      ],
      { cwd: root, stdio: "pipe" },
    );

    const a = readFileSync(join(viaProtoc, "ai_tools.gen.go"), "utf8");
    const b = readFileSync(join(viaBuf, "out", "ai_tools.gen.go"), "utf8");
    expect(
      a.startsWith(
        "// Code generated by protoc-gen-ai-tools. DO NOT EDIT.\n\npackage gentools\n",
      ),
    ).toBe(true);
    expect(a).toBe(b);
  });

  it("gives the same bytes whatever the order of the files", () => {
    const first = tempDir();
    const second = tempDir();
    expect(protoc(first, [], exampleFiles).status).toBe(0);
    expect(protoc(second, [], [...exampleFiles].reverse()).status).toBe(0);
    expect(readFileSync(join(first, "ai_tools.gen.go"), "utf8")).toBe(
      readFileSync(join(second, "ai_tools.gen.go"), "utf8"),
    );
  });

  it("fails through protoc with the plugin's message and writes nothing", () => {
    const out = tempDir();
    const res = protoc(out, ["--ai-tools_opt=target=cobol"]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain(
      'invalid value "cobol" for option "target"; valid values: go, ts, py',
    );
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(out, "ai_tools.gen.go"))).toBe(false);
  });

  it("refuses bad protos through protoc without a stack trace", () => {
    const src = tempDir();
    mkdirSync(join(src, "bad"), { recursive: true });
    writeFileSync(
      join(src, "bad", "bad.proto"),
      `syntax = "proto3";
package bad;
import "ai/tools/v1/annotations.proto";
message Req {}
service S {
  rpc Chat(stream Req) returns (stream Req) {
    option (ai.tools.v1.rpc_tool) = {name: "chat", description: "d"};
  }
}
`,
    );
    const out = tempDir();
    const res = spawnSync(
      "protoc",
      [
        `-I${join(root, "proto")}`,
        `-I${src}`,
        `--plugin=protoc-gen-ai-tools=${plugin}`,
        `--ai-tools_out=${out}`,
        "bad/bad.proto",
      ],
      { encoding: "utf8" },
    );
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain(
      'bad/bad.proto: S.Chat: tool "chat" is a bidi-streaming method',
    );
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it("runs dist/'s modules when they are newer than the bundle, except in node_modules", () => {
    const generator = join(root, "generator");
    // A copy of the executable and its bundle, with a dist/cli.js written
    // after them that does nothing, in `dir`: the bundle answers the empty
    // request with an empty response (a few bytes), dist/cli.js with none.
    const install = (dir: string) => {
      cpSync(join(generator, "bin"), join(dir, "bin"), { recursive: true });
      mkdirSync(join(dir, "dist"));
      cpSync(
        join(generator, "dist", "protoc-gen-ai-tools.cjs"),
        join(dir, "dist", "protoc-gen-ai-tools.cjs"),
      );
      writeFileSync(join(dir, "dist", "cli.js"), "export {};\n");
      const later = new Date(Date.now() + 60_000);
      utimesSync(join(dir, "dist", "cli.js"), later, later);
      return spawnSync(
        process.execPath,
        [join(dir, "bin", "protoc-gen-ai-tools")],
        { input: Buffer.from("\x12\x09target=go", "latin1") },
      );
    };
    const checkout = install(join(tempDir(), "protoc-gen-ai-tools"));
    expect(checkout.status).toBe(0);
    expect(checkout.stdout.length).toBe(0);
    const installed = join(tempDir(), "node_modules", "protoc-gen-ai-tools");
    mkdirSync(installed, { recursive: true });
    const fromPackage = install(installed);
    expect(fromPackage.status).toBe(0);
    expect(fromPackage.stdout.length).toBeGreaterThan(0);
  });

  it("writes nothing when no method is annotated", () => {
    const src = tempDir();
    writeFileSync(
      join(src, "plain.proto"),
      `syntax = "proto3";\npackage p;\nmessage M {}\nservice S { rpc Get(M) returns (M); }\n`,
    );
    const out = tempDir();
    const res = spawnSync(
      "protoc",
      [
        `-I${src}`,
        `--plugin=protoc-gen-ai-tools=${plugin}`,
        `--ai-tools_out=${out}`,
        "plain.proto",
      ],
      {
        encoding: "utf8",
      },
    );
    expect(res.status).toBe(0);
    expect(existsSync(join(out, "ai_tools.gen.go"))).toBe(false);
  });
});
