// transpile.mjs — turn build/component/toolsift.component.wasm into ESM with
// jco transpile, the way a JavaScript component host would.
//
//   transpileComponent(outDir)                          import-time instantiation
//   transpileComponent(outDir, { instantiation: 'async' })  exports instantiate()
// Writes the generated files under outDir with a package.json of
// {"type":"module"} (the output is ESM) and returns jco's result
// ({ files, imports, exports }).

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const COMPONENT = path.join(ROOT, 'build/component/toolsift.component.wasm');

export async function transpileComponent(outDir, { instantiation } = {}) {
  if (!existsSync(COMPONENT)) {
    throw new Error(`${path.relative(ROOT, COMPONENT)} was not built (scripts/build.sh runs scripts/build-component.mjs)`);
  }
  const { transpile } = await import('@bytecodealliance/jco');
  const result = await transpile(readFileSync(COMPONENT), {
    name: 'toolsift',
    ...(instantiation ? { instantiation } : {}),
  });
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'package.json'), '{"type":"module"}\n');
  for (const [name, bytes] of Object.entries(result.files)) {
    const file = path.join(outDir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
  }
  return result;
}
