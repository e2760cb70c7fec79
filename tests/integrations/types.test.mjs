// The adapters' .d.ts, resolved through the package's own exports
// ('toolsift/ai-sdk', 'toolsift/openai', 'toolsift/anthropic'), compile
// against the pinned SDKs' types (tsc --noEmit over types/usage.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('types: the adapters type-check against ai, openai and @anthropic-ai/sdk', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  let out = '';
  try {
    out = execFileSync(process.execPath, [tsc, '-p', 'tests/integrations/types/tsconfig.json'], { cwd: root, encoding: 'utf8' });
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  assert.equal(out.trim(), '');
});
