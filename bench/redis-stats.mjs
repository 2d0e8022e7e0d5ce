// What the Redis benchmarks read from the servers they started: CPU and memory, from INFO.

/** CPU seconds every server has used so far. @param {import('../scripts/redis-servers.mjs').RedisServers} servers */
export async function serversCpu(servers) {
  const used = await Promise.all(
    servers.nodes.map(async (node) => {
      const info = await node.cli('INFO', 'cpu');
      return Number(/used_cpu_sys:([\d.]+)/.exec(info)?.[1] ?? 0) + Number(/used_cpu_user:([\d.]+)/.exec(info)?.[1] ?? 0);
    }),
  );
  return used.reduce((a, b) => a + b, 0);
}

/** Sum of used_memory over the masters (every node of a single-server set). @param {import('../scripts/redis-servers.mjs').RedisServers} servers */
export async function mastersMemory(servers) {
  const masters = servers.clustered ? await servers.masters() : servers.nodes;
  const used = await Promise.all(masters.map(async (node) => Number(/used_memory:(\d+)/.exec(await node.cli('INFO', 'memory'))?.[1] ?? 0)));
  return used.reduce((a, b) => a + b, 0);
}
