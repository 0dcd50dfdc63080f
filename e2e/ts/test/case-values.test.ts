// Issue 11, point 7: the invariant "admitted means decodable" for compact
// schemas ($defs, recursion through $ref) and for buf.validate keywords, on
// the generator's golden cases `compact` (schema=compact), `validate` and
// `recursion` (schema=compact with providers=openai: strict cycles),
// generated into src/gen/cases/ by scripts/generate.mjs. 200 values per
// tool nightly (40 in .ci/run), generated from the plugin's schema (@protoc-gen-ai-tools/e2e-samples
// caseValues, $refs followed three times on a path), go through the
// generated executor to a gRPC server of the case started here on a real
// socket: alias resolution, the argument fix-up and protobuf-es decoding,
// then the wire; the server must receive what the runtime's parts (alias
// manager, fixArguments, protobuf-es) decode. A tool without an
// auto-executor (the validate case's pick tools) runs on the runtime's
// executor, given its method. Every other value names its account (the
// validate case's account_id, prefix acct) by an alias. The validate case's
// requests are checked with protovalidate, as the server decodes them: no
// rule the schema states as a keyword is broken by a value it admits.
import { once } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { caseValues, valuesPerTool } from "@protoc-gen-ai-tools/e2e-samples";
import {
  createAliasManager,
  createExecutor as createRuntimeExecutor,
  fixArguments,
  type AliasManager,
  type ToolError,
} from "@protoc-gen-ai-tools/runtime";
import {
  create,
  equals,
  fromBinary,
  fromJsonString,
  toBinary,
  type DescMessage,
  type DescMethod,
  type DescMethodUnary,
  type DescService,
  type Message,
} from "@bufbuild/protobuf";
import { createValidator } from "@bufbuild/protovalidate";
import type { ConnectRouter, Transport } from "@connectrpc/connect";
import {
  connectNodeAdapter,
  createGrpcTransport,
} from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as compact from "../src/gen/cases/compact/ai_tools.gen.js";
import { CompactService } from "../src/gen/cases/compact/compact/v1/compact_pb.js";
import * as recursion from "../src/gen/cases/recursion/ai_tools.gen.js";
import { RecursionService } from "../src/gen/cases/recursion/recursion/v1/recursion_pb.js";
import * as validate from "../src/gen/cases/validate/ai_tools.gen.js";
import { RulesService } from "../src/gen/cases/validate/rules/v1/rules_pb.js";

const count = valuesPerTool; // 200 nightly, 40 in .ci/run

/** One request a case server received. */
interface Received {
  readonly method: string;
  readonly message: Message;
}

/**
 * The generated descriptor of a tool's method: the model's descriptors are
 * the plugin's own, protobuf-es's are needed to create and decode messages.
 */
function esMethod(
  services: readonly DescService[],
  tool: { service: { typeName: string }; method: { name: string } },
): DescMethod {
  const method = services
    .flatMap((s) => s.methods)
    .find(
      (m) =>
        m.parent.typeName === tool.service.typeName &&
        m.name === tool.method.name,
    );
  if (method === undefined) {
    throw new Error(
      `no generated method ${tool.service.typeName}.${tool.method.name}`,
    );
  }
  return method;
}

/**
 * A gRPC server on 127.0.0.1 answering every method of the services with an
 * empty response, recording each request it decoded.
 */
function useCaseServer(services: readonly DescService[]): {
  transport: Transport;
  received: Received[];
} {
  const env = { transport: undefined as unknown as Transport, received: [] };
  const received: Received[] = env.received;
  let server: http2.Http2Server | undefined;
  const sessions = new Set<http2.ServerHttp2Session>();
  beforeAll(async () => {
    const routes = (router: ConnectRouter) => {
      for (const method of services.flatMap((s) => s.methods)) {
        if (method.methodKind !== "unary") continue;
        router.rpc(method as DescMethodUnary, (req: Message) => {
          received.push({ method: method.name, message: req });
          return create(method.output);
        });
      }
    };
    server = http2.createServer(connectNodeAdapter({ routes, grpc: true }));
    server.on("session", (session: http2.ServerHttp2Session) => {
      sessions.add(session);
      session.once("close", () => sessions.delete(session));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    env.transport = createGrpcTransport({
      baseUrl: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    if (server !== undefined) {
      const closed = once(server, "close");
      server.close();
      // The client's session stays open: close it from this side.
      for (const session of sessions) session.close();
      await closed;
    }
  });
  return env;
}

/**
 * The fields of the validate case whose rules its schemas state in a
 * sentence rather than a keyword (docs/schemas.md, "buf.validate"), which values the
 * schema admits may break: an RE2-only pattern, a reversed range, a rule
 * skipped on the zero value, "must be true", the id behind an alias; in
 * strict tools also lengths, item lengths, uri and a required string; the
 * oneof rules ("" is the message rule over first and second).
 */
const describedCreate = ["code", "delta", "motto", "accepted", "account_id"];
const describedRules: Readonly<Record<string, readonly string[]>> = {
  rules_create_loose: describedCreate,
  rules_create_strict: [
    ...describedCreate,
    ...["name", "tags", "homepage", "title"],
  ],
  rules_pick_loose: ["", "target"],
  rules_pick_strict: ["", "target"],
};

const validator = createValidator();

/**
 * The top-level field of each rule protovalidate finds broken in message,
 * as a server checking buf.validate would ("" for a message rule).
 */
function brokenRules(schema: DescMessage, message: Message): string[] {
  const result = validator.validate(schema, message);
  if (result.kind === "error") throw result.error;
  return (result.violations ?? []).map((v) => {
    const first = v.field[0];
    return first !== undefined && "name" in first ? first.name : "";
  });
}

const cases = [
  {
    name: "compact",
    gen: compact,
    services: [CompactService],
    seed: 8200,
    // schema=compact: at least one tool writes its messages under $defs.
    check: (schemas: string[]) =>
      expect(schemas.some((s) => s.includes('"$defs"'))).toBe(true),
  },
  {
    name: "validate",
    gen: validate,
    services: [RulesService],
    seed: 8300,
    // buf.validate rules as keywords.
    check: (schemas: string[]) =>
      expect(schemas.join()).toMatch(/"(minLength|pattern|exclusiveMinimum)"/),
    described: describedRules,
  },
  {
    name: "recursion",
    gen: recursion,
    services: [RecursionService],
    seed: 8400,
    // Recursion through $ref (strict tools too: providers=openai).
    check: (schemas: string[]) =>
      expect(schemas.every((s) => s.includes('"$ref"'))).toBe(true),
  },
] as const;

for (const c of cases) {
  describe(`case ${c.name}: schema-generated values decode and reach the server`, () => {
    const server = useCaseServer(c.services);

    it("holds for every tool", async () => {
      const tools = await caseValues({
        caseName: c.name,
        target: "ts",
        seed: c.seed,
        count,
      });
      const generated = new Map(c.gen.allTools().map((t) => [t.name, t]));
      expect(tools.map((t) => t.tool.name).sort()).toEqual(
        [...generated.keys()].sort(),
      );
      c.check(tools.map((t) => t.tool.schemaJson));
      // Every other value names its account by an alias, which the
      // executor resolves (the validate case's account_id, prefix acct).
      const aliases = createAliasManager(c.gen.aliasConfig);
      const accountUuid = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
      const account = aliases.register("acct", accountUuid);
      const generatedExecutor = c.gen.createExecutor(server.transport, {
        aliasManager: aliases,
      });
      // The tools without an auto-executor run on the runtime's, given
      // their method, with the same alias manager.
      const others = createRuntimeExecutor(server.transport, {
        methods: tools
          .filter((t) => !generatedExecutor.canExecute(t.tool.name))
          .map((t) => ({
            tool: generated.get(t.tool.name)!,
            method: esMethod(c.services, t.tool),
          })),
        aliases: c.gen.aliasConfig,
        aliasManager: aliases,
      });
      const lines: string[] = [];
      for (const { tool, values } of tools) {
        // The generated file carries the plugin's schema.
        expect(generated.get(tool.name)!.parameters).toEqual(
          JSON.parse(tool.schemaJson),
        );
        expect(values).toHaveLength(count);
        const input: DescMessage = esMethod(c.services, tool).input;
        const runs = generatedExecutor.canExecute(tool.name)
          ? "generated"
          : "runtime's";
        const executor = runs === "generated" ? generatedExecutor : others;
        let sent = 0;
        let refused = 0;
        let aliased = 0;
        const broken: Record<string, number> = {};
        for (const [i, value] of values.entries()) {
          const v = value as Record<string, unknown>;
          const useAlias = i % 2 === 1 && typeof v["account_id"] === "string";
          const args = JSON.stringify(
            useAlias ? { ...v, account_id: account } : v,
          );
          const want = decodeLocally(aliases, args, input, tool.strict);
          let breaks = 0;
          if ("described" in c) {
            // A rule stated as a keyword holds for every admitted value, as
            // the server decodes it (a float field is float32 there, and its
            // bounds are float32 in the rules).
            for (const field of brokenRules(input, wireCopy(input, want))) {
              expect(c.described[tool.name], `${field}: ${args}`).toContain(
                field,
              );
              broken[field] = (broken[field] ?? 0) + 1;
              breaks++;
            }
          }
          if (useAlias) {
            expect((want as unknown as { accountId: string }).accountId).toBe(
              accountUuid,
            );
            aliased++;
          }
          const before = server.received.length;
          if (breaks > 0 && runs === "generated") {
            // The generated executor checks the rules before sending (the
            // runtime's, given no validator, sends).
            const err = await executor.execute(tool.name, args).then(
              () => undefined,
              (e: unknown) => e as ToolError,
            );
            expect(err?.reason, args).toBe("failed-validation");
            expect(server.received.length, args).toBe(before);
            refused++;
            continue;
          }
          let out: string;
          try {
            out = await executor.execute(tool.name, args);
          } catch (e) {
            throw new Error(
              `${tool.name}: ${e instanceof Error ? e.message : String(e)}\nargs ${args}`,
              { cause: e },
            );
          }
          expect(out, args).toBe("{}");
          const got = server.received.slice(before);
          expect(got).toHaveLength(1);
          expect(
            // Compared as the wire carries them: a float field is float32.
            equals(input, got[0]!.message, wireCopy(input, want)),
            `server received another request than the arguments mean\nargs ${args}`,
          ).toBe(true);
          sent++;
        }
        lines.push(
          `${tool.name}: ${values.length} values decoded (${aliased} with an alias), ${sent} sent through the ${runs} executor, ${refused} refused by its rules` +
            ("described" in c
              ? `; described rules broken (protovalidate), by field: ${JSON.stringify(broken)}`
              : ""),
        );
      }
      console.log(`case ${c.name}:\n  ${lines.join("\n  ")}`);
    });
  });
}

/**
 * What the arguments mean: the executor's path up to the call, from the
 * runtime's parts (aliases resolved, fixArguments, protobuf-es, unknown keys
 * ignored). Fails the test, naming the value, when they do not decode.
 */
function decodeLocally(
  aliases: AliasManager,
  args: string,
  input: DescMessage,
  strict: boolean,
): Message {
  const resolved = aliases.resolveJson(args);
  const fixed = fixArguments(resolved, input, strict);
  let message: Message | undefined;
  expect(() => {
    message = fromJsonString(input, fixed, { ignoreUnknownFields: true });
  }, args).not.toThrow();
  return message!;
}

/** The message as the server decodes it from the wire. */
function wireCopy(schema: DescMessage, message: Message): Message {
  return fromBinary(schema, toBinary(schema, message));
}
