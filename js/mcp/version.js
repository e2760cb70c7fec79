// version.js — the gateway's version: the npm package's, read from the
// package.json that ships beside js/ (so it never drifts from a release).

import { readFileSync } from 'node:fs';

export const VERSION = (() => {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
