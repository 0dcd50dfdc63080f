import type { TargetMappingOption } from "../registry.js";

/** The prefix and suffix of protoc-gen-go's `M<file>=<import path>` keys. */
const prefix = "M";
const suffix = ".proto";

/**
 * `M<file>=<import path>[;<package name>]` (target=go), as protoc-gen-go
 * takes it: the Go import path of a proto file, in place of its
 * go_package. The same `M` options given to protoc-gen-go and
 * protoc-gen-go-grpc make the executors import their packages.
 */
export const goImportMapOption: TargetMappingOption = {
  prefix,
  suffix,
  default: "",
  check: (value) =>
    /^[^\s;"]+(;[A-Za-z_][A-Za-z0-9_]*)?$/.test(value)
      ? undefined
      : "use a Go import path, with ;<package name> after it if you like, e.g. Mlinks/v1/links.proto=example.com/app/gen/links/v1",
  example: "Mlinks/v1/links.proto=example.com/app/gen/links/v1",
};

/**
 * The go_package each `M<file>=` option gives, by proto file, from the
 * target's option values.
 */
export function goImportMapOf(
  values: Readonly<Record<string, string>>,
): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(values)) {
    if (key.startsWith(prefix) && key.endsWith(suffix)) {
      map.set(key.slice(prefix.length), value);
    }
  }
  return map;
}
