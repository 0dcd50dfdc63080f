import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// What a new user meets on a first run, through the plugin as protoc and buf
// start it (docs/troubleshooting.md lists the errors the plugin cannot see).

const root = resolve(import.meta.dirname, "..", "..");
const plugin = join(root, "node_modules", ".bin", "protoc-gen-ai-tools");
const buf = join(root, "node_modules", ".bin", "buf");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A user's project: `proto/` with the given files, the annotations under
 * `vendor/` (as a user copies or installs them), a buf.yaml with both.
 */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "ai-tools-first-run-"));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, "proto", name)), { recursive: true });
    writeFileSync(join(dir, "proto", name), content);
  }
  cpSync(join(root, "proto", "ai"), join(dir, "vendor", "ai"), {
    recursive: true,
  });
  writeFileSync(
    join(dir, "buf.yaml"),
    "version: v2\nmodules:\n  - path: proto\n  - path: vendor\n",
  );
  mkdirSync(join(dir, "out"));
  return dir;
}

interface Run {
  readonly status: number | null;
  readonly stderr: string;
  /** The files written under out/. */
  readonly written: string[];
}

function written(dir: string): string[] {
  return readdirSync(join(dir, "out"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".go") || f.endsWith(".ts") || f.endsWith(".py"))
    .sort();
}

function protoc(dir: string, opt: string, files: string[]): Run {
  const res = spawnSync(
    "protoc",
    [
      "-Iproto",
      "-Ivendor",
      `--plugin=protoc-gen-ai-tools=${plugin}`,
      "--ai-tools_out=out",
      `--ai-tools_opt=${opt}`,
      ...files,
    ],
    { cwd: dir, encoding: "utf8" },
  );
  return { status: res.status, stderr: res.stderr, written: written(dir) };
}

function bufGenerate(dir: string, opt: string, managed = ""): Run {
  writeFileSync(
    join(dir, "buf.gen.yaml"),
    `version: v2\n${managed}inputs:\n  - directory: proto\nplugins:\n  - local: ${plugin}\n    out: out\n    opt: ${opt}\n    strategy: all\n`,
  );
  const res = spawnSync(buf, ["generate"], { cwd: dir, encoding: "utf8" });
  return { status: res.status, stderr: res.stderr, written: written(dir) };
}

function shopProto(goPackage: string, autoExecute = true): string {
  return `syntax = "proto3";
package shop.v1;
import "ai/tools/v1/annotations.proto";
${goPackage}
message GetOrderRequest { string order_id = 1; }
message Order { string id = 1; }
service OrderService {
  rpc GetOrder(GetOrderRequest) returns (Order) {
    option (ai.tools.v1.rpc_tool) = {name: "get_order", description: "Get an order.", auto_execute: ${autoExecute}};
  }
}
`;
}

const noStack = /\n\s+at /;

describe("a Go go_package mapping missing", () => {
  const missing =
    'shop/v1/shop.proto: OrderService.GetOrder: the Go executor of tool "get_order" needs the Go import path of the client of shop.v1.OrderService, but shop/v1/shop.proto has no go_package; add option go_package = "example.com/your/module/path;pkgname" to it, or give this plugin the M option protoc-gen-go takes (Mshop/v1/shop.proto=example.com/your/module/path), or use buf\'s managed mode (go_package_prefix)';

  it("is one message naming the file and the three fixes, under protoc and buf, with nothing written", () => {
    const dir = project({ "shop/v1/shop.proto": shopProto("") });
    for (const run of [
      protoc(dir, "target=go,mcp=true", ["shop/v1/shop.proto"]),
      bufGenerate(dir, "target=go,mcp=true"),
    ]) {
      expect(run.status).not.toBe(0);
      // Once, though the main file and the MCP file both need the path.
      expect(run.stderr.split(missing).length - 1, run.stderr).toBe(1);
      expect(run.stderr).not.toMatch(noStack);
      expect(run.written).toEqual([]);
    }
  });

  it("takes the M option protoc-gen-go takes, for both files", () => {
    const dir = project({ "shop/v1/shop.proto": shopProto("") });
    const run = protoc(
      dir,
      "target=go,mcp=true,Mshop/v1/shop.proto=example.com/shop/gen/shop/v1;shopv1",
      ["shop/v1/shop.proto"],
    );
    expect(run.stderr).toBe("");
    expect(run.written).toEqual(["ai_tools.gen.go", "ai_tools_mcp.gen.go"]);
    for (const file of run.written) {
      expect(readFileSync(join(dir, "out", file), "utf8")).toContain(
        '\tshopv1 "example.com/shop/gen/shop/v1"\n',
      );
    }
  });

  it("lets M override a go_package, as protoc-gen-go does", () => {
    const dir = project({
      "shop/v1/shop.proto": shopProto(
        'option go_package = "example.com/old/shopv1";',
      ),
    });
    const run = protoc(
      dir,
      "target=go,Mshop/v1/shop.proto=example.com/shop/gen/shop/v1",
      ["shop/v1/shop.proto"],
    );
    expect(run.stderr).toBe("");
    const text = readFileSync(join(dir, "out", "ai_tools.gen.go"), "utf8");
    expect(text).toContain('\tv1 "example.com/shop/gen/shop/v1"\n');
    expect(text).not.toContain("example.com/old");
  });

  it("reads the go_package buf's managed mode gives", () => {
    const dir = project({ "shop/v1/shop.proto": shopProto("") });
    const run = bufGenerate(
      dir,
      "target=go",
      "managed:\n  enabled: true\n  override:\n    - file_option: go_package_prefix\n      value: example.com/shop/gen\n",
    );
    expect(run.stderr).toBe("");
    expect(readFileSync(join(dir, "out", "ai_tools.gen.go"), "utf8")).toContain(
      '\tshopv1 "example.com/shop/gen/shop/v1"\n',
    );
  });

  it.each([
    [
      "target=ts,Mshop/v1/shop.proto=example.com/shop",
      'option "Mshop/v1/shop.proto" applies to target=go, not target=ts',
    ],
    [
      "target=go,Mshop/v1/shop.proto=example.com/a b",
      'invalid value "example.com/a b" for option "Mshop/v1/shop.proto"; use a Go import path, with ;<package name> after it if you like, e.g. Mlinks/v1/links.proto=example.com/app/gen/links/v1',
    ],
    [
      "target=go,Mcp=true",
      'unknown option "Mcp"; valid options: target, mcp, tools, unannotated_tools, include, exclude, trim_prefix, name_prefix, schema, lenient_arguments, deprecated, output_only_comments, json_names, tool_search, providers, validate, go_connect, go_mcp_compat, ts_import_path, py_package, M<file>.proto',
    ],
  ])("refuses %s", (opt, message) => {
    const dir = project({ "shop/v1/shop.proto": shopProto("") });
    const run = protoc(dir, opt, ["shop/v1/shop.proto"]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toBe(`--ai-tools_out: ${message}\n`);
    expect(run.written).toEqual([]);
  });
});

describe("no annotation on any method", () => {
  const plain = `syntax = "proto3";
package plain.v1;
message M { string id = 1; }
service S { rpc Get(M) returns (M); }
`;
  const warning =
    'protoc-gen-ai-tools: warning: no method of plain/v1/plain.proto has option (ai.tools.v1.rpc_tool), so no file was written; annotate each method to expose (import "ai/tools/v1/annotations.proto", then option (ai.tools.v1.rpc_tool) = {name: "get_order", description: "..."} in the rpc\'s body), or pass tools=all to expose every method\n';

  it("says why nothing was written, under protoc and buf", () => {
    const dir = project({ "plain/v1/plain.proto": plain });
    for (const run of [
      protoc(dir, "target=ts", ["plain/v1/plain.proto"]),
      bufGenerate(dir, "target=ts"),
    ]) {
      expect(run.status).toBe(0);
      expect(run.stderr).toBe(warning);
      expect(run.written).toEqual([]);
    }
  });

  it("says nothing when tools=all makes the methods tools", () => {
    const dir = project({ "plain/v1/plain.proto": plain });
    const run = protoc(dir, "target=ts,tools=all", ["plain/v1/plain.proto"]);
    expect(run.stderr).toBe("");
    expect(run.written).toEqual(["ai_tools.gen.ts"]);
  });

  it("says nothing when an annotated method is left out by exclude", () => {
    const dir = project({
      "shop/v1/shop.proto": shopProto(""),
      "plain/v1/plain.proto": plain,
    });
    const run = protoc(dir, "target=ts,exclude=shop.v1.OrderService.GetOrder", [
      "plain/v1/plain.proto",
      "shop/v1/shop.proto",
    ]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.written).toEqual([]);
  });
});

describe("an option naming the folder of one proto file's output", () => {
  const shop = { "shop/v1/shop.proto": shopProto("") };

  it("ts_import_path: warns with the folder to give, under protoc and buf, and writes the file", () => {
    const dir = project(shop);
    const warning =
      'protoc-gen-ai-tools: warning: ts_import_path "./gen/shop/v1" ends with the directory of shop/v1/shop.proto, so the generated code imports "./gen/shop/v1/shop/v1/shop_pb.js"; ts_import_path is the folder protoc-gen-es writes into (its out), relative to this plugin\'s out, under which it writes shop/v1/shop_pb.ts: if that folder is ./gen, use ts_import_path=./gen\n';
    for (const run of [
      protoc(dir, "target=ts,mcp=true,ts_import_path=./gen/shop/v1", [
        "shop/v1/shop.proto",
      ]),
      bufGenerate(dir, "target=ts,mcp=true,ts_import_path=./gen/shop/v1"),
    ]) {
      expect(run.status).toBe(0);
      // Once, though both files import the module.
      expect(run.stderr).toBe(warning);
      expect(run.written).toEqual(["ai_tools.gen.ts", "ai_tools_mcp.gen.ts"]);
    }
  });

  it.each([
    ["./gen/shop/v1/shop_pb.js", "./gen"],
    ["./shop_pb", "."],
  ])("ts_import_path=%s: warns that it names a file", (path, folder) => {
    const dir = project(shop);
    const run = protoc(dir, `target=ts,ts_import_path=${path}`, [
      "shop/v1/shop.proto",
    ]);
    expect(run.stderr).toContain(
      `warning: ts_import_path "${path}" names a file, so the generated code imports "${path}/shop/v1/shop_pb.js";`,
    );
    expect(run.stderr).toContain(
      `: if that folder is ${folder}, use ts_import_path=${folder}\n`,
    );
  });

  it.each([
    ["gen.shop.v1", "if that folder is gen, use py_package=gen"],
    ["shop.v1", "if that folder is on sys.path, leave py_package out"],
  ])("py_package=%s: warns with the package to give", (pkg, fix) => {
    const dir = project(shop);
    const run = protoc(dir, `target=py,mcp=true,py_package=${pkg}`, [
      "shop/v1/shop.proto",
    ]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      `protoc-gen-ai-tools: warning: py_package "${pkg}" ends with the directory of shop/v1/shop.proto, so the generated code imports ${pkg}.shop.v1.shop_pb2; py_package is the package of the folder grpcio-tools writes into (its --python_out), under which it writes shop/v1/shop_pb2.py: ${fix}\n`,
    );
    expect(run.written).toEqual(["ai_tools_gen.py", "ai_tools_mcp_gen.py"]);
  });

  it.each([
    "target=ts,ts_import_path=../gen",
    "target=ts,ts_import_path=./v1",
    "target=py,py_package=gen",
    "target=py,py_package=app.v1",
  ])("%s: says nothing for a folder", (opt) => {
    const dir = project(shop);
    const run = protoc(dir, opt, ["shop/v1/shop.proto"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("names ts_import_path above the imports a missing module error points at", () => {
    const dir = project(shop);
    const run = protoc(dir, "target=ts,mcp=true,ts_import_path=../gen", [
      "shop/v1/shop.proto",
    ]);
    for (const file of run.written) {
      expect(readFileSync(join(dir, "out", file), "utf8")).toContain(
        '\n// protoc-gen-es output, found through the plugin option ts_import_path ("../gen").\nimport { OrderService } from "../gen/shop/v1/shop_pb.js";\n',
      );
    }
    expect(run.written).toEqual(["ai_tools.gen.ts", "ai_tools_mcp.gen.ts"]);
  });

  it("says nothing when the generated code imports nothing from it", () => {
    const dir = project({ "shop/v1/shop.proto": shopProto("", false) });
    const run = protoc(dir, "target=py,py_package=gen.shop.v1", [
      "shop/v1/shop.proto",
    ]);
    expect(run.stderr).toBe("");
    expect(run.written).toEqual(["ai_tools_gen.py"]);
  });
});
