// The message types a tool's response may hold in an Any, for writing it as
// JSON: those of the method's file and its imports, and the well-known
// types, which Go's protojson and Python's json_format know in any
// program (docs/runtime.md, "Responses").
import {
  createRegistry,
  type DescFile,
  type DescMethod,
  type Registry,
} from "@bufbuild/protobuf";
import {
  file_google_protobuf_any,
  file_google_protobuf_api,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_source_context,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_type,
  file_google_protobuf_wrappers,
} from "@bufbuild/protobuf/wkt";

const wellKnownFiles: readonly DescFile[] = [
  file_google_protobuf_any,
  file_google_protobuf_api,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_source_context,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_type,
  file_google_protobuf_wrappers,
];

/**
 * A registry of the types of `extra`, the well-known types, and the types
 * of the files of the method (or methods) and their imports.
 */
export function createMethodRegistry(
  method: DescMethod | readonly DescMethod[],
  extra?: Registry,
): Registry {
  const files = new Set<DescFile>(wellKnownFiles);
  const add = (file: DescFile) => {
    if (!files.has(file)) {
      files.add(file);
      file.dependencies.forEach(add);
    }
  };
  for (const m of Array.isArray(method) ? method : [method]) {
    add((m as DescMethod).parent.file);
  }
  return extra === undefined
    ? createRegistry(...files)
    : createRegistry(extra, ...files);
}

/**
 * A registry that asks `current()` at each lookup: the registry of a set of
 * methods that grows (an MCP server's services, registered one by one).
 */
export function createDelegatingRegistry(current: () => Registry): Registry {
  return {
    kind: "registry",
    [Symbol.iterator]: () => current()[Symbol.iterator](),
    get: (typeName) => current().get(typeName),
    getMessage: (typeName) => current().getMessage(typeName),
    getEnum: (typeName) => current().getEnum(typeName),
    getExtension: (typeName) => current().getExtension(typeName),
    getExtensionFor: (extendee, no) => current().getExtensionFor(extendee, no),
    getService: (typeName) => current().getService(typeName),
  };
}

/**
 * A registry that looks a type up in `first`, then in `second`, at each
 * lookup (createRegistry would copy `first` as it is now).
 */
export function createChainedRegistry(
  first: Registry,
  second: Registry,
): Registry {
  return {
    kind: "registry",
    *[Symbol.iterator]() {
      yield* first;
      yield* second;
    },
    get: (typeName) => first.get(typeName) ?? second.get(typeName),
    getMessage: (typeName) =>
      first.getMessage(typeName) ?? second.getMessage(typeName),
    getEnum: (typeName) => first.getEnum(typeName) ?? second.getEnum(typeName),
    getExtension: (typeName) =>
      first.getExtension(typeName) ?? second.getExtension(typeName),
    getExtensionFor: (extendee, no) =>
      first.getExtensionFor(extendee, no) ??
      second.getExtensionFor(extendee, no),
    getService: (typeName) =>
      first.getService(typeName) ?? second.getService(typeName),
  };
}
