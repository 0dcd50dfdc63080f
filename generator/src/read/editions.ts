import { Edition, type FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { createProblemCollector } from "../errors.js";

/**
 * The editions the plugin accepts (docs/editions.md): from proto2 up to the
 * highest edition every companion generator of the generated code accepts
 * (protoc-gen-es 2.13, protoc-gen-go 1.36, protoc-gen-go-grpc 1.6,
 * grpcio-tools 1.85 and buf 1.75 all stop at 2024).
 */
export const supportedEditions = {
  minimum: Edition.EDITION_PROTO2,
  maximum: Edition.EDITION_2024,
} as const;

/** An edition as a proto file writes it (`2024`, `UNSTABLE`), or its number. */
function editionName(edition: Edition): string {
  const name = Edition[edition] as string | undefined;
  return name === undefined ? String(edition) : name.replace(/^EDITION_/, "");
}

/**
 * Why the plugin does not read `file`, an Editions file of an edition
 * outside {@link supportedEditions}; undefined for any other file.
 */
export function editionProblem(file: FileDescriptorProto): string | undefined {
  const edition = file.edition;
  if (
    file.syntax !== "editions" ||
    (edition >= supportedEditions.minimum &&
      edition <= supportedEditions.maximum)
  ) {
    return undefined;
  }
  return `edition ${JSON.stringify(editionName(edition))} is not supported: the plugin reads proto2, proto3 and the editions up to ${JSON.stringify(editionName(supportedEditions.maximum))}, the highest its companion generators accept; write the file in one of them`;
}

/**
 * Throws a GeneratorError naming every file of an edition outside
 * {@link supportedEditions}: protoc and buf send none (the plugin's
 * response declares the range), but another caller may
 * (`EDITION_UNSTABLE` included, which no companion generator reads).
 */
export function checkEditions(files: readonly FileDescriptorProto[]): void {
  const problems = createProblemCollector();
  for (const file of files) {
    const message = editionProblem(file);
    if (message !== undefined) {
      problems.add({ file: file.name, element: "edition", message });
    }
  }
  problems.throwIfAny();
}
