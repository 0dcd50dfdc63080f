// The one linter of the TypeScript packages: typescript-eslint's type-checked
// recommended rules over each package's sources and tests. Run it with
// `pnpm run lint` at the root (every package) or in a package (its files).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The TypeScript projects, each covering its package's sources and tests:
 * the type information of the rules comes from these.
 */
const projects = [
  "generator/tsconfig.test.json",
  "runtimes/ts/tsconfig.test.json",
  "e2e/server/tsconfig.test.json",
  "e2e/testkit/tsconfig.test.json",
  "e2e/ts/tsconfig.json",
  "examples/ts/tsconfig.json",
];

export default tseslint.config(
  {
    // Generated code (protoc-gen-es, this plugin, tsc) and installed code.
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/gen/**",
      "**/*_pb.ts",
      "**/ai_tools.gen.ts",
    ],
  },
  {
    files: ["**/*.ts", "**/*.mts"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        project: projects,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Not a disabled rule: `const { key: _, ...rest } = o` is how a copy of
      // `o` without `key` is written; the rest is used, `_` names the key.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Vitest configs and hand-written declarations of .mjs scripts are in
    // no project: linted without type information.
    files: ["**/vitest*.config.ts", "**/*.d.mts"],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
