import { readFileSync } from "node:fs";
import type { Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { GatewayError } from "./gateway-error.js";

/**
 * The transport of the tools' calls to the gRPC server at `target`
 * (`HOST:PORT`): TLS trusting the CA certificates (PEM) of `caFile` when
 * given, plaintext HTTP/2 otherwise.
 */
export function createBackendTransport(
  target: string,
  caFile: string | undefined,
): Transport {
  if (caFile === undefined) {
    return createGrpcTransport({ baseUrl: `http://${target}` });
  }
  let ca: Buffer;
  try {
    ca = readFileSync(caFile);
  } catch (e) {
    throw new GatewayError(
      `--grpc-tls-ca ${JSON.stringify(caFile)}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)}); give the PEM file of the CA that signed the gRPC server's certificate`,
    );
  }
  return createGrpcTransport({
    baseUrl: `https://${target}`,
    nodeOptions: { ca },
  });
}
