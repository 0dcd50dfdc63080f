/**
 * mypy --strict as the tests run it on generated Python: written to
 * `mypy.ini` in the directory checked. grpc ships no stubs (as in
 * runtimes/python/pyproject.toml).
 */
export const mypyConfig = `[mypy]
strict = True
python_version = 3.11

[mypy-grpc,grpc.*]
ignore_missing_imports = True
`;

/**
 * `python` arguments that run mypy with {@link mypyConfig} (`mypy.ini` in
 * the working directory) on `files`, its cache in `cacheDir`.
 */
export function mypyArgs(cacheDir: string, files: readonly string[]): string[] {
  return [
    "-m",
    "mypy",
    "--config-file",
    "mypy.ini",
    "--cache-dir",
    cacheDir,
    ...files,
  ];
}
