import type { DescriptorProto } from "@bufbuild/protobuf/wkt";
import type { DescEnum, DescMessage } from "./descriptors.js";

/**
 * What a type_name refers to, or an Error naming the element (`field
 * a.v1.M.f`, `rpc a.v1.S.M`: the element's kind, its parent's name and its
 * own, joined only for the error).
 */
export interface Resolver {
  message(
    typeName: string,
    kind: string,
    parent: string,
    name: string,
  ): DescMessage;
  enum(typeName: string, kind: string, parent: string, name: string): DescEnum;
  /** The map entry a repeated message field refers to, if it is one. */
  mapEntry(typeName: string): DescriptorProto | undefined;
}

/**
 * The resolver of the types a file's fields and methods name: `types`
 * holds the messages and enums of the files read so far (full names
 * without the leading dot), `mapEntries` the map entry messages, which
 * only their map field may name. Errors name `fileName`.
 */
export function newResolver(
  fileName: string,
  types: ReadonlyMap<string, DescMessage | DescEnum>,
  mapEntries: ReadonlyMap<string, DescriptorProto>,
): Resolver {
  const refused = (
    typeName: string,
    want: string,
    kind: string,
    parent: string,
    name: string,
  ): Error =>
    new Error(
      `${fileName}: ${kind} ${parent}.${name}: type ${JSON.stringify(typeName)} ` +
        (mapEntries.has(trimDot(typeName))
          ? "is a map entry, which only the map field it was made for refers to"
          : `is not ${want} of the request's files`),
    );
  const get = (typeName: string) => types.get(trimDot(typeName));
  return {
    message(typeName, kind, parent, name) {
      const desc = get(typeName);
      if (desc?.kind !== "message") {
        throw refused(typeName, "a message", kind, parent, name);
      }
      return desc;
    },
    enum(typeName, kind, parent, name) {
      const desc = get(typeName);
      if (desc?.kind !== "enum") {
        throw refused(typeName, "an enum", kind, parent, name);
      }
      return desc;
    },
    mapEntry: (typeName) => mapEntries.get(trimDot(typeName)),
  };
}

/** A type name without the leading dot compilers write. */
function trimDot(typeName: string): string {
  return typeName.startsWith(".") ? typeName.slice(1) : typeName;
}
