import type { DescFile, DescMethod } from "../read/descriptors.js";
import { methodDescription } from "./method-description.js";

/**
 * Long-running operations (docs/runtime.md, "Long-running operations"): a
 * tool whose response is a google.longrunning.Operation hands the model an
 * operation it can follow only with google.longrunning.Operations'
 * GetOperation, which is added as a tool alongside it.
 */

const operationType = "google.longrunning.Operation";
const operationsFile = "google/longrunning/operations.proto";

/** The facts of the added tool the selection needs to make its candidate. */
export interface OperationsTool {
  readonly file: DescFile;
  readonly method: DescMethod;
  readonly description: string;
  /** True when some tool returning an Operation is auto-executed. */
  readonly autoExecute: boolean;
}

/** True when the method's response is a google.longrunning.Operation. */
export function returnsOperation(method: DescMethod): boolean {
  return method.output.typeName === operationType;
}

/**
 * The GetOperation tool to add for the selected `tools` (method and
 * whether it is auto-executed), or undefined: when no tool returns an
 * Operation, when the request does not hold google/longrunning/
 * operations.proto with service Operations and its GetOperation, or when
 * GetOperation is selected already.
 */
export function operationsTool(
  tools: ReadonlyMap<DescMethod, { readonly autoExecute: boolean }>,
): OperationsTool | undefined {
  let returning: DescMethod | undefined;
  let autoExecute = false;
  for (const [method, tool] of tools) {
    if (returnsOperation(method)) {
      returning ??= method;
      autoExecute ||= tool.autoExecute;
    }
  }
  const file = returning?.output.file;
  if (file === undefined || file.proto.name !== operationsFile) {
    return undefined;
  }
  const method = file.services
    .find((s) => s.name === "Operations")
    ?.methods.find((m) => m.name === "GetOperation");
  if (method === undefined || tools.has(method)) {
    return undefined;
  }
  return {
    file,
    method,
    description: methodDescription(method, ""),
    autoExecute,
  };
}
