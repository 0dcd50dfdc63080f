import type {
  DescField,
  DescFile,
  DescMessage,
  DescMethod,
} from "../descriptors.js";
import { GeneratorError } from "../errors.js";
import { rawSourceInfo, scanLeadingComments } from "../source-info.js";

// Field numbers in descriptor.proto that make up a field's source path.
const fileMessageType = 4;
const messageNestedType = 3;
const messageField = 2;
const fileService = 6;
const serviceMethod = 2;

const leadingByFile = new WeakMap<DescFile, Map<string, string>>();

/** The leading comments of a file's elements, by source path, built once. */
function leadingComments(file: DescFile): Map<string, string> {
  let index = leadingByFile.get(file);
  if (index === undefined) {
    const raw = rawSourceInfo.get(file.proto);
    if (raw !== undefined) {
      try {
        index = scanLeadingComments(raw);
      } catch (e) {
        // Bytes protoc and buf never write: a clear error, not an internal one.
        throw new GeneratorError(
          `${file.proto.name}: source_code_info: cannot be read (${e instanceof Error ? e.message : String(e)}): compile the proto with protoc or buf`,
        );
      }
      leadingByFile.set(file, index);
      return index;
    }
    index = new Map();
    for (const location of file.proto.sourceCodeInfo?.location ?? []) {
      if (
        location.leadingComments !== undefined &&
        location.leadingComments !== ""
      ) {
        const key = location.path.join(",");
        if (!index.has(key)) {
          index.set(key, location.leadingComments);
        }
      }
    }
    leadingByFile.set(file, index);
  }
  return index;
}

/** Each message's source path (`4,0,3,1`), by message. */
const messagePaths = new WeakMap<DescMessage, string>();

/** The source path of a message, its parents' built once. */
function messagePath(message: DescMessage): string {
  let path = messagePaths.get(message);
  if (path === undefined) {
    const parent = message.parent;
    path =
      parent === undefined
        ? `${fileMessageType},${message.file.proto.messageType.indexOf(message.proto)}`
        : `${messagePath(parent)},${messageNestedType},${parent.proto.nestedType.indexOf(message.proto)}`;
    messagePaths.set(message, path);
  }
  return path;
}

/** Above this many fields, a message's field indexes are kept in a map. */
const lookAlongLimit = 64;

/** The field indexes of each message over {@link lookAlongLimit} fields. */
const fieldIndexes = new WeakMap<
  DescMessage,
  Map<DescField["proto"], number>
>();

/**
 * The field's index in its message's descriptor: by a look along the
 * message's fields for most messages, without a map per message; by a map
 * for a large one, where looking along would cost as the square of its
 * size.
 */
function fieldIndex(field: DescField): number {
  const message = field.parent;
  const protos = message.proto.field;
  if (protos.length <= lookAlongLimit) {
    return protos.indexOf(field.proto);
  }
  let indexes = fieldIndexes.get(message);
  if (indexes === undefined) {
    indexes = new Map(protos.map((proto, i) => [proto, i]));
    fieldIndexes.set(message, indexes);
  }
  return indexes.get(field.proto) ?? -1;
}

/**
 * The leading comment of a field, as protoc records it (one leading space
 * per line kept), or "". One map lookup per field: the file's source info
 * is indexed the first time it is asked for.
 */
export function fieldLeadingComment(field: DescField): string {
  const path = `${messagePath(field.parent)},${messageField},${fieldIndex(field)}`;
  return leadingComments(field.parent.file).get(path) ?? "";
}

/**
 * The leading comment of a method, as protoc records it (one leading space
 * per line kept), or "".
 */
export function methodLeadingComment(method: DescMethod): string {
  const service = method.parent;
  const path = [
    fileService,
    service.file.proto.service.indexOf(service.proto),
    serviceMethod,
    service.proto.method.indexOf(method.proto),
  ];
  return leadingComments(service.file).get(path.join(",")) ?? "";
}
