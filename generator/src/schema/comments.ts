import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import type {
  DescEnumValue,
  DescField,
  DescFile,
  DescMessage,
  DescMethod,
  DescService,
} from "../read/descriptors.js";
import { GeneratorError } from "../errors.js";
import { rawSourceInfo, scanLeadingComments } from "../read/source-info.js";

// Field numbers in descriptor.proto that make up a field's or a method's
// source path.
const fileMessageType = 4;
const messageNestedType = 3;
const messageField = 2;
const fileService = 6;
const serviceMethod = 2;
const fileEnumType = 5;
const messageEnumType = 4;
const enumValue = 2;

/**
 * The leading comments of a file's fields, enum values, methods, services
 * and messages, by their descriptor protos: the only comments the plugin
 * reads.
 */
type FileComments = Map<object, string>;

const commentsByFile = new WeakMap<DescFile, FileComments>();

/**
 * The field, enum value, method or service descriptor proto of `file` that
 * a source path (`[4, 0, 2, 1]`: message 0, field 1) names; undefined for a path of
 * anything else, or of nothing (an index out of range).
 */
function commentedElement(
  file: FileDescriptorProto,
  path: readonly number[],
): object | undefined {
  const n = path.length;
  if (n === 2 && path[0] === fileService) {
    return file.service[path[1]!];
  }
  if (n === 4 && path[0] === fileService && path[2] === serviceMethod) {
    return file.service[path[1]!]?.method[path[3]!];
  }
  if (n === 4 && path[0] === fileEnumType && path[2] === enumValue) {
    return file.enumType[path[1]!]?.value[path[3]!];
  }
  if (n < 2 || n % 2 !== 0 || path[0] !== fileMessageType) {
    return undefined;
  }
  // A message: [4, m, (3, n)*]; a nested enum's value: [4, m, (3, n)*, 4,
  // e, 2, v]; a field: [4, m, (3, n)*, 2, f].
  const messageOf = n === 2 || path[n - 2] === messageNestedType;
  const enumValueOf = !messageOf && n >= 6 && path[n - 4] === messageEnumType;
  if (
    !messageOf &&
    (enumValueOf ? path[n - 2] !== enumValue : path[n - 2] !== messageField)
  ) {
    return undefined;
  }
  const last = messageOf ? n : enumValueOf ? n - 4 : n - 2;
  let message = file.messageType[path[1]!];
  for (let i = 2; i < last && message !== undefined; i += 2) {
    if (path[i] !== messageNestedType) {
      return undefined;
    }
    message = message.nestedType[path[i + 1]!];
  }
  if (messageOf) {
    return message;
  }
  if (enumValueOf) {
    return message?.enumType[path[n - 3]!]?.value[path[n - 1]!];
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

/**
 * The leading comment of a service, as protoc records it (one leading
 * space per line kept), or "".
 */
export function serviceLeadingComment(service: DescService): string {
  return leadingComments(service.file).get(service.proto) ?? "";
}

/**
 * The leading comment of a message, as protoc records it (one leading
 * space per line kept), or "".
 */
export function messageLeadingComment(message: DescMessage): string {
  return leadingComments(message.file).get(message.proto) ?? "";
}

/**
 * The leading comment of an enum value, as protoc records it, or "".
 */
export function enumValueLeadingComment(value: DescEnumValue): string {
  return leadingComments(value.parent.file).get(value.proto) ?? "";
}

/** Comment lines that are directives to linters, not documentation. */
const directive = /^\s*(buf:lint:|@ignore-comment)/;

/**
 * A leading comment as a description: lines that are linter directives
 * (starting with `buf:lint:` or `@ignore-comment`) dropped, the white space
 * every non-empty line starts with (protoc's space after `//`, an indented
 * block) taken off, white space at the end of lines and blank lines at
 * either end removed.
 */
export function cleanComment(comment: string): string {
  const lines = comment
    .split(/\r?\n/)
    .filter((line) => !directive.test(line))
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === "") {
    lines.shift();
  }
  while (lines.length > 0 && lines[lines.length - 1] === "") {
    lines.pop();
  }
  let indent: string | undefined;
  for (const line of lines) {
    if (line === "") {
      continue;
    }
    const own = /^[ \t]*/.exec(line)![0];
    if (indent === undefined || !own.startsWith(indent)) {
      let i = 0;
      const base = indent ?? own;
      while (i < base.length && i < own.length && base[i] === own[i]) {
        i++;
      }
      indent = base.slice(0, i);
    }
  }
  const cut = indent?.length ?? 0;
  return cut === 0
    ? lines.join("\n")
    : lines.map((l) => l.slice(cut)).join("\n");
}
