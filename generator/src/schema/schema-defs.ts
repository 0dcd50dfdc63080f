import type { DescField, DescMessage } from "../read/descriptors.js";
import { leftOutOfInput } from "./field-behavior.js";
import { defaultSchemaRules, type SchemaRules } from "./schema-rules.js";
import type { JsonSchema } from "./json-schema.js";
import { wellKnownSchema } from "./well-known.js";
import { heldMessage } from "./held-message.js";

/**
 * How a tool's schema writes its messages:
 *
 * - `inline`: every message expanded where it is used (the default; the Go
 *   drop-in's bytes), recursion cut to an empty object;
 * - `shared`: a message used more than once in the tool, or recursive, is
 *   written once under `$defs` and referred to with `$ref` (`schema=compact`);
 * - `cycles`: every message expanded where it is used, except those on a
 *   cycle of message types, written once under `$defs` (the recursive
 *   variant of an inline tool, docs/compat.md "$defs and $ref");
 * - `every`: every message but the root is a definition, so that each sits
 *   one level below the root, whatever the depth of its uses (the form of
 *   last resort for a tool nested too deep; see schema-depth.ts).
 */
export type DefsPolicy = "inline" | "shared" | "cycles" | "every";

/** A `$ref` written into a schema: where (value path segments) and to what. */
export interface RefSite {
  /** Value path segments, as {@link OneofGroup} paths have them. */
  readonly path: readonly string[];
  /** The definition's key. */
  readonly key: string;
}

/** Facts recorded with a value path (build-schema.ts OneofGroup). */
export interface PathFact {
  readonly path: readonly string[];
}

/**
 * What the expansion of one definition records: its facts and `$ref`s,
 * with paths relative to the definition.
 */
export interface DefScope<F extends PathFact> {
  readonly facts: F[];
  readonly refSites: RefSite[];
}

/**
 * How many times one value path may pass through the same recursive
 * definition when facts are listed per path ({@link SchemaDefs.unroll}):
 * past it, schema-generated values hold no more of that object (the
 * testkit follows a `$ref` at most 3 times by default).
 */
export const recursionUnroll = 4;

/**
 * How many `$ref`s {@link SchemaDefs.unroll} follows in all: definitions
 * shared along many paths multiply the paths, and the facts serve
 * schema-generated test values, not the schema.
 */
export const unrollBudget = 100_000;

/**
 * The `$defs` of one tool schema being built: which messages become
 * definitions, and the definitions written so far. Definitions are keyed
 * by the message's full name (`acme.crm.v1.Account`), so a key is stable
 * across runs and targets; other shared sub-schemas by the key their
 * caller gives ({@link SchemaDefs.share}).
 */
export interface SchemaDefs<F extends PathFact = PathFact> {
  /** The policy these definitions follow. */
  readonly policy: DefsPolicy;
  /**
   * A fresh `{"$ref": "#/$defs/<full name>"}` for `message` when the
   * policy makes it a definition, after building the definition with
   * `expand` the first time; undefined when `message` is to be expanded in
   * place.
   */
  messageRef(
    message: DescMessage,
    expand: (scope: DefScope<F>) => JsonSchema,
  ): JsonSchema | undefined;
  /**
   * A fresh reference to the sub-schema `key`, built with `build` the first
   * time: for a sub-schema written many times in a tool (a long pattern,
   * say) that should be written once. The key must not be a message's full
   * name.
   */
  share(key: string, build: () => JsonSchema): JsonSchema;
  /**
   * True when `field` (of a message field kind) leads back to its own
   * message: a cycle of message types passes through it. Gemini accepts a
   * cycle only through a property that is not required; a strict tool
   * requires every property and makes such a field nullable instead (with
   * `cycles` only: otherwise recursion is cut and this is false).
   */
  isCyclic(field: DescField): boolean;
  /** The definitions written, by key; undefined when there is none. */
  definitions(): JsonSchema | undefined;
  /**
   * The facts of the root (`facts`, with the `$ref`s written outside any
   * definition) and of every definition it reaches, at the value paths
   * where they hold: a definition's facts are repeated at each of its
   * uses; through recursion, {@link recursionUnroll} times.
   */
  unroll(facts: readonly F[], refSites: readonly RefSite[]): F[];
}

/**
 * The `$defs` of a tool whose request message is `root`, under `policy`;
 * `strict` selects the well-known-type forms (messages that have their own
 * JSON form are never definitions). `cycles` makes recursion real (`$ref`
 * cycles); without it, a message on a cycle is never a definition and its
 * recursion stops at an empty object (closed in a strict tool: the stop
 * variant of docs/compat.md, "$defs and $ref"). `shortKeys` (compact
 * schemas and recursive variants) keys a message's definition by its own
 * name (`Money`), by its full name only when another message the tool
 * reaches has that name.
 * `rules` (schema-rules.ts) say which fields the schema leaves out.
 */
export function createSchemaDefs<F extends PathFact>(
  root: DescMessage,
  policy: DefsPolicy,
  strict: boolean,
  cycles = false,
  shortKeys = false,
  rules: SchemaRules = defaultSchemaRules,
): SchemaDefs<F> {
  const graph =
    policy === "inline" ? undefined : createMessageGraph(root, strict, rules);
  const keys =
    graph !== undefined && shortKeys ? definitionKeys(graph) : undefined;
  // Cut recursion where the schema may not have a cycle.
  const cut = !cycles;
  const defs = new Map<string, JsonSchema>();
  const scopes = new Map<string, DefScope<F>>();
  const building = new Set<string>();

  function ref(key: string): JsonSchema {
    return { $ref: `#/$defs/${escapePointer(key)}` };
  }

  function define(key: string, build: () => JsonSchema): JsonSchema {
    if (!defs.has(key) && !building.has(key)) {
      // Mark first: a recursive definition refers to itself while built.
      building.add(key);
      defs.set(key, build());
      building.delete(key);
    }
    return ref(key);
  }

  return {
    policy,
    messageRef(message, expand) {
      const name = message.typeName;
      // Unless `cycles`, the schema keeps its recursion stops (a closed
      // empty object in a strict tool): every property of a strict object
      // is required, and Gemini's parametersJsonSchema takes a cycle only
      // through a property that is not required, Anthropic strict tool use
      // no cycle at all.
      const recursive = graph?.recursive.has(name) ?? false;
      const isDef =
        graph !== undefined &&
        !(cut && recursive) &&
        (policy === "every" ||
          recursive ||
          (policy === "shared" && (graph.uses.get(name) ?? 0) > 1));
      if (!isDef) {
        return undefined;
      }
      return define(keys?.get(name) ?? name, () => {
        const scope: DefScope<F> = { facts: [], refSites: [] };
        scopes.set(name, scope);
        return expand(scope);
      });
    },
    share(key, build) {
      return define(key, build);
    },
    isCyclic(field) {
      const target = heldMessage(field);
      if (
        graph === undefined ||
        cut ||
        target === undefined ||
        !graph.recursive.has(target.typeName)
      ) {
        return false;
      }
      const from = graph.component.get(field.parent.typeName);
      return (
        from !== undefined && from === graph.component.get(target.typeName)
      );
    },
    definitions() {
      if (defs.size === 0) {
        return undefined;
      }
      const out: JsonSchema = Object.create(null) as JsonSchema;
      for (const [key, schema] of defs) {
        out[key] = schema;
      }
      return out;
    },
    unroll(facts, refSites) {
      const out: F[] = [...facts];
      const passes = new Map<string, number>();
      let budget = unrollBudget;
      const visit = (prefix: readonly string[], sites: readonly RefSite[]) => {
        for (let i = 0; i < sites.length; i++) {
          const site = sites[i]!;
          const scope = scopes.get(site.key);
          const n = passes.get(site.key) ?? 0;
          if (scope === undefined || n >= recursionUnroll || budget <= 0) {
            continue;
          }
          budget -= 1;
          const at = [...prefix, ...site.path];
          const scopeFacts = scope.facts;
          for (let j = 0; j < scopeFacts.length; j++) {
            const fact = scopeFacts[j]!;
            out.push({ ...fact, path: [...at, ...fact.path] });
          }
          passes.set(site.key, n + 1);
          visit(at, scope.refSites);
          passes.set(site.key, n);
        }
      };
      visit([], refSites);
      return out;
    },
  };
}

/**
 * Rewrites, in place, every `{"$ref": r, "description": d}` of `schema`
 * (its `$defs` included) as `{"anyOf": [{"$ref": r}], "description": d}`:
 * OpenAI strict mode refuses any keyword beside `$ref` ("$ref cannot have
 * keywords {'description'}", seen in public issue reports, e.g.
 * vectorize-io/hindsight#3944), Gemini any but `$`-keywords
 * (gemini-json-schema.ts, `ref-siblings`), and both take a description
 * beside `anyOf`. Returns `schema`.
 */
export function wrapDescribedRefs(schema: JsonSchema): JsonSchema {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (typeof node !== "object" || node === null) {
      return;
    }
    const obj = node as JsonSchema;
    if (typeof obj["$ref"] === "string" && "description" in obj) {
      const ref = obj["$ref"];
      delete obj["$ref"];
      obj["anyOf"] = [{ $ref: ref }];
      return;
    }
    for (const key of ["properties", "$defs"]) {
      const map = obj[key];
      if (typeof map === "object" && map !== null && !Array.isArray(map)) {
        Object.values(map).forEach(visit);
      }
    }
    visit(obj["items"]);
    visit(obj["additionalProperties"]);
    visit(obj["anyOf"]);
  };
  visit(schema);
  return schema;
}

/**
 * Each reached message's definition key: its own name, or its full name
 * when two reached messages share their own name. A key without a `.` is
 * never another message's full-name key, which holds one unless the
 * message has no package (and then its own name is its full name).
 */
function definitionKeys(graph: MessageGraph): Map<string, string> {
  const count = new Map<string, number>();
  for (const name of graph.names.values()) {
    count.set(name, (count.get(name) ?? 0) + 1);
  }
  const keys = new Map<string, string>();
  for (const [typeName, name] of graph.names) {
    keys.set(typeName, count.get(name) === 1 ? name : typeName);
  }
  return keys;
}

/** What the definitions need to know of the messages a tool reaches. */
interface MessageGraph {
  /** The own name (`Money`) of each reached message, by full name. */
  readonly names: ReadonlyMap<string, string>;
  /** Fields (of reached messages) of each message type, by full name. */
  readonly uses: ReadonlyMap<string, number>;
  /** Full names of the messages on a cycle of message types. */
  readonly recursive: ReadonlySet<string>;
  /** The strongly connected component of each reached message. */
  readonly component: ReadonlyMap<string, number>;
}

/**
 * The message type a field's schema expands, wherever the field is kept:
 * the message it holds (itself, its items or its map values), unless that
 * is a well-known type with its own JSON form.
 */
export function expandedMessage(
  field: DescField,
  strict: boolean,
): DescMessage | undefined {
  const target = heldMessage(field);
  if (
    target === undefined ||
    wellKnownSchema(target.typeName, strict) !== undefined
  ) {
    return undefined;
  }
  return target;
}

/**
 * The message type a field leads to in the schema: none for a field the
 * schema leaves out (`skip`, OUTPUT_ONLY without IDENTIFIER: the same rule
 * as the schema builder's) or a field whose type has its own JSON form.
 */
function schemaEdge(
  field: DescField,
  strict: boolean,
  rules: SchemaRules,
): DescMessage | undefined {
  return leftOutOfInput(field, rules)
    ? undefined
    : expandedMessage(field, strict);
}

/**
 * Uses and cycles of the message types reached from `root`: Tarjan's
 * strongly connected components over the fields' message types.
 */
function createMessageGraph(
  root: DescMessage,
  strict: boolean,
  rules: SchemaRules,
): MessageGraph {
  const uses = new Map<string, number>();
  const names = new Map<string, string>();
  const recursive = new Set<string>();
  const component = new Map<string, number>();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let counter = 0;
  let components = 0;

  function visit(message: DescMessage): void {
    const name = message.typeName;
    names.set(name, message.name);
    index.set(name, counter);
    low.set(name, counter);
    counter += 1;
    stack.push(name);
    onStack.add(name);
    for (let i = 0, fields = message.fields; i < fields.length; i++) {
      const field = fields[i]!;
      const target = schemaEdge(field, strict, rules);
      if (target === undefined) {
        continue;
      }
      const t = target.typeName;
      uses.set(t, (uses.get(t) ?? 0) + 1);
      if (t === name) {
        recursive.add(name);
      }
      if (!index.has(t)) {
        visit(target);
        low.set(name, Math.min(low.get(name)!, low.get(t)!));
      } else if (onStack.has(t)) {
        low.set(name, Math.min(low.get(name)!, index.get(t)!));
      }
    }
    if (low.get(name) === index.get(name)) {
      const members: string[] = [];
      let top: string;
      do {
        top = stack.pop()!;
        onStack.delete(top);
        component.set(top, components);
        members.push(top);
      } while (top !== name);
      if (members.length > 1) {
        for (let i = 0; i < members.length; i++) {
          const m = members[i]!;
          recursive.add(m);
        }
      }
      components += 1;
    }
  }

  visit(root);
  return { names, uses, recursive, component };
}

function escapePointer(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}
