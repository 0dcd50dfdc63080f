import {
  create,
  createFileRegistry,
  type DescMessage,
  type FileRegistry,
  type Registry,
} from "@bufbuild/protobuf";
import {
  FileDescriptorSetSchema,
  type CodeGeneratorRequest,
} from "@bufbuild/protobuf/wkt";

/**
 * protobuf-es's registry of a request's files, for tests that create,
 * encode or decode messages of the model's types (the model's descriptors,
 * src/read/descriptors.ts, are the generator's own).
 */
export function esRegistry(request: CodeGeneratorRequest): FileRegistry {
  return createFileRegistry(
    create(FileDescriptorSetSchema, { file: request.protoFile }),
  );
}

/** protobuf-es's descriptor of the message the model names `typeName`. */
export function esMessage(
  registry: Registry,
  message: { readonly typeName: string },
): DescMessage {
  const desc = registry.getMessage(message.typeName);
  if (desc === undefined) {
    throw new Error(`no message ${JSON.stringify(message.typeName)}`);
  }
  return desc;
}
