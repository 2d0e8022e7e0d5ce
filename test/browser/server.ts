/** A static file server on 127.0.0.1 for the browser tests, with an optional CSP on every reply. */

import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  // compileStreaming accepts nothing else.
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * The strictest policy the library runs under: scripts from the page's origin only, no eval of
 * JavaScript, and `'wasm-unsafe-eval'`, without which no browser compiles WebAssembly at all.
 */
export const STRICT_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** A running server. */
export interface StaticServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly origin: string;
  close(): Promise<void>;
}

async function fileFor(mounts: Readonly<Record<string, string>>, pathname: string): Promise<string | null> {
  for (const [prefix, dir] of Object.entries(mounts)) {
    if (!pathname.startsWith(prefix)) continue;
    const path = normalize(join(dir, decodeURIComponent(pathname.slice(prefix.length))));
    // Refuse anything that climbs out of the mounted folder.
    if (path !== normalize(dir) && !path.startsWith(normalize(dir + sep))) return null;
    const info = await stat(path).catch(() => null);
    if (info?.isFile()) return path;
    if (info?.isDirectory()) return join(path, 'index.html');
  }
  return null;
}

/**
 * Serves each folder of `mounts` under its URL prefix (`{ '/': dir, '/pkg/': other }`, longest
 * prefix first), sending `csp` as the Content-Security-Policy of every reply when given.
 */
export async function serveStatic(mounts: Readonly<Record<string, string>>, csp?: string): Promise<StaticServer> {
  const ordered = Object.fromEntries(Object.entries(mounts).sort(([a], [b]) => b.length - a.length));
  const server: Server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    void fileFor(ordered, pathname)
      .then(async (path) => {
        const body = path === null ? null : await readFile(path).catch(() => null);
        const headers: Record<string, string> = { 'cache-control': 'no-store' };
        if (csp !== undefined) headers['content-security-policy'] = csp;
        if (path === null || body === null) {
          response.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('not found');
          return;
        }
        response.writeHead(200, { ...headers, 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
      })
      .catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the test server has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // A browser keeps connections open; they would hold close() back for seconds.
        server.closeAllConnections();
      }),
  };
}
