import type { DescMessage, Message } from "@bufbuild/protobuf";
import type { Path } from "@bufbuild/protobuf/reflect";
import { Code } from "@connectrpc/connect";
import { ToolError } from "./tool-error.js";
import { violationError, type Violation } from "./violations.js";

/**
 * What the executor needs of a protovalidate validator: the `Validator` of
 * `@bufbuild/protovalidate` (`createValidator()`) is one. The runtime does
 * not import the library; a generated file whose tools carry `buf.validate`
 * rules creates the validator and passes it.
 */
export interface RequestValidator {
  /** Check message against the rules of schema. */
  validate(schema: DescMessage, message: Message): RequestValidationResult;
}

/**
 * A validator, or a function making one (`createValidator` itself): an
 * executor given a function calls it once for all the executors given the
 * same function, so the rules it compiles are compiled once, not once per
 * conversation.
 */
export type RequestValidatorSource =
  RequestValidator | (() => RequestValidator);

const madeValidators = new WeakMap<() => RequestValidator, RequestValidator>();

/** The validator of source: itself, or the one its function made. */
export function validatorOf(source: RequestValidatorSource): RequestValidator {
  if (typeof source !== "function") {
    return source;
  }
  let made = madeValidators.get(source);
  if (made === undefined) {
    made = source();
    madeValidators.set(source, made);
  }
  return made;
}

/** The outcome of {@link RequestValidator.validate}. */
export type RequestValidationResult =
  | { readonly kind: "valid" }
  | {
      readonly kind: "invalid";
      readonly violations: readonly RuleViolation[];
    }
  | { readonly kind: "error"; readonly error: Error };

/** One broken rule, as protovalidate reports it. */
export interface RuleViolation {
  /** The rule's message. */
  readonly message: string;
  /** The rule's id, shown when its message is empty. */
  readonly ruleId?: string | undefined;
  /** The field the rule is on; empty for a message-level rule. */
  readonly field: Path;
}

/**
 * Stage 6 of a call (docs/runtime.md, "Argument checks"): every rule the
 * request breaks, as a ToolError `failed-validation` with one violation
 * each (nothing is sent; a rule without a message shows its id). A
 * validator that fails to run its rules (an error result, or a throw) is a
 * `failed-validation` ToolError of code `Internal`: `cannot check the
 * request's rules: <error>`.
 */
export function validateRequest(
  validator: RequestValidator,
  schema: DescMessage,
  request: Message,
): void {
  let result: RequestValidationResult;
  try {
    result = validator.validate(schema, request);
  } catch (err) {
    result = {
      kind: "error",
      error: err instanceof Error ? err : new Error(String(err)),
    };
  }
  if (result.kind === "valid") {
    return;
  }
  if (result.kind === "error") {
    throw new ToolError(
      `cannot check the request's rules: ${result.error.message}`,
      { reason: "failed-validation", code: Code.Internal, cause: result.error },
    );
  }
  const violations: Violation[] = result.violations.map((v) => ({
    field: fieldPath(v.field),
    reason: "validation",
    message: v.message === "" ? (v.ruleId ?? "") : v.message,
  }));
  throw violationError(violations, "failed-validation");
}

/**
 * A protovalidate field path with proto names: `steps[2].link_id`,
 * `labels.env`; `""` for the message itself.
 */
export function fieldPath(path: Path): string {
  let out = "";
  for (const p of path) {
    switch (p.kind) {
      case "list_sub":
        out += `[${p.index}]`;
        break;
      case "map_sub":
        out += `.${String(p.key)}`;
        break;
      case "extension":
        out += `${out === "" ? "" : "."}[${p.typeName}]`;
        break;
      default:
        out += `${out === "" ? "" : "."}${p.name}`;
    }
  }
  return out;
}
