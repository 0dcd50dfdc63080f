import type { DescriptorSource } from "./descriptor-source.js";
import { fetchDescriptorsByReflection } from "./reflection.js";

/**
 * A source asking the gRPC server at `target` (`HOST:PORT`, plaintext)
 * for its API over server reflection (see fetchDescriptorsByReflection).
 */
export function createReflectionSource(target: string): DescriptorSource {
  return {
    label: `gRPC server at ${target} (reflection)`,
    load: () => fetchDescriptorsByReflection(target),
  };
}
