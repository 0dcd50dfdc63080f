import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import type { DescField, DescFile, DescMethod } from "../descriptors.js";
import { GeneratorError } from "../errors.js";
import { rawSourceInfo, scanLeadingComments } from "../source-info.js";

// Field numbers in descriptor.proto that make up a field's or a method's
// source path.
const fileMessageType = 4;
const messageNestedType = 3;
const messageField = 2;
const fileService = 6;
const serviceMethod = 2;

/**
 * The leading comments of a file's fields and methods, by their
 * descriptor protos: the only comments the plugin reads.
 */
type FileComments = Map<object, string>;

const commentsByFile = new WeakMap<DescFile, FileComments>();

/**
 * The field or method descriptor proto of `file` that a source path
 * (`[4, 0, 2, 1]`: message 0, field 1) names; undefined for a path of
 * anything else, or of nothing (an index out of range).
 */
function commentedElement(
  file: FileDescriptorProto,
  path: readonly number[],
): object | undefined {
  const n = path.length;
  if (n === 4 && path[0] === fileService && path[2] === serviceMethod) {
    return file.service[path[1]!]?.method[path[3]!];
  }
  if (
    n < 4 ||
    n % 2 !== 0 ||
    path[0] !== fileMessageType ||
    path[n - 2] !== messageField
  ) {
    return undefined;
  }
  let message = file.messageType[path[1]!];
  for (let i = 2; i < n - 2 && message !== undefined; i += 2) {
    if (path[i] !== messageNestedType) {
      return undefined;
    }
    message = message.nestedType[path[i + 1]!];
  }
  return message?.field[path[n - 1]!];
}

/**
 * The leading comments of a file's fields and methods, indexed the first
 * time they are asked for.
 */
function leadingComments(file: DescFile): FileComments {
  let index = commentsByFile.get(file);
  if (index === undefined) {
    const proto = file.proto;
    const keyOf = (path: readonly number[]) => commentedElement(proto, path);
    const raw = rawSourceInfo.get(proto);
    if (raw !== undefined) {
      try {
        index = scanLeadingComments(raw, keyOf);
      } catch (e) {
        // Bytes protoc and buf never write: a clear error, not an internal one.
        throw new GeneratorError(
          `${proto.name}: source_code_info: cannot be read (${e instanceof Error ? e.message : String(e)}): compile the proto with protoc or buf`,
        );
      }
    } else {
      index = new Map();
      for (const location of proto.sourceCodeInfo?.location ?? []) {
        if (
          location.leadingComments !== undefined &&
          location.leadingComments !== ""
        ) {
          const key = keyOf(location.path);
          if (key !== undefined && !index.has(key)) {
            index.set(key, location.leadingComments);
          }
        }
      }
    }
    commentsByFile.set(file, index);
  }
  return index;
}

/**
 * The leading comment of a field, as protoc records it (one leading space
 * per line kept), or "". One map lookup per field: the file's source info
 * is indexed the first time it is asked for.
 */
export function fieldLeadingComment(field: DescField): string {
  return leadingComments(field.parent.file).get(field.proto) ?? "";
}

/**
 * The leading comment of a method, as protoc records it (one leading space
 * per line kept), or "".
 */
export function methodLeadingComment(method: DescMethod): string {
  return leadingComments(method.parent.file).get(method.proto) ?? "";
}
