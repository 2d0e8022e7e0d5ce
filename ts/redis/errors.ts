/** The error of a Redis-backed index operation that Redis did not complete. */

/**
 * Thrown when Redis fails or cannot be reached during an operation. `cause` is the client's
 * error. When `partial` is set, the operation was a write that may have been applied in part;
 * running it again with the same arguments is safe and completes it.
 */
export class RedisIndexError extends Error {
  /** Always `'RedisIndexError'`. */
  override readonly name = 'RedisIndexError';
  /** The operation that failed, e.g. `'addMany'`. */
  readonly operation: string;
  /** Whether the failed operation was a write that may have been applied in part. */
  readonly partial: boolean;

  constructor(operation: string, cause: unknown, partial: boolean) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      partial
        ? `${operation} did not complete (${reason}); some of its changes may be stored: running it again with the same arguments is safe`
        : `${operation} failed (${reason})`,
      { cause },
    );
    this.operation = operation;
    this.partial = partial;
  }
}
