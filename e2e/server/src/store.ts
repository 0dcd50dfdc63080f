import type { Operation } from "./gen/google/longrunning/operations_pb.js";
import type { Link } from "./gen/linkhub/v1/links_pb.js";
import type { PageTheme } from "./gen/linkhub/v1/themes_pb.js";
import type { Step } from "./gen/linkhub/v1/workflows_pb.js";

/**
 * The entities of one server, in memory. Maps keep insertion order, so
 * iterating them lists entities oldest first.
 *
 * Stored messages are never mutated: an update stores a new message under the
 * same key, so a response that still references the old one stays intact.
 * Handlers read and write the store without awaiting in between, which makes
 * every call atomic with respect to concurrent ones.
 */
export interface Store {
  /** Links by id. */
  readonly links: Map<string, Link>;
  /** Page themes by id. */
  readonly pageThemes: Map<string, PageTheme>;
  /** Workflow steps by id. */
  readonly steps: Map<string, Step>;
  /**
   * Long-running operations by name (`workspaces/<id>/operations/<n>`), in
   * the state the next GetOperation returns.
   */
  readonly operations: Map<string, Operation>;
  /** Forgets every entity (operations are numbered from 1 again). */
  clear(): void;
}

/**
 * Creates an empty store.
 */
export function createStore(): Store {
  const links = new Map<string, Link>();
  const pageThemes = new Map<string, PageTheme>();
  const steps = new Map<string, Step>();
  const operations = new Map<string, Operation>();
  return {
    links,
    pageThemes,
    steps,
    operations,
    clear() {
      links.clear();
      pageThemes.clear();
      steps.clear();
      operations.clear();
    },
  };
}
