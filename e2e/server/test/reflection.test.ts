import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createAsyncIterable } from "@connectrpc/connect/protocol";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { afterEach, expect, it } from "vitest";
import { ServerReflection as V1 } from "../src/gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as V1alpha } from "../src/gen/grpc/reflection/v1alpha/reflection_pb.js";
import { startServer, type RunningServer } from "../src/linkhub-server.js";
import {
  startServerProcess,
  type ServerProcess,
} from "../src/server-process.js";

// The server's reflection service (off by default), in process and behind
// the --reflection flag; the gateway's client is tested against it in
// generator/test/gateway-reflection.test.ts.

const running: (RunningServer | ServerProcess)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** The server in process with reflection on; closed after the test. */
async function serveReflection(): Promise<string> {
  const server = await startServer({ reflection: {} });
  running.push(server);
  return server.address;
}

/** One request on a fresh v1 (or v1alpha) stream, and its response. */
async function ask(
  address: string,
  messageRequest: { case: "listServices" | "fileByFilename"; value: string },
  service: typeof V1 = V1,
) {
  const transport = createGrpcTransport({ baseUrl: `http://${address}` });
  const client = createClient(service, transport);
  const one = createAsyncIterable([{ messageRequest }]);
  for await (const response of client.serverReflectionInfo(one)) {
    return response.messageResponse;
  }
  throw new Error("no response");
}

it("serves a file with its imports and its ai.tools options, as compiled", async () => {
  const answer = await ask(await serveReflection(), {
    case: "fileByFilename",
    value: "linkhub/v1/links.proto",
  });
  expect(answer.case).toBe("fileDescriptorResponse");
  const files =
    answer.case === "fileDescriptorResponse"
      ? answer.value.fileDescriptorProto.map((b) =>
          fromBinary(FileDescriptorProtoSchema, b),
        )
      : [];
  const links = files[0];
  expect(links?.name).toBe("linkhub/v1/links.proto");
  expect(links?.dependency).toContain("ai/tools/v1/annotations.proto");
  expect(files.map((f) => f.name)).toContain("ai/tools/v1/annotations.proto");
  // (ai.tools.v1.rpc_tool) is extension 52104 of MethodOptions.
  const options = links?.service[0]?.method[0]?.options;
  expect(options?.$unknown?.map((u) => u.no)).toContain(52104);
});

it("answers NOT_FOUND for a file it does not have", async () => {
  const answer = await ask(await serveReflection(), {
    case: "fileByFilename",
    value: "no/such.proto",
  });
  expect(answer.case === "errorResponse" && answer.value.errorCode).toBe(
    Code.NotFound,
  );
});

it("serves only the versions --reflection names, and none without it", async () => {
  const alpha = await startServerProcess({ reflection: ["v1alpha"] });
  running.push(alpha);
  const listed = await ask(
    alpha.address,
    { case: "listServices", value: "" },
    V1alpha as unknown as typeof V1,
  );
  expect(
    listed.case === "listServicesResponse" &&
      listed.value.service.map((s) => s.name),
  ).toEqual(expect.arrayContaining(["linkhub.v1.LinkService"]));
  const v1 = await ask(alpha.address, { case: "listServices", value: "" })
    .then(() => "answered")
    .catch((e: unknown) => ConnectError.from(e).code);
  expect(v1).toBe(Code.Unimplemented);
  const plain = await startServer();
  running.push(plain);
  const none = await ask(plain.address, { case: "listServices", value: "" })
    .then(() => "answered")
    .catch((e: unknown) => ConnectError.from(e).code);
  expect(none).toBe(Code.Unimplemented);
});
