#!/usr/bin/env node
// start.mjs — serve the playground (playground/) on 127.0.0.1 and print its
// URL. A tiny static server with no dependencies and no server-side logic:
// it serves only what the page loads — playground/, js/toolsift.js and
// js/binding/, build/wasm/toolsift.wasm and corpus/catalog.json — read from
// disk on every request. `npm start` (scripts/start.sh) builds first.
//
// Usage: node scripts/start.mjs [--port N]
//   --port N   the port to try first (default 8420, env PORT); when it is
//              taken the next ones are tried, then any free port
// It binds 127.0.0.1 only: the page is for the person at this machine.
// Stop it with Ctrl-C.

import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const DEFAULT_PORT = 8420;

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

// What the page may load: folders (every file under them) and single files.
const ALLOWED_DIRS = ['playground/', 'js/binding/'];
const ALLOWED_FILES = ['js/toolsift.js', 'build/wasm/toolsift.wasm', 'corpus/catalog.json'];

function resolve(root, urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath).replace(/^\/+/, '');
  } catch {
    return null;
  }
  if (rel === '' || rel === 'playground') return { redirect: '/playground/' };
  if (rel.endsWith('/')) rel += 'index.html';
  const norm = path.posix.normalize(rel);
  if (norm.startsWith('..') || norm.includes('\0')) return null;
  const ok = ALLOWED_FILES.includes(norm) || ALLOWED_DIRS.some((d) => norm.startsWith(d));
  if (!ok) return null;
  const file = path.join(root, norm);
  if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return null;
  return { file };
}

/**
 * Start the server: { url, port, close() }. Tries `port`, then the next 9,
 * then an ephemeral port (port 0 asks for an ephemeral one directly).
 */
export async function serve({ port = DEFAULT_PORT, host = '127.0.0.1', root = ROOT } = {}) {
  const server = createServer((req, res) => {
    const found = resolve(root, new URL(req.url, 'http://x').pathname);
    if (found?.redirect) {
      res.writeHead(302, { location: found.redirect }).end();
      return;
    }
    if (!found || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    let body;
    try {
      body = readFileSync(found.file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(found.file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  const tries = port === 0 ? [0] : [...Array.from({ length: 10 }, (_, i) => port + i), 0];
  for (const p of tries) {
    const ok = await new Promise((done, fail) => {
      const onError = (e) => {
        server.off('listening', onListen);
        if (e.code === 'EADDRINUSE' || e.code === 'EACCES') done(false);
        else fail(e);
      };
      const onListen = () => {
        server.off('error', onError);
        done(true);
      };
      server.once('error', onError);
      server.once('listening', onListen);
      server.listen(p, host);
    });
    if (ok) break;
  }
  const actual = server.address().port;
  return {
    port: actual,
    url: `http://${host}:${actual}/playground/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function parseArgs(argv) {
  const out = { port: Number(process.env.PORT) || DEFAULT_PORT };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') out.port = Number(argv[++i]);
    else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/start.mjs [--port N]');
      process.exit(0);
    } else {
      console.error(`start: unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(out.port) || out.port < 0 || out.port > 65535) {
    console.error('start: --port must be an integer from 0 to 65535');
    process.exit(2);
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = parseArgs(process.argv.slice(2));
  const wasm = path.join(ROOT, 'build/wasm/toolsift.wasm');
  if (!existsSync(wasm)) {
    console.error('start: build/wasm/toolsift.wasm is missing: run `npm run build` (npm start builds it)');
    process.exit(1);
  }
  const { url, port } = await serve(args);
  if (args.port && port !== args.port) console.log(`start: port ${args.port} is taken, using ${port}`);
  console.log(`toolsift playground: ${url}`);
  console.log('  bundled catalog and example journals preloaded; Ctrl-C to stop');
  const stop = () => process.exit(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
