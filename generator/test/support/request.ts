/**
 * Test helper: compile a test case directory into a CodeGeneratorRequest.
 *
 * `caseDir` is a case name under testdata/protos ("schemas"), a path under
 * testdata ("bad/client_streaming"), or an absolute path. One `buf build`
 * per call, include paths `<repo>/proto`, `testdata/include` and the case
 * directory; WKTs come from buf. Nothing is cached. The implementation is
 * shared with scripts/golden.mjs (scripts/lib/request.mjs).
 */
import type { CodeGeneratorRequest } from "@bufbuild/protobuf/wkt";
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import * as lib from "../../scripts/lib/request.mjs";

export interface BuildRequestOptions {
  /** Plugin parameter; default "target=go". Pass "" for none. */
  parameter?: string;
  /** Files to generate, relative to the case directory; default all of the case's files. */
  files?: string[];
}

/** A case's own plugin options (its options.txt), for every target. */
export function caseOptions(caseDir: string): string {
  return lib.caseOptions(caseDir);
}

export function buildRequest(
  caseDir: string,
  opts: BuildRequestOptions = {},
): Promise<CodeGeneratorRequest> {
  return lib.buildRequest(caseDir, {
    parameter: opts.parameter,
    files: opts.files,
  });
}

/** Names of the golden cases (testdata/protos/<case>), sorted. */
export function goldenCases(): string[] {
  return lib.listCases(lib.protosDir);
}

/** Names of the bad-input cases (testdata/bad/<case>), sorted. */
export function badCases(): string[] {
  return lib.listCases(lib.badDir);
}

/**
 * Substrings a bad case's error message should contain (its tool name(s) and
 * file(s)), from testdata/bad/<case>/expected.txt.
 */
export function expectedErrorParts(badCase: string): string[] {
  const file = path.join(lib.badDir, badCase, "expected.txt");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
}

export const paths = {
  generator: lib.generatorDir,
  protos: lib.protosDir,
  bad: lib.badDir,
  include: lib.includeDir,
  golden: lib.goldenDir,
} as const;
