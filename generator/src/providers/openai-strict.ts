/**
 * An offline checker for OpenAI function calling with `strict: true`
 * (Structured Outputs). OpenAI validates every tool of a request before it
 * runs any, so one malformed schema fails the whole request; this checker
 * lets generation and tests find the problem first.
 *
 * The rules are OpenAI's (summed up in docs/compat.md, "What providers
 * accept"). Where OpenAI's
 * documentation is silent, the checker is conservative: a schema it accepts
 * should be accepted by OpenAI, not the other way round. The decisions:
 *
 * - Keywords: only those in {@link openAiStrictKeywords}. Keywords OpenAI
 *   documents as unsupported (and other standard JSON Schema keywords not on
 *   its supported list) are reported as "not supported"; anything else as
 *   "unknown".
 * - `title` and `description` are accepted anywhere but beside `$ref`, and
 *   no other keyword may sit beside `$ref` or `anyOf`. OpenAI's SDK lets a
 *   description sit beside `$ref`, but the API refuses it ("$ref cannot
 *   have keywords {'description'}", seen in public issue reports, e.g.
 *   vectorize-io/hindsight#3944): a described reference is written
 *   `{"anyOf": [{"$ref": …}], "description": …}` instead.
 * - `$defs` is accepted at the root only; `$ref` must be `#` or
 *   `#/$defs/<name>` naming an existing definition.
 * - Type-specific keywords (`pattern`, `minimum`, `items`, `properties`, …)
 *   need a matching `type` on the same node.
 * - An array needs `items`.
 * - Nesting is counted as OpenAI's SDK counts it (openai-java,
 *   `JsonSchemaValidator.kt`; see ../schema/schema-depth.ts): the root is
 *   depth 0, each property value, `items`, `anyOf` branch and `$defs` entry
 *   is one level deeper than its parent, and a `$ref` is not followed. No
 *   sub-schema may be deeper than 10 (OpenAI's documented limit), so an
 *   optional nested message (`anyOf [object, null]`) costs two levels.
 * - Characters are counted in Unicode code points; a non-string enum or const
 *   value counts as its JSON text.
 */

import {
  isPlainObject,
  isPlainScalar,
  SchemaPointer,
  show,
  type JsonObject,
} from "./schema-walk.js";
import {
  holds,
  openAiStrictLimits,
  type Held,
} from "./openai-strict-keywords.js";
import {
  checkAnyOfNode,
  checkArrayNode,
  checkRefNode,
  checkTypedNode,
  codePoints,
  readKeywords,
  reportLimits,
  type StrictTotals,
} from "./openai-strict-rules.js";

export {
  openAiStrictFormats,
  openAiStrictKeywords,
  openAiStrictLimits,
  openAiStrictTypes,
  openAiStrictUnsupportedKeywords,
} from "./openai-strict-keywords.js";

/** One rule of OpenAI strict mode that a schema breaks. */
export interface StrictViolation {
  /**
   * Where: a JSON Pointer written as a URI fragment, `#` for the root,
   * `#/properties/a/anyOf/0` below it (`~` and `/` in names escaped as
   * `~0` and `~1`).
   */
  readonly path: string;
  /** What is wrong, lower-case, with the offending input quoted. */
  readonly message: string;
}

/**
 * Checks a tool's `parameters` schema against OpenAI strict mode and returns
 * every violation found, in document order (root walk first, then `$defs`),
 * followed by the size-limit violations. An empty array means the schema
 * passes.
 */
export function checkOpenAiStrict(schema: unknown): StrictViolation[] {
  return createStrictChecker(schema).run();
}

/**
 * Renders violations as one readable message for `toolName`, one violation
 * per line, e.g. for an error thrown at generation time.
 */
export function formatViolations(
  toolName: string,
  violations: readonly StrictViolation[],
): string {
  if (violations.length === 0) {
    return `tool ${JSON.stringify(toolName)} passes the OpenAI strict mode checks`;
  }
  const count =
    violations.length === 1 ? "1 problem" : `${violations.length} problems`;
  const lines = violations.map((v) => `  ${v.path}: ${v.message}`);
  return [
    `tool ${JSON.stringify(toolName)} is not accepted by OpenAI strict mode (${count}):`,
    ...lines,
  ].join("\n");
}

/** A node's place: its JSON Pointer (written when a violation needs it) and depth. */
class NodeContext extends SchemaPointer {
  readonly isRoot: boolean;
  readonly inAnyOf: boolean;
  /** Sub-schema steps from the root (schema-depth.ts). */
  readonly depth: number;

  constructor(
    parent: NodeContext | undefined,
    keyword: string | undefined,
    entry: number | string | undefined,
    inAnyOf: boolean,
    depth: number,
  ) {
    super(parent, keyword, entry);
    this.isRoot = parent === undefined;
    this.inAnyOf = inAnyOf;
    this.depth = depth;
  }

  /** The root's place: `#`, depth 0. */
  static root(): NodeContext {
    return new NodeContext(undefined, undefined, undefined, false, 0);
  }
}

/**
 * A sub-schema below the root, without `$ref`, in which no rule is broken
 * when it sits in (or not in) an `anyOf` and its deepest node is within
 * the depth limit; and what it adds to the size totals.
 */
interface CleanSubSchema {
  readonly inAnyOf: boolean;
  /** Sub-schema steps from it to its deepest node. */
  readonly height: number;
  readonly properties: number;
  readonly enumValues: number;
  readonly chars: number;
}

interface StrictChecker {
  run(): StrictViolation[];
}

/**
 * Frozen sub-schemas found clean, across schemas: the schema builder
 * freezes what it shares between tools (a message's expansion sits in
 * every tool that uses the message), and a clean sub-schema holds no
 * `$ref`, so its outcome does not depend on the schema around it. Frozen
 * is taken to mean frozen all the way down, as the builder freezes.
 * Module-level, as the check is a function of one schema: a weak map, so
 * that it holds no node after its schema is gone.
 */
const frozenClean = new WeakMap<object, CleanSubSchema>();

/** The root's `$defs`, when it is an object. */
function defsOf(root: unknown): JsonObject | undefined {
  return isPlainObject(root) && isPlainObject(root["$defs"])
    ? root["$defs"]
    : undefined;
}

/** Adds what a clean sub-schema adds to the size totals. */
function addTotals(totals: StrictTotals, clean: CleanSubSchema): void {
  totals.properties += clean.properties;
  totals.enumValues += clean.enumValues;
  totals.chars += clean.chars;
}

/** A sub-schema walked clean at `ctx`: its height and what it added since `before`. */
function cleanSince(
  before: StrictTotals,
  totals: StrictTotals,
  ctx: NodeContext,
  height: number,
): CleanSubSchema {
  return {
    inAnyOf: ctx.inAnyOf,
    height,
    properties: totals.properties - before.properties,
    enumValues: totals.enumValues - before.enumValues,
    chars: totals.chars - before.chars,
  };
}

/**
 * The walk of one schema: each node reached (the root, then the `$defs`
 * it refers to, in first-reference order) goes to the node rules of
 * openai-strict-rules.ts; the walk keeps what spans nodes: depth, the
 * size totals, the `$defs` queue, and the clean sub-schemas it need not
 * walk again. One closure over that state (about 160 lines), as each of
 * its short inner functions reads and updates it.
 */
function createStrictChecker(root: unknown): StrictChecker {
  const violations: StrictViolation[] = [];
  const report = (path: string, message: string): void => {
    violations.push({ path, message });
  };
  const totals: StrictTotals = { properties: 0, enumValues: 0, chars: 0 };
  let depthReported = false;
  /** The deepest node walked so far, and the `$ref`s met. */
  let deepest = 0;
  let refCount = 0;
  /**
   * A schema holds the same sub-schema object in several places (a message
   * type used by several fields): each is walked once (a frozen one once
   * across schemas, {@link frozenClean}).
   */
  const clean = new Map<object, CleanSubSchema>();
  const defs = defsOf(root);
  /** Definitions in the order they are first referred to. */
  const defQueue: string[] = [];
  const queued = new Set<string>();
  const rootContext = NodeContext.root();

  function walk(value: unknown, ctx: NodeContext): void {
    if (ctx.isRoot || !isPlainObject(value)) {
      walkNode(value, ctx);
      return;
    }
    const memo = Object.isFrozen(value) ? frozenClean : clean;
    const known = memo.get(value);
    if (
      known !== undefined &&
      known.inAnyOf === ctx.inAnyOf &&
      ctx.depth + known.height <= openAiStrictLimits.maxDepth
    ) {
      addTotals(totals, known);
      deepest = Math.max(deepest, ctx.depth + known.height);
      return;
    }
    const violationsBefore = violations.length;
    const refsBefore = refCount;
    const deepestBefore = deepest;
    const before = { ...totals };
    deepest = ctx.depth;
    walkNode(value, ctx);
    if (
      violations.length === violationsBefore &&
      refCount === refsBefore &&
      deepest <= openAiStrictLimits.maxDepth
    ) {
      memo.set(value, cleanSince(before, totals, ctx, deepest - ctx.depth));
    }
    deepest = Math.max(deepest, deepestBefore);
  }

  /**
   * Walks the sub-schema of `parent` under `keyword` (and `entry`, for a
   * list or a map). A leaf {@link isPlainScalar} accepts breaks no rule
   * and adds nothing to the totals: within the depth limit, it only
   * deepens the schema.
   */
  function walkChild(
    value: unknown,
    parent: NodeContext,
    keyword: string,
    entry: number | string | undefined,
    inAnyOf: boolean,
  ): void {
    const depth = parent.depth + 1;
    if (depth <= openAiStrictLimits.maxDepth && isPlainScalar(value)) {
      deepest = Math.max(deepest, depth);
      return;
    }
    walk(value, new NodeContext(parent, keyword, entry, inAnyOf, depth));
  }

  function walkNode(value: unknown, ctx: NodeContext): void {
    deepest = Math.max(deepest, ctx.depth);
    if (ctx.depth > openAiStrictLimits.maxDepth && !depthReported) {
      depthReported = true;
      report(
        ctx.path,
        `nested ${ctx.depth} levels deep; the limit is ${openAiStrictLimits.maxDepth} ` +
          `(every property, "items", "anyOf" branch and "$defs" entry is one level, as OpenAI's SDK counts)`,
      );
    }
    if (!isPlainObject(value)) {
      report(ctx.path, `schema must be an object, got ${show(value)}`);
      return;
    }
    const held = readKeywords(value, ctx, report);
    if (holds(held, "$ref")) {
      refCount++;
      const name = checkRefNode(held, ctx, defs, report);
      if (name !== undefined && !queued.has(name)) {
        queued.add(name);
        defQueue.push(name);
      }
    } else if (holds(held, "anyOf")) {
      const branches = checkAnyOfNode(held, ctx, ctx.inAnyOf, report);
      branches?.forEach((branch, i) => {
        walkChild(branch, ctx, "anyOf", i, true);
      });
    } else {
      walkTyped(held, ctx);
    }
  }

  function walkTyped(held: Held, ctx: NodeContext): void {
    const types = checkTypedNode(held, ctx, totals, report);
    const properties = held.node["properties"];
    if (holds(held, "properties") && isPlainObject(properties)) {
      for (let i = 0, names = Object.keys(properties); i < names.length; i++) {
        const name = names[i]!;
        totals.properties += 1;
        totals.chars += codePoints(name);
        walkChild(properties[name], ctx, "properties", name, false);
      }
    }
    checkArrayNode(held, ctx, types, report);
    if (holds(held, "items")) {
      walkChild(held.node["items"], ctx, "items", undefined, false);
    }
  }

  function run(): StrictViolation[] {
    walk(root, rootContext);
    if (
      isPlainObject(root) &&
      "$defs" in root &&
      !isPlainObject(root["$defs"])
    ) {
      report("#", `"$defs" must be an object, got ${show(root["$defs"])}`);
    }
    if (defs !== undefined) {
      const names = Object.keys(defs);
      for (let i = 0; i < names.length; i++) {
        totals.chars += codePoints(names[i]!);
      }
      // Definitions in first-reference order (references found while
      // walking a definition come after it); each is one level below the
      // root, wherever it is referred to from.
      for (let i = 0; i < defQueue.length; i++) {
        walkDef(defQueue[i] as string);
      }
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        if (!queued.has(name)) {
          walkDef(name);
        }
      }
    }
    reportLimits(totals, report);
    return violations;
  }

  function walkDef(name: string): void {
    walkChild(defs?.[name], rootContext, "$defs", name, false);
  }

  return { run };
}
