export {
  arbitraryFor,
  validateAgainst,
  valuesFor,
  type OneofGroup,
  type SchemaValueOptions,
} from "./schema-values.js";
export { freePort, startRedis, type RedisServer } from "./redis-server.js";
export {
  spawnStoreWorker,
  type StoreWorker,
  type StoreWorkerOptions,
  type WorkerAnswer,
} from "./store-worker.js";
export {
  createTestIssuer,
  type RecipeDefaults,
  type SignOptions,
  type TestAlg,
  type TestIssuer,
  type TokenRecipe,
} from "./test-issuer.js";
