// Redis servers for the tests and the benchmark: one server or a cluster on 127.0.0.1, on free
// ports, in a temporary directory, with AOF fsynced on every write. Every server is killed when
// `stop()` runs, when this process exits, and (through a watchdog shell holding a pipe from this
// process) when this process dies without running exit hooks: nothing is left running.

import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Every live server of this process, killed on exit. @type {Set<RedisNode>} */
const live = new Set();
process.on('exit', () => {
  for (const node of live) node.killNow();
});

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Pids of the processes whose parent is `pid`, from /proc (none where there is no /proc): a
 * server's AOF rewrite runs in a forked child, which outlives a SIGKILL of the server and would
 * go on writing into its directory.
 * @param {number} pid
 */
function childrenOf(pid) {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.filter((name) => {
    if (!/^\d+$/.test(name)) return false;
    try {
      // Fields after the command name, which is in parentheses and may hold spaces: state, ppid.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    } catch {
      return false;
    }
  }).map(Number);
}

/** @param {number} port @returns {Promise<boolean>} */
function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `count` consecutive ports whose cluster bus ports (+10000) are free too.
 * @param {number} count
 */
async function freePorts(count) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 20000);
    const ports = Array.from({ length: count }, (_, k) => base + k);
    const free = await Promise.all(ports.flatMap((port) => [portFree(port), portFree(port + 10000)]));
    if (free.every(Boolean)) return ports;
  }
  throw new Error(`no ${count} free ports found on 127.0.0.1`);
}

/** One redis-server process, restartable on the same port and directory. */
class RedisNode {
  /** @param {number} port @param {string} dir @param {string[]} extra */
  constructor(port, dir, extra) {
    this.port = port;
    this.dir = dir;
    this.extra = extra;
    /** @type {number | undefined} */
    this.pid = undefined;
    /** @type {import('node:child_process').ChildProcess | undefined} */
    this.watchdog = undefined;
  }

  async start() {
    const args = [
      '--port', String(this.port), '--bind', '127.0.0.1', '--protected-mode', 'no', '--daemonize', 'no',
      '--dir', this.dir, '--logfile', join(this.dir, 'redis.log'),
      '--appendonly', 'yes', '--appendfsync', 'always', '--save', '',
      '--hash-max-listpack-entries', '256',
      ...this.extra,
    ];
    // The shell starts the server, prints its pid, then waits for its stdin to close: when this
    // process dies in any way, the pipe closes and the shell kills the server.
    const watchdog = spawn('sh', ['-c', 'redis-server "$@" & echo $!; cat >/dev/null; kill -9 $! 2>/dev/null', 'sh', ...args], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.watchdog = watchdog;
    const pid = await new Promise((resolve, reject) => {
      let text = '';
      watchdog.stdout.on('data', (chunk) => {
        text += String(chunk);
        if (text.includes('\n')) resolve(Number(text.trim()));
      });
      watchdog.once('exit', () => reject(new Error(`redis-server on port ${this.port} did not start`)));
    });
    this.pid = /** @type {number} */ (pid);
    live.add(this);
    const deadline = Date.now() + 10_000;
    while ((await this.cli('PING').catch(() => '')) !== 'PONG') {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${this.port} does not answer; see ${join(this.dir, 'redis.log')}`);
      await sleep(50);
    }
  }

  /** Kills the server with SIGKILL and waits until the port is closed. */
  async kill() {
    this.killNow();
    const deadline = Date.now() + 10_000;
    while (!(await portFree(this.port))) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not die`);
      await sleep(50);
    }
  }

  /** Freezes the server (SIGSTOP): its connections stay open and nothing answers. */
  pause() {
    if (this.pid !== undefined) process.kill(this.pid, 'SIGSTOP');
  }

  /** Lets a frozen server run again (SIGCONT). */
  resume() {
    if (this.pid !== undefined) process.kill(this.pid, 'SIGCONT');
  }

  killNow() {
    if (this.pid !== undefined) {
      for (const pid of [...childrenOf(this.pid), this.pid]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
    this.watchdog?.stdin?.end();
    this.pid = undefined;
    live.delete(this);
  }

  /** Runs one redis-cli command against this server and returns its output, trimmed. @param {...string} command */
  async cli(...command) {
    const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(this.port), ...command], { timeout: 10_000 });
    return stdout.trim();
  }
}

/** A set of servers: one standalone, or a cluster of masters with replicas. */
export class RedisServers {
  /** @param {RedisNode[]} nodes @param {string} dir @param {boolean} clustered */
  constructor(nodes, dir, clustered) {
    this.nodes = nodes;
    this.dir = dir;
    this.clustered = clustered;
  }

  /** A standalone server. */
  static async single() {
    const dir = mkdtempSync(join(tmpdir(), 'simhash-redis-'));
    const [port] = await freePorts(1);
    const node = new RedisNode(/** @type {number} */ (port), dir, []);
    const servers = new RedisServers([node], dir, false);
    try {
      await node.start();
    } catch (error) {
      await servers.stop();
      throw error;
    }
    return servers;
  }

  /**
   * A cluster of `masters` masters with one replica each, failing over a master silent for
   * `nodeTimeout` ms. @param {number} [masters] @param {number} [nodeTimeout]
   */
  static async cluster(masters = 3, nodeTimeout = 1000) {
    const dir = mkdtempSync(join(tmpdir(), 'simhash-redis-cluster-'));
    const ports = await freePorts(2 * masters);
    const nodes = ports.map((port) => {
      const nodeDir = join(dir, String(port));
      mkdirSync(nodeDir);
      return new RedisNode(port, nodeDir, [
        '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(nodeTimeout),
        '--cluster-replica-validity-factor', '0', '--cluster-allow-replica-migration', 'no',
        '--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0',
      ]);
    });
    const servers = new RedisServers(nodes, dir, true);
    try {
      await Promise.all(nodes.map((node) => node.start()));
      await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes'], {
        timeout: 60_000,
      });
      await servers.waitHealthy();
    } catch (error) {
      await servers.stop();
      throw error;
    }
    return servers;
  }

  /** `redis://127.0.0.1:<port>` of the first node. */
  get url() {
    return `redis://127.0.0.1:${this.nodes[0]?.port}`;
  }

  /**
   * Waits until every running node reports the cluster ok and every replica's link to its master
   * up (a no-op for one server). @param {number} [timeoutMs]
   */
  async waitHealthy(timeoutMs = 30_000) {
    if (!this.clustered) return;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(
        this.nodes.filter((node) => node.pid !== undefined).map(async (node) => {
          const info = await node.cli('CLUSTER', 'INFO').catch(() => '');
          const replication = await node.cli('INFO', 'replication').catch(() => '');
          const ok = info.includes('cluster_state:ok');
          const linked = !replication.includes('role:slave') || replication.includes('master_link_status:up');
          return ok && linked;
        }),
      );
      if (states.every(Boolean)) return;
      if (Date.now() > deadline) throw new Error('the Redis cluster did not become healthy');
      await sleep(100);
    }
  }

  /** The nodes now serving as masters. */
  async masters() {
    const roles = await Promise.all(this.nodes.map(async (node) => (node.pid === undefined ? '' : await node.cli('ROLE').catch(() => ''))));
    return this.nodes.filter((_, k) => roles[k]?.startsWith('master'));
  }

  /** Kills every node with SIGKILL (AOF files stay). */
  async killAll() {
    await Promise.all(this.nodes.map((node) => node.kill()));
  }

  /** Starts every node that is not running, from its directory, and waits until healthy. */
  async startAll() {
    await Promise.all(this.nodes.filter((node) => node.pid === undefined).map((node) => node.start()));
    await this.waitHealthy();
  }

  /** Kills every node and deletes the directory. */
  async stop() {
    for (const node of this.nodes) node.killNow();
    await Promise.all(this.nodes.map((node) => node.kill().catch(() => undefined)));
    // A killed process's files may take a moment to close.
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
