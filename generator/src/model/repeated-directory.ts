import { compareUtf8 } from "../schema/canonical-json.js";

/**
 * The first of `protoFiles` (in UTF-8 order) whose directory the option
 * path `segments` ends with, e.g. `shop/v1/shop.proto` for `gen/shop/v1`;
 * undefined when none. The options that locate another plugin's output
 * (`ts_import_path`, `py_package`) name the folder it writes into, under
 * which it repeats each proto file's directory: an option ending with that
 * directory most likely names the folder of one file instead.
 */
export function repeatedDirectory(
  segments: readonly string[],
  protoFiles: Iterable<string>,
): string | undefined {
  return [...new Set(protoFiles)].sort(compareUtf8).find((file) => {
    const dir = file.split("/").slice(0, -1);
    return (
      dir.length > 0 &&
      dir.length <= segments.length &&
      dir.every(
        (part, i) => segments[segments.length - dir.length + i] === part,
      )
    );
  });
}
