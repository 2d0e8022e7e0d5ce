/** The LSH half of MinHash: planner, index and batch searches (one module to export from). */

export { planMinHashLsh } from './minhash-plan.js';
export { MinHashLSH } from './minhash-index.js';
export { findAllMinHash, findClustersMinHash } from './minhash-find.js';
