export {
  arbitraryFor,
  validateAgainst,
  valuesFor,
  type OneofGroup,
  type SchemaValueOptions,
} from "./schema-values.js";
export {
  freePort,
  redisVersion,
  startRedis,
  storeAclRules,
  type RedisOptions,
  type RedisServer,
} from "./redis-server.js";
export {
  startRedisCluster,
  type RedisCluster,
  type RedisClusterNode,
  type Shard,
} from "./redis-cluster.js";
export { createTestCertificates, type TestCertificates } from "./redis-tls.js";
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
