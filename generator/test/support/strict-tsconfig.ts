/**
 * The compiler options under which the tests type-check generated
 * TypeScript (ts-parity.test.ts, the plugin fuzz test): strict, and stricter
 * than strict where a user's project may be.
 */
export const strictCompilerOptions = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2022", "DOM"],
  types: [],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noEmit: true,
  skipLibCheck: true,
};
