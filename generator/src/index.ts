export { protocGenAiTools, generate, type GeneratedFile } from "./plugin.js";
export { parseOptions, type PluginOptions, type Target } from "./options.js";
export { GeneratorError } from "./errors.js";
export { buildModel, resolveRequestFiles } from "./model/build-model.js";
export { toolSelectionOf } from "./model/tool-selection.js";
export type {
  DescEnum,
  DescEnumValue,
  DescExtension,
  DescField,
  DescFile,
  DescMessage,
  DescMethod,
  DescOneof,
  DescService,
} from "./read/descriptors.js";
export type { GeneratorModel, ToolModel, AliasField } from "./model/model.js";
export {
  buildToolSchema,
  type OneofGroup,
  type ToolSchema,
} from "./schema/build-schema.js";
export { canonicalJson } from "./schema/canonical-json.js";
export type { JsonSchema, JsonValue } from "./schema/json-schema.js";
