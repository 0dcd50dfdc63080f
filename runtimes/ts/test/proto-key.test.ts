// `__proto__` is an ordinary key (docs/runtime.md, "Argument fix-up"): a
// request with a field of that proto name decodes it; it never reaches a
// prototype. The proto is built at run time (protoc-gen-es cannot name a
// field `__proto__` in generated code), and served on a real socket.
import {
  create,
  createFileRegistry,
  type DescMethodUnary,
  type DescService,
} from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";
import { type ConnectRouter } from "@connectrpc/connect";
import {
  connectNodeAdapter,
  createGrpcTransport,
} from "@connectrpc/connect-node";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createExecutor, type Executor } from "../src/index.js";

const string = (name: string, number: number, jsonName: string) => ({
  name,
  number,
  jsonName,
  type: FieldDescriptorProto_Type.STRING,
  label: FieldDescriptorProto_Label.OPTIONAL,
});

const registry = createFileRegistry(
  create(FileDescriptorProtoSchema, {
    name: "protokey/v1/protokey.proto",
    package: "protokey.v1",
    syntax: "proto3",
    messageType: [
      {
        name: "EchoRequest",
        field: [
          string("__proto__", 1, "Proto"),
          string("constructor", 2, "constructor"),
          {
            ...string("labels", 3, "labels"),
            type: FieldDescriptorProto_Type.MESSAGE,
            label: FieldDescriptorProto_Label.REPEATED,
            typeName: ".protokey.v1.EchoRequest.LabelsEntry",
          },
        ],
        nestedType: [
          {
            name: "LabelsEntry",
            field: [string("key", 1, "key"), string("value", 2, "value")],
            options: { mapEntry: true },
          },
        ],
      },
    ],
    service: [
      {
        name: "EchoService",
        method: [
          {
            name: "Echo",
            inputType: ".protokey.v1.EchoRequest",
            outputType: ".protokey.v1.EchoRequest",
          },
        ],
      },
    ],
  }),
  () => undefined,
);
const service = registry.getService("protokey.v1.EchoService") as DescService;

let server: http2.Http2Server;
const sessions = new Set<http2.ServerHttp2Session>();
const received: unknown[] = [];
let executor: Executor;

beforeAll(async () => {
  const routes = (router: ConnectRouter) => {
    router.rpc(service.methods[0] as DescMethodUnary, (req) => {
      received.push(req);
      return req;
    });
  };
  server = http2.createServer(connectNodeAdapter({ routes }));
  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  executor = createExecutor(
    createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }),
    {
      methods: [
        {
          tool: {
            name: "echo",
            description: "Echo.",
            strict: false,
            parameters: { type: "object" },
          },
          method: service.methods[0]!,
        },
      ],
      aliases: {
        knownAliasPrefixes: [],
        responseAliases: { types: {}, tools: {} },
      },
    },
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    for (const s of sessions) s.destroy();
  });
});

it("decodes a field named __proto__, by proto name and by JSON name", async () => {
  // The result in proto names: a key __proto__ in the text, no prototype.
  expect(
    await executor.execute(
      "echo",
      `{"__proto__":"p","constructor":"c","labels":{"a":"b"}}`,
    ),
  ).toBe(`{"__proto__":"p","constructor":"c","labels":{"a":"b"}}`);
  expect(received.at(-1)).toMatchObject({ Proto: "p" });
  expect(await executor.execute("echo", `{"Proto":"q"}`)).toBe(
    `{"__proto__":"q"}`,
  );
  expect(Object.prototype).not.toHaveProperty("p");
});

it("refuses __proto__ as a map key, which protobuf-es cannot hold", async () => {
  await expect(
    executor.execute("echo", `{"labels":{"__proto__":"x"}}`),
  ).rejects.toThrow(
    `invalid arguments, nothing was sent:\n- "labels": map key "__proto__" is not supported`,
  );
});
