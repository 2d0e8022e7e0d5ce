/**
 * simhash-wasm/redis: a `SimHashIndex`, a `TextIndex` and a `MinHashLSH` kept in Redis or Redis
 * Cluster and shared by every process that opens them. Needs the `ioredis` package (an optional peer dependency).
 *
 * @packageDocumentation
 */

export { RedisSimHashIndex, type RedisSimHashIndexOptions } from './redis-index.js';
export { RedisTextIndex, type RedisTextIndexOptions } from './redis-text-index.js';
export { RedisMinHashIndex, type RedisMinHashIndexOptions } from './redis-minhash-index.js';
export type { CompactReport, LogDecideOptions, LogRepairReport, SnapshotReport } from './shared-log.js';
export type { MinHashQueryOptions, MinHashQueryResult } from '../shared/minhash-types.js';
export type { TextQueryResult } from '../shared/text-index.js';
export type { MinHashDecisions } from '../shared/decide.js';
export { RedisIndexError, type RedisIndexErrorKind } from './errors.js';
export type { RepairReport } from './repair.js';
export { connectRedis, type ConnectRedisOptions } from './connect.js';
export type { QueryManyResult, QueryOptions, QueryResult, U64Input } from '../shared/types.js';
