// pack.mjs — `npm pack` the repository and install the tarball into an empty
// project. The tarball's dependencies (the MCP SDK for toolsift-mcp) come from
// the npm cache that `npm ci` filled where it can (--prefer-offline): npm ci
// caches the tarballs but not always the registry metadata an install by
// version needs, so a machine whose cache lacks it fetches that from the
// registry instead of failing (seen on a machine whose node_modules came
// from an earlier session).

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const npm = (args, cwd) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Pack `root` into `dir`: { tarball (path), size (bytes), files ([paths]) }. */
export function pack(root, dir) {
  mkdirSync(dir, { recursive: true });
  const [info] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], root));
  return { tarball: path.join(dir, info.filename), size: info.size, files: info.files.map((f) => f.path) };
}

/** An empty ESM project at `dir` with `tarball` installed; returns `dir`. */
export function installInto(tarball, dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'toolsift-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], dir);
  return dir;
}
