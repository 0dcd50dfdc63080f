// Types for request.mjs (used by test/support/request.ts).
import type {
  CodeGeneratorRequest,
  FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";

export interface BuildRequestOptions {
  /** Plugin parameter; default "target=go". The case's options.txt follows it. */
  parameter?: string | undefined;
  /** Files to generate, relative to the case directory; default every .proto file of the case. */
  files?: readonly string[] | undefined;
  /** Optional compiler_version of the request. */
  compilerVersion?:
    | { major?: number; minor?: number; patch?: number; suffix?: string }
    | undefined;
}

export const generatorDir: string;
export const repoRoot: string;
export const testdataDir: string;
export const protosDir: string;
export const badDir: string;
export const includeDir: string;
export const protoDir: string;
export const testGoDir: string;
export const goldenDir: string;
export const goModulePath: string;
export const defaultParameter: string;

export function listCases(dir?: string): string[];
export function resolveCaseDir(caseDir: string): string;
export function listProtoFiles(dir: string): string[];
export function bufBin(): string;
export function buildCase(
  caseDir: string,
  opts?: BuildRequestOptions,
): Promise<{
  caseDir: string;
  files: string[];
  protoFile: FileDescriptorProto[];
}>;
export function caseOptions(caseDir: string): string;
export function goCaseOptions(caseDir: string): string;
export function buildRequest(
  caseDir: string,
  opts?: BuildRequestOptions,
): Promise<CodeGeneratorRequest>;
export function topoSort(
  files: readonly FileDescriptorProto[],
): FileDescriptorProto[];
export function byteOrder(a: string, b: string): number;
