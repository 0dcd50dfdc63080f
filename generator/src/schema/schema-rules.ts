/**
 * Plugin options that change which request fields and enum values a tool's
 * input schema shows (docs/options.md): `deprecated=keep` keeps deprecated
 * fields and enum values, marked, instead of leaving them out;
 * `output_only_comments=true` reads a field whose leading comment says
 * `[Output Only]` as OUTPUT_ONLY.
 */
export interface SchemaRules {
  readonly keepDeprecated: boolean;
  readonly outputOnlyComments: boolean;
}

/** The rules without the options: deprecated left out, comments not read. */
export const defaultSchemaRules: SchemaRules = {
  keepDeprecated: false,
  outputOnlyComments: false,
};

/** The rules the common plugin options ask for. */
export function schemaRulesOf(
  common: Readonly<Record<string, string>>,
): SchemaRules {
  const keepDeprecated = common["deprecated"] === "keep";
  const outputOnlyComments = common["output_only_comments"] === "true";
  return keepDeprecated || outputOnlyComments
    ? { keepDeprecated, outputOnlyComments }
    : defaultSchemaRules;
}

/** A small number naming the rules, for caches kept per rules (0 to 3). */
export function schemaRulesKey(rules: SchemaRules): number {
  return (rules.keepDeprecated ? 1 : 0) + (rules.outputOnlyComments ? 2 : 0);
}
