/**
 * simhash-wasm/redis: a `SimHashIndex` kept in Redis or Redis Cluster and shared by every
 * process that opens it. Needs the `ioredis` package (an optional peer dependency).
 *
 * @packageDocumentation
 */

export { RedisSimHashIndex, type RedisSimHashIndexOptions } from './redis-index.js';
export { RedisIndexError, type RedisIndexErrorKind } from './errors.js';
export type { RepairReport } from './repair.js';
export { connectRedis, type ConnectRedisOptions } from './connect.js';
export type { QueryManyResult, QueryOptions, QueryResult, U64Input } from '../shared/types.js';
