#!/usr/bin/env node
// The main job, shown: generate the TypeScript tools of an API and let a
// scripted "model" drive the real server through the generated executor.
//
//   1. starts the bundled test server (e2e/server, linkhub.v1) on 127.0.0.1;
//   2. runs buf generate over e2e/proto (the linkhub.v1 API that server
//      implements) with protoc-gen-es and this plugin (target=ts) into a
//      temporary directory, and loads the generated ai_tools.gen.ts;
//   3. plays a fixed list of tool calls, as a model would make them (aliases
//      included, one mistake too), through createExecutor(transport), and
//      prints for each what the model sent and saw next to what the server
//      received (from TestControlService.GetRecorded).
//
// Needs the workspace built (scripts/setup.sh does it). Plain text output.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
);
const e2eTs = path.join(repoRoot, "e2e", "ts");
const need = [
  [path.join(repoRoot, "generator", "dist", "index.js"), "the plugin"],
  [path.join(repoRoot, "e2e", "server", "dist", "index.js"), "the test server"],
  [
    path.join(repoRoot, "runtimes", "ts", "dist", "index.js"),
    "@protoc-gen-ai-tools/runtime",
  ],
  [path.join(e2eTs, "node_modules", ".bin", "protoc-gen-es"), "protoc-gen-es"],
];
for (const [file, what] of need) {
  if (!existsSync(file)) {
    console.error(
      `demo: ${what} is missing (${path.relative(repoRoot, file)}): run scripts/setup.sh first`,
    );
    process.exit(1);
  }
}

const out = mkdtempSync(path.join(tmpdir(), "ai-tools-demo-"));
let server;
try {
  await main();
} finally {
  await server?.close();
  rmSync(out, { recursive: true, force: true });
}

async function main() {
  const { startServer } = await import(
    pathToFileURL(path.join(repoRoot, "e2e", "server", "dist", "index.js")).href
  );
  server = await startServer();

  console.log(
    "protoc-gen-ai-tools demo: TypeScript tools driving a real gRPC server",
  );
  console.log("");
  console.log(
    "API:    linkhub.v1 from e2e/proto (links, page themes, workflow steps),",
  );
  console.log(
    "        the API the bundled test server (e2e/server) implements",
  );
  console.log(`server: ${server.address} (gRPC, in this process)`);

  // Generate: protoc-gen-es for the messages and services, this plugin for
  // the tools; then transpile the TypeScript to run it here.
  const bin = (n) => path.join(e2eTs, "node_modules", ".bin", n);
  const template = {
    version: "v2",
    plugins: [
      {
        local: bin("protoc-gen-es"),
        out,
        opt: ["target=ts", "import_extension=js"],
        include_imports: true,
      },
      {
        local: path.join(
          repoRoot,
          "node_modules",
          ".bin",
          "protoc-gen-ai-tools",
        ),
        out,
        opt: "target=ts",
        strategy: "all",
      },
    ],
  };
  execFileSync(
    bin("buf"),
    ["generate", "e2e/proto", "--template", JSON.stringify(template)],
    {
      cwd: repoRoot,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const genFile = path.join(out, "ai_tools.gen.ts");
  const lines = readFileSync(genFile, "utf8").split("\n").length;
  const ts = (
    await import(
      pathToFileURL(
        path.join(e2eTs, "node_modules", "typescript", "lib", "typescript.js"),
      ).href
    )
  ).default;
  for (const file of walk(out).filter((f) => f.endsWith(".ts"))) {
    const js = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    }).outputText;
    writeFileSync(file.replace(/\.ts$/, ".js"), js);
  }
  // The generated code imports its packages by name, as in a user's project.
  for (const pkg of [
    "@bufbuild/protobuf",
    "@connectrpc/connect",
    "@connectrpc/connect-node",
    "@protoc-gen-ai-tools/runtime",
  ]) {
    mkdirSync(path.dirname(path.join(out, "node_modules", pkg)), {
      recursive: true,
    });
    symlinkSync(
      path.join(e2eTs, "node_modules", pkg),
      path.join(out, "node_modules", pkg),
    );
  }
  writeFileSync(path.join(out, "package.json"), '{"type":"module"}');
  writeFileSync(
    path.join(out, "demo-imports.js"),
    'export * as gen from "./ai_tools.gen.js";\n' +
      'export { createGrpcTransport } from "@connectrpc/connect-node";\n' +
      'export { Code, createClient } from "@connectrpc/connect";\n' +
      'export { TestControlService } from "./linkhub/v1/control_pb.js";\n',
  );
  const { gen, createGrpcTransport, createClient, Code, TestControlService } =
    await import(pathToFileURL(path.join(out, "demo-imports.js")).href);
  const tools = gen.allTools();
  console.log(
    `tools:  ${path.basename(genFile)} (${lines} lines, prettier-formatted), ${tools.length} tools:`,
  );
  console.log(wrap(tools.map((t) => t.name).join(", "), 8, 78));
  console.log("");

  const transport = createGrpcTransport({ baseUrl: server.baseUrl });
  const control = createClient(TestControlService, transport);
  await control.reset({});
  const executor = gen.createExecutor(transport);
  const ws = "5f0c1f7e-3b7a-4d2e-9a61-2c8e4b1d7a90"; // the user's workspace: stays raw

  // What a model would send, in order. Aliases are all it ever knows.
  const script = [
    [
      "page_themes_create",
      {
        workspace_id: ws,
        name: "Spring",
        background_color: "#ffeedd",
        font: "Inter",
        palette: [{ key: "accent", value: "#ff0066" }],
      },
    ],
    [
      "links_create",
      {
        workspace_id: ws,
        target_url: "https://example.com/spring",
        slug: "spring",
        page_theme_id: "theme-1",
        labels: [{ key: "campaign", value: "spring" }],
        title: "Spring sale",
        expire_after: "86400s",
      },
    ],
    [
      "links_create",
      {
        workspace_id: ws,
        target_url: "https://example.com/summer",
        slug: null,
        page_theme_id: "",
        labels: [],
        title: "Summer",
        expire_after: null,
      },
    ],
    ["links_list", { workspace_id: ws, page_theme_id: null }],
    [
      "steps_create",
      {
        link_id: "link-1",
        send_email: null,
        open_link: { link_id: "link-2" },
        wait: null,
      },
    ],
    ["links_get", { id: "link-7" }], // invented: refused, nothing sent
    [
      "links_update",
      {
        id: "link-2",
        status: "LINK_STATUS_PAUSED",
        page_theme_id: "theme-1",
        update_mask: "status,pageThemeId",
      },
    ],
    ["links_delete", { id: "link-2" }],
    ["links_get", { id: "link-2" }], // deleted: the server's NOT_FOUND, aliased
  ];
  let seen = 0;
  for (const [i, [tool, args]] of script.entries()) {
    const argsJson = JSON.stringify(args);
    console.log(`[${i + 1}] ${tool}`);
    console.log(`    model sends      ${argsJson}`);
    let result;
    try {
      result = `${await executor.execute(tool, argsJson)}`;
    } catch (e) {
      result = `${e.name}${e.code === undefined ? "" : ` ${Code[e.code]}`}: ${e.message}`;
    }
    const recorded = (await control.getRecorded({})).requests;
    const fresh = recorded.slice(seen);
    seen = recorded.length;
    if (fresh.length === 0) {
      console.log("    server receives  nothing");
    }
    for (const r of fresh) {
      console.log(
        `    server receives  ${r.procedure.replace(/^linkhub\.v1\./, "")} ${r.requestJson}`,
      );
    }
    console.log(`    model sees       ${result}`);
    console.log("");
  }

  const state = JSON.parse(executor.aliases.exportState());
  console.log(
    "alias table of this conversation (executor.aliases.exportState()):",
  );
  for (const [alias, uuid] of Object.entries(state.aliases)) {
    console.log(`    ${alias.padEnd(8)} = ${uuid}`);
  }
  console.log("");
  console.log(
    "The model only ever saw aliases (and its workspace id); the server only ever",
  );
  console.log(
    "received UUIDs. Tests of all this: npx -y pnpm@12.4.2 --filter @protoc-gen-ai-tools/e2e-ts e2e",
  );
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.name === "node_modules"
      ? []
      : d.isDirectory()
        ? walk(path.join(dir, d.name))
        : [path.join(dir, d.name)],
  );
}

function wrap(text, indent, width) {
  const words = text.split(" ");
  const lines = [];
  let line = "";
  for (const w of words) {
    if (line !== "" && indent + line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else {
      line = line === "" ? w : `${line} ${w}`;
    }
  }
  if (line !== "") lines.push(line);
  return lines.map((l) => " ".repeat(indent) + l).join("\n");
}
