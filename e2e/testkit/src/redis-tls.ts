// A test certificate authority and a server certificate for localhost,
// made with the openssl CLI at start-up (nothing committed, nothing fetched).
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";

/** The files of {@link createTestCertificates}, in dir. */
export interface TestCertificates {
  /** The CA certificate (PEM): what clients trust. */
  readonly caPath: string;
  /** The server's certificate (PEM), for localhost, 127.0.0.1 and ::1. */
  readonly certPath: string;
  /** The server's private key (PEM). */
  readonly keyPath: string;
}

/** Run openssl with args in dir; rejects with its stderr. */
function openssl(dir: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile("openssl", args, { cwd: dir }, (error, _out, stderr) =>
      error === null
        ? resolve()
        : reject(
            new Error(
              `openssl ${args[0]} failed (install openssl): ${stderr.trim() || error.message}`,
            ),
          ),
    ),
  );
}

/** P-256 keys: quick to make, accepted by every client. */
const ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"];

/**
 * Make a CA (valid one day) and a server certificate it signed for
 * localhost, 127.0.0.1 and ::1, in dir.
 */
export async function createTestCertificates(
  dir: string,
): Promise<TestCertificates> {
  const files = {
    caPath: path.join(dir, "ca.crt"),
    certPath: path.join(dir, "server.crt"),
    keyPath: path.join(dir, "server.key"),
  };
  await openssl(dir, [
    "req",
    "-x509",
    ...ecKey,
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    files.caPath,
    "-days",
    "1",
    "-subj",
    "/CN=protoc-gen-ai-tools test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await openssl(dir, [
    "req",
    ...ecKey,
    "-nodes",
    "-keyout",
    files.keyPath,
    "-out",
    "server.csr",
    "-subj",
    "/CN=localhost",
  ]);
  await writeFile(
    path.join(dir, "server.ext"),
    [
      "basicConstraints=CA:FALSE",
      "keyUsage=critical,digitalSignature",
      "extendedKeyUsage=serverAuth",
      "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1",
      "authorityKeyIdentifier=keyid",
      "",
    ].join("\n"),
  );
  await openssl(dir, [
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    files.caPath,
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    files.certPath,
    "-days",
    "1",
    "-extfile",
    "server.ext",
  ]);
  return files;
}
