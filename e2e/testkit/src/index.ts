export {
  arbitraryFor,
  validateAgainst,
  valuesFor,
  type OneofGroup,
  type SchemaValueOptions,
} from "./schema-values.js";
