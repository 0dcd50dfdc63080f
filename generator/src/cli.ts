import { protocGenAiTools } from "./plugin.js";
import { runNodeJs } from "./run-node.js";

const docs = "https://github.com/protoc-gen-ai-tools/protoc-gen-ai-tools";

/** The arguments the executable takes, each alone. */
const flags = ["--help", "-h", "--version", "-v"];

/** What `protoc-gen-ai-tools --help` prints. */
const help = `Usage: protoc-gen-ai-tools [--help | --version]

protoc-gen-ai-tools ${protocGenAiTools.version} turns annotated RPCs into AI agent tool
definitions, executors and MCP servers for Go, TypeScript and Python.
protoc and buf run it without arguments: it reads a CodeGeneratorRequest on
stdin and writes a CodeGeneratorResponse to stdout.

  buf.gen.yaml:  plugins:
                   - local: protoc-gen-ai-tools
                     out: gen
                     opt: target=go
  protoc:        protoc --ai-tools_out=gen --ai-tools_opt=target=go -I proto x.proto

protoc-gen-ai-tools mcp … serves an API's tools over MCP with no generated
file, from a descriptor set or gRPC reflection: protoc-gen-ai-tools mcp --help

Options (opt: in buf.gen.yaml, --ai-tools_opt= for protoc; comma-separated):
  target=go|ts|py          the language to write (default go)
  mcp=true                 also write the MCP servers
  tools=annotated|all      all: every unary and server-streaming RPC is a tool
  unannotated_tools=read-only-run|run|ask  which unannotated tools ask for an approval
  include=PATTERN          only the methods matching one entry (repeatable)
  exclude=PATTERN          never the methods matching one entry (repeatable)
  trim_prefix=PACKAGE      taken off the full names tool names come from
  name_prefix=PREFIX       put in front of every tool name
  schema=inline|compact    compact: a message used twice is written once ($defs)
  providers=NAME           openai, anthropic, gemini: whose rules are enforced (repeatable)
  lenient_arguments=true   drop unknown argument keys instead of refusing them
  deprecated=drop|keep     keep: deprecated fields and enum values stay in schemas, marked
  output_only_comments=true  fields commented [Output Only] are left out of inputs
  json_names=true          executor results with JSON names (dueTime), not proto names
  tool_search=true         also the tool-search data: namespaces and a search index
  validate=true            go: ai_tools.gen.go checks buf.validate rules (protovalidate)
  go_connect=true          go, mcp=true: also ForwardToConnect<S>Client (connect-go clients)
  go_mcp_compat=true       go, mcp=true: also protoc-gen-go-mcp's names (Register<S>HandlerOpenAI, ...)
  Mfile.proto=IMPORTPATH   go: a file's Go import path, as protoc-gen-go's M option
  ts_import_path=PATH      ts: where the protoc-gen-es output is (default .)
  py_package=PACKAGE       py: the package of the grpcio-tools output

The annotations to import: ai/tools/v1/annotations.proto, in this
package's proto/ folder (node_modules/protoc-gen-ai-tools/proto).
Options in full: ${docs}/blob/main/docs/options.md
Documentation: ${docs}#readme
`;

/**
 * The executable's entry point: bundled with its dependencies into
 * dist/protoc-gen-ai-tools.cjs at build time (scripts/bundle.mjs), so that
 * a run loads one file instead of a few hundred modules. Without arguments
 * it is a protoc plugin (runNodeJs); `--version` and `--help` print and
 * exit 0; anything else is a usage error, exit code 2.
 */
function main(args: readonly string[]): void {
  if (args.length === 0) {
    runNodeJs(protocGenAiTools);
    return;
  }
  const [arg] = args;
  if (args.length === 1 && (arg === "--version" || arg === "-v")) {
    process.stdout.write(
      `${protocGenAiTools.name} ${protocGenAiTools.version}\n`,
    );
    return;
  }
  if (args.length === 1 && (arg === "--help" || arg === "-h")) {
    process.stdout.write(help);
    return;
  }
  const unknown = args.find((a) => !flags.includes(a));
  process.stderr.write(
    `protoc-gen-ai-tools: ${unknown === undefined ? `give ${args.join(" and ")} one at a time` : `unknown argument ${JSON.stringify(unknown)}`}: ` +
      "protoc and buf run it without arguments (it reads a CodeGeneratorRequest on stdin); " +
      "it also takes --help, --version or mcp (the MCP gateway: protoc-gen-ai-tools mcp --help)\n",
  );
  process.exitCode = 2;
}

main(process.argv.slice(2));
