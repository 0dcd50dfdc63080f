/**
 * The header line of a generated TypeScript file that names the npm install
 * line of the packages it imports, so that tsc's "Cannot find module
 * '@protoc-gen-ai-tools/runtime'" has its fix at the top of the file.
 * `also`: what a use of the file may need besides, in words.
 */
export function tsInstallComment(
  packages: readonly string[],
  also?: string,
): string {
  const line = `// Needs: npm install ${packages.join(" ")}`;
  return also === undefined ? line : `${line}\n// (${also})`;
}
