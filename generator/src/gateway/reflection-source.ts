import type { Transport } from "@connectrpc/connect";
import type { DescriptorSource } from "./descriptor-source.js";
import { fetchDescriptorsByReflection } from "./reflection.js";

/**
 * A source asking the gRPC server at `target` (`HOST:PORT`) for its API
 * over server reflection (see fetchDescriptorsByReflection), through
 * `transport` (the tools' own, so TLS when they use it).
 */
export function createReflectionSource(
  target: string,
  transport: Transport,
): DescriptorSource {
  return {
    label: `gRPC server at ${target} (reflection)`,
    load: () => fetchDescriptorsByReflection(target, { transport }),
  };
}
