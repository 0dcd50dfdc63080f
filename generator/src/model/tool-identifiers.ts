import type { ProblemCollector } from "../errors.js";
import type { ToolModel } from "./model.js";

/** How one target turns tool names into identifiers of its generated file. */
export interface ToolIdentifierRules {
  /** What the identifier is called in messages: "Go identifier". */
  readonly kind: string;
  /** The identifier of a tool name: `PageThemesUpdate`, `PAGE_THEMES_UPDATE`. */
  readonly shape: (toolName: string) => string;
  /**
   * Why the identifier cannot be written at all, as the end of "tool name
   * "x" gives …" (`the Go identifier "1a", which is not valid Go; …`), or
   * undefined when it is a valid identifier.
   */
  readonly invalid: (id: string) => string | undefined;
  /** Reserved words of the language that are valid identifiers otherwise. */
  readonly reservedWords: ReadonlySet<string>;
  /** Names the generated file itself declares, defines or imports. */
  readonly taken: ReadonlySet<string>;
  /** How a taken name is explained: "the generated file already declares". */
  readonly takenBy: string;
}

/**
 * The identifier of every tool, one rule for every target: refused (with a
 * message naming file, element and fix) when it is not a valid identifier,
 * a reserved word, a name the file already has, or the identifier of
 * another tool. Tools are taken in the model's (name) order, so the first
 * of two colliding tools keeps the identifier.
 */
export function assignToolIdentifiers(
  tools: readonly ToolModel[],
  rules: ToolIdentifierRules,
  problems: ProblemCollector,
): Map<ToolModel, string> {
  const names = new Map<ToolModel, string>();
  const owners = new Map<string, ToolModel>();
  for (const tool of tools) {
    const at = { file: tool.file, element: tool.element };
    const name = JSON.stringify(tool.name);
    const id = rules.shape(tool.name);
    const invalid = rules.invalid(id);
    const becomes = `tool name ${name} becomes the ${rules.kind} ${id}`;
    const leaveOut = `exclude=${tool.method.parent.typeName}.${tool.method.name}`;
    const other = owners.get(id);
    const message =
      invalid !== undefined
        ? `tool name ${name} gives ${invalid}`
        : rules.reservedWords.has(id)
          ? `${becomes}, which is a reserved word; rename the tool, or leave it out with ${leaveOut}`
          : rules.taken.has(id)
            ? `${becomes}, which ${rules.takenBy}; rename the tool, or leave it out with ${leaveOut}`
            : other !== undefined
              ? `${becomes}, as does tool ${JSON.stringify(other.name)} (${other.element} in ${other.file}); rename one of them, or leave one out with ${leaveOut}`
              : undefined;
    if (message !== undefined) {
      problems.add({ ...at, message });
      continue;
    }
    owners.set(id, tool);
    names.set(tool, id);
  }
  return names;
}
