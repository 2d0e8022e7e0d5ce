/** The error of a Redis-backed index operation that Redis did not complete. */

/**
 * Why an operation failed:
 * - `'timeout'`: Redis did not answer within the index's time limit (`timeout`), or the
 *   connection was down that long;
 * - `'closed'`: the client was closed and will not reconnect;
 * - `'corrupt'`: a key of the index holds what the index never writes (`key` names it); run
 *   `repair()`;
 * - `'failed'`: any other error of Redis or of the client (`cause` holds it).
 */
export type RedisIndexErrorKind = 'timeout' | 'closed' | 'corrupt' | 'failed';

/**
 * Thrown when Redis fails or cannot be reached during an operation, or when the index finds one
 * of its keys corrupt. `cause` is the client's error. When `partial` is set, the operation was a
 * write that may have been applied in part; running it again with the same arguments is safe
 * and completes it.
 */
export class RedisIndexError extends Error {
  /** Always `'RedisIndexError'`. */
  override readonly name = 'RedisIndexError';
  /** The operation that failed, e.g. `'addMany'`. */
  readonly operation: string;
  /** Whether the failed operation was a write that may have been applied in part. */
  readonly partial: boolean;
  /** Why it failed (see {@link RedisIndexErrorKind}). */
  readonly kind: RedisIndexErrorKind;
  /** The corrupt key, for kind `'corrupt'`. */
  readonly key: string | undefined;

  constructor(operation: string, cause: unknown, partial: boolean, kind: RedisIndexErrorKind = 'failed', key?: string) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      partial
        ? `${operation} did not complete (${reason}); some of its changes may be stored: running it again with the same arguments is safe`
        : `${operation} failed (${reason})`,
      { cause },
    );
    this.operation = operation;
    this.partial = partial;
    this.kind = kind;
    this.key = key;
  }
}

/** A key of the index that holds what the index never writes. */
export class CorruptKey extends Error {
  override readonly name = 'CorruptKey';
  readonly key: string;

  /** @param problem what is wrong, completing "key K …". */
  constructor(key: string, problem: string) {
    super(`key '${key}' ${problem}: the index did not write it so; run repair() to rebuild it`);
    this.key = key;
  }
}

/** Redis gave no answer in time. */
export class NoAnswer extends Error {
  override readonly name = 'NoAnswer';
}

/** The client is closed for good. */
export class ClientClosed extends Error {
  override readonly name = 'ClientClosed';
}

/** The operation's error for `error` met in one of its steps: kind and key from its class. */
export function indexError(operation: string, error: unknown, partial: boolean): RedisIndexError {
  if (error instanceof RedisIndexError) return partial && !error.partial ? new RedisIndexError(operation, error.cause, true, error.kind, error.key) : error;
  if (error instanceof CorruptKey) return new RedisIndexError(operation, error, partial, 'corrupt', error.key);
  if (error instanceof NoAnswer) return new RedisIndexError(operation, error, partial, 'timeout');
  if (error instanceof ClientClosed) return new RedisIndexError(operation, error, partial, 'closed');
  // A script's own report of a corrupt key: "CORRUPT <key> <problem>".
  const message = error instanceof Error ? error.message : '';
  const corrupt = /CORRUPT (\S+) (.*)$/.exec(message);
  if (corrupt !== null) return indexError(operation, new CorruptKey(corrupt[1]!, corrupt[2]!), partial);
  return new RedisIndexError(operation, error, partial);
}
