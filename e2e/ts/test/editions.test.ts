// The Edition 2023 samples (e2e/editions/proto), generated into
// src/gen/editions/ by e2e/editions/generate.mjs: their tools have the
// schemas of their proto3 twins, schema-generated values of the
// samples_echo_* tools mean the same message through either executor, and
// the features that change the wire (DELIMITED, EXPANDED, LEGACY_REQUIRED,
// a closed enum) survive protobuf-es and Connect on both ends of a real
// socket.
import { once } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { sampleValues } from "@protoc-gen-ai-tools/e2e-samples";
import {
  equals,
  fromBinary,
  isFieldSet,
  toBinary,
  type DescMessage,
  type Message,
} from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import type { ConnectRouter, Transport } from "@connectrpc/connect";
import {
  connectNodeAdapter,
  createGrpcTransport,
} from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as proto3 from "../src/gen/ai_tools.gen.js";
import * as editions from "../src/gen/editions/ai_tools.gen.js";
import {
  EdSampleService,
  SampleSchema as EdSampleSchema,
} from "../src/gen/editions/edsamples/v1/samples_pb.js";
import {
  BoxSchema,
  ShapeSchema,
  ShapeService,
  Size,
  type Shape,
} from "../src/gen/editions/edsamples/v1/shapes_pb.js";
import {
  SampleSchema,
  SampleService,
} from "../src/gen/linkhub/v1/samples_pb.js";

/** What the echo server decoded last, per service. */
const last = new Map<string, Message>();
let transport: Transport;
let server: http2.Http2Server;
const sessions = new Set<http2.ServerHttp2Session>();

/** Keep what the server decoded, and echo it. */
function keep<T extends Message>(name: string, req: T): T {
  last.set(name, req);
  return req;
}

beforeAll(async () => {
  const routes = (router: ConnectRouter) => {
    router.service(SampleService, {
      echoStrict: (req) => keep("proto3", req),
      echoLoose: (req) => keep("proto3", req),
    });
    router.service(EdSampleService, {
      echoStrict: (req) => keep("editions", req),
      echoLoose: (req) => keep("editions", req),
    });
    router.service(ShapeService, { echo: (req) => keep("shape", req) });
  };
  server = http2.createServer(connectNodeAdapter({ routes, grpc: true }));
  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  transport = createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` });
});

afterAll(async () => {
  const closed = once(server, "close");
  server.close();
  for (const session of sessions) session.close();
  await closed;
});

/** The message received last by `name`, re-read as `schema` from its bytes. */
function received<T extends DescMessage>(
  name: string,
  from: DescMessage,
  schema: T,
) {
  const message = last.get(name);
  expect(message, name).toBeDefined();
  return fromBinary(schema, toBinary(from, message!));
}

describe("Edition 2023 samples", () => {
  it("have the schemas of their proto3 twins", () => {
    for (const [p3, ed] of [
      [proto3.samplesEchoStrict, editions.edSamplesEchoStrict],
      [proto3.samplesEchoLoose, editions.edSamplesEchoLoose],
    ] as const) {
      expect({ ...ed, name: p3.name }).toEqual(p3);
    }
  });

  it("mean what their proto3 twins mean, for 25 schema-generated values of each", async () => {
    const p3 = proto3.createExecutor(transport);
    const ed = editions.createExecutor(transport);
    const tools = sampleValues({ target: "ts", seed: 9300, count: 25 });
    expect(tools.map((t) => t.tool.name).sort()).toEqual([
      "samples_echo_loose",
      "samples_echo_strict",
    ]);
    for (const { tool, values } of tools) {
      const twin = `ed_${tool.name}`;
      for (const [i, value] of values.entries()) {
        const args = JSON.stringify(value);
        last.clear();
        const want = await p3.execute(tool.name, args).catch((e: Error) => e);
        const got = await ed.execute(twin, args).catch((e: Error) => e);
        if (want instanceof Error || got instanceof Error) {
          // (A "__proto__" key is refused by both, before any call.)
          expect(String(got), `${twin} value ${i}`).toBe(String(want));
          expect(last.size).toBe(0);
          continue;
        }
        expect(JSON.parse(got), `${twin} value ${i}`).toEqual(JSON.parse(want));
        expect(
          equals(
            SampleSchema,
            received("editions", EdSampleSchema, SampleSchema),
            received("proto3", SampleSchema, SampleSchema),
          ),
          `${twin} value ${i}: ${args}`,
        ).toBe(true);
      }
    }
  });
});

describe("Edition 2023 features through protobuf-es", () => {
  it("DELIMITED, EXPANDED, explicit presence and a closed enum reach the server and come back", async () => {
    const ed = editions.createExecutor(transport);
    const out = await ed.execute(
      editions.edShapesEcho.name,
      JSON.stringify({
        name: "n",
        label: null,
        count: null,
        size: "SIZE_LARGE",
        box: { width: 2, height: null },
        boxes: [{ width: 3, height: 4 }],
        expanded: [5, 6],
        raw: "ré",
        sizes: ["SIZE_SMALL"],
        by_name: null,
        by_box: { width: 7, height: null },
      }),
    );
    const shape = last.get("shape") as Shape;
    expect(shape.name).toBe("n");
    // Explicit presence: unset stays unset; the field reads as its default.
    expect(isFieldSet(shape, ShapeSchema.field.label)).toBe(false);
    expect(isFieldSet(shape, ShapeSchema.field.count)).toBe(false);
    expect(shape.count).toBe(7n);
    expect(shape.size).toBe(Size.LARGE);
    expect(shape.box?.width).toBe(2);
    expect(isFieldSet(shape.box!, BoxSchema.field.height)).toBe(false);
    expect(shape.boxes.map((b) => [b.width, b.height])).toEqual([[3, 4]]);
    expect(shape.expanded).toEqual([5, 6]);
    expect(shape.raw).toBe("ré");
    expect(shape.pick).toMatchObject({ case: "byBox", value: { width: 7 } });
    // On the wire: groups for box (5), boxes (6) and by_box (11), one
    // varint per value of expanded (7).
    const reader = new BinaryReader(toBinary(ShapeSchema, shape));
    const groups: number[] = [];
    let varints = 0;
    while (reader.pos < reader.len) {
      const [no, type] = reader.tag();
      if (type === WireType.StartGroup) groups.push(no);
      if (no === 7 && type === WireType.Varint) varints++;
      reader.skip(type, no);
    }
    expect(groups).toEqual([5, 6, 11]);
    expect(varints).toBe(2);
    expect(JSON.parse(out)).toEqual({
      name: "n",
      size: "SIZE_LARGE",
      box: { width: 2 },
      boxes: [{ width: 3, height: 4 }],
      expanded: [5, 6],
      raw: "ré",
      sizes: ["SIZE_SMALL"],
      by_box: { width: 7 },
    });
  });

  it("a number the closed enum does not declare is an unknown field, kept on the way back", () => {
    // name = "n" (field 1), size = 9 (field 4): 9 is no Size value.
    const bytes = new Uint8Array([0x0a, 0x01, 0x6e, 0x20, 0x09]);
    const shape = fromBinary(ShapeSchema, bytes);
    expect(isFieldSet(shape, ShapeSchema.field.size)).toBe(false);
    expect(shape.size).toBe(Size.SMALL); // a closed enum's default: its first value
    expect(toBinary(ShapeSchema, shape)).toEqual(bytes);
  });

  it("a Box without its LEGACY_REQUIRED width is not sent", async () => {
    const ed = editions.createExecutor(transport);
    last.clear();
    await expect(
      ed.execute(
        editions.edShapesEcho.name,
        JSON.stringify({
          name: "n",
          label: null,
          count: null,
          size: null,
          box: { width: null, height: 1 },
          boxes: [],
          expanded: [],
          raw: null,
          sizes: [],
          by_name: null,
          by_box: null,
        }),
      ),
    ).rejects.toThrow(
      'invalid arguments, nothing was sent:\n- "box.width": missing required field',
    );
    expect(last.size).toBe(0);
  });
});
