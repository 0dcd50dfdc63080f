import { create, createFileRegistry, getOption } from "@bufbuild/protobuf";
import {
  FileDescriptorSetSchema,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GeneratorError } from "../src/errors.js";
import { fetchDescriptorsByReflection } from "../src/gateway/reflection.js";

// The gateway's reflection client against the e2e test server
// (e2e/server, connect-node) with its reflection service on: the
// protoc-gen-es descriptors it serves keep imports and annotations.

interface RunningServer {
  address: string;
  close(): Promise<void>;
}

interface E2eServer {
  startServer: (options: {
    reflection?: {
      versions?: readonly ("v1" | "v1alpha")[];
      withoutFiles?: readonly string[];
    };
  }) => Promise<RunningServer>;
}

const e2eServer = new URL("../../e2e/server/dist/index.js", import.meta.url);
const running: RunningServer[] = [];

/** Starts the e2e server with `options`; closed after the test. */
async function start(options: Parameters<E2eServer["startServer"]>[0]) {
  const { startServer } = (await import(e2eServer.href)) as E2eServer;
  const server = await startServer(options);
  running.push(server);
  return server.address;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** Each file comes after every file it imports. */
function expectImportsFirst(files: readonly FileDescriptorProto[]) {
  const seen = new Set<string>();
  for (const file of files) {
    for (const dep of file.dependency) expect(seen, file.name).toContain(dep);
    seen.add(file.name);
  }
}

/** The (ai.tools.v1.rpc_tool) description of a method, read from `files`. */
function toolDescription(
  files: FileDescriptorProto[],
  service: string,
  method: string,
) {
  const registry = createFileRegistry(
    create(FileDescriptorSetSchema, { file: files }),
  );
  const extension = registry.getExtension("ai.tools.v1.rpc_tool");
  const rpc = registry.getService(service)?.method[method];
  if (extension === undefined || rpc === undefined) return undefined;
  const value = getOption(rpc, extension) as { description?: string };
  return value.description;
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("fetchDescriptorsByReflection", () => {
  it("fetches every service's file with its imports, annotations kept", async () => {
    const address = await start({ reflection: {} });
    const files = await fetchDescriptorsByReflection(address);
    const names = files.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "linkhub/v1/links.proto",
        "linkhub/v1/control.proto",
        "google/longrunning/operations.proto",
        "ai/tools/v1/annotations.proto",
        "google/protobuf/descriptor.proto",
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n.startsWith("grpc/"))).toEqual([]);
    expectImportsFirst(files);
    expect(
      toolDescription(files, "linkhub.v1.LinkService", "createLink"),
    ).toMatch(/\S/);
  });

  it("falls back to v1alpha when the server serves no v1", async () => {
    const both = await start({ reflection: {} });
    const alpha = await start({ reflection: { versions: ["v1alpha"] } });
    const expected = await fetchDescriptorsByReflection(both);
    const files = await fetchDescriptorsByReflection(alpha);
    expect(files.map((f) => f.name)).toEqual(expected.map((f) => f.name));
    expect(
      toolDescription(files, "linkhub.v1.LinkService", "createLink"),
    ).toMatch(/\S/);
  });

  it("says when the server serves no reflection", async () => {
    const address = await start({});
    const error = await fetchDescriptorsByReflection(address).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GeneratorError);
    expect((error as Error).message).toBe(
      `the gRPC server "${address}" does not serve reflection (neither grpc.reflection.v1 nor grpc.reflection.v1alpha is implemented): register the reflection service on the server (grpc-go: reflection.Register(server)), or pass the API's descriptors with --descriptor-set FILE (buf build -o FILE)`,
    );
  });

  it("says when the server cannot be reached", async () => {
    const address = `127.0.0.1:${await closedPort()}`;
    await expect(fetchDescriptorsByReflection(address)).rejects.toThrow(
      new RegExp(
        `^cannot reach the gRPC server "${address}": .*ECONNREFUSED.*: check the address and that the server is running$`,
      ),
    );
  });

  it("says which import the server cannot resolve", async () => {
    const address = await start({
      reflection: { withoutFiles: ["ai/tools/v1/annotations.proto"] },
    });
    await expect(fetchDescriptorsByReflection(address)).rejects.toThrow(
      `the gRPC server "${address}" cannot resolve the file "ai/tools/v1/annotations.proto" through reflection (NotFound: "ai/tools/v1/annotations.proto" not found): serve reflection from descriptors that include every file the services import, or pass the API's descriptors with --descriptor-set FILE (buf build -o FILE)`,
    );
  });

  it("says which service the server cannot resolve", async () => {
    const address = await start({
      reflection: { withoutFiles: ["linkhub/v1/links.proto"] },
    });
    await expect(fetchDescriptorsByReflection(address)).rejects.toThrow(
      `the gRPC server "${address}" cannot resolve the symbol "linkhub.v1.LinkService" through reflection`,
    );
  });

  it("refuses an address that is not host:port", async () => {
    await expect(fetchDescriptorsByReflection("localhost")).rejects.toThrow(
      'invalid gRPC server address "localhost": want host:port, e.g. "localhost:50051", or a URL "https://host:port"',
    );
  });
});
