/** Types of redis-servers.mjs, for the TypeScript tests. */

export interface RedisNode {
  readonly port: number;
  readonly dir: string;
  readonly pid: number | undefined;
  start(): Promise<void>;
  kill(): Promise<void>;
  /** Freezes the server (SIGSTOP): its connections stay open and nothing answers. */
  pause(): void;
  /** Lets a frozen server run again (SIGCONT). */
  resume(): void;
  killNow(): void;
  cli(...command: string[]): Promise<string>;
}

export declare class RedisServers {
  readonly nodes: readonly RedisNode[];
  readonly dir: string;
  readonly clustered: boolean;
  static single(): Promise<RedisServers>;
  static cluster(masters?: number, nodeTimeout?: number): Promise<RedisServers>;
  readonly url: string;
  waitHealthy(timeoutMs?: number): Promise<void>;
  masters(): Promise<RedisNode[]>;
  killAll(): Promise<void>;
  startAll(): Promise<void>;
  stop(): Promise<void>;
}
