// lifecycle.test.mjs — the gateway's processes end with it (issue 33): the
// bin started three ways — directly (`node js/mcp/cli.js`), under a shell
// wrapper (`sh -c 'node …'`, which does not pass signals on) and under
// `npm exec toolsift-mcp` in the checkout (npm, a shell, node) — in front
// of a stdio upstream that leaves a helper process of its own, then ended
// three ways: SIGTERM to the outermost process, SIGINT to its process group
// (a terminal's Ctrl-C), its stdin closed; and a shell wrapper killed with
// SIGKILL while the client keeps the gateway's input open (its parent died). After each, no process recorded
// under the outermost one (by pid and start time, from /proc) is alive:
// not the gateway, not the wrappers, not the upstream nor its helper
// (lifecycle.mjs). The install stage runs the same cases under `npx
// toolsift-mcp` from the packed package (tests/install).

import { test } from 'node:test';
import { CLI, ROOT, tempDir } from './helpers.mjs';
import { ENDS, PARENT_KILLED, lifecycleCase, lifecycleConfig, unsupported } from './lifecycle.mjs';
import { reportSkip } from '../skip.mjs';

const why = unsupported();
if (why) reportSkip(why);

const env = { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false' };
const WAYS = {
  direct: (config) => [process.execPath, [CLI, '--config', config]],
  'sh -c': (config) => ['sh', ['-c', '"$0" "$1" --config "$2"', process.execPath, CLI, config]],
  'npm exec (checkout)': (config) => ['npm', ['exec', '--', 'toolsift-mcp', '--config', config]],
};

for (const [way, command] of Object.entries(WAYS)) {
  for (const end of Object.keys(ENDS)) {
    test(`${way}, ended by ${end}: no process it started survives`, { skip: why ?? false }, async (t) => {
      const [cmd, args] = command(lifecycleConfig(tempDir(t)));
      await lifecycleCase(t, { command: cmd, args, cwd: ROOT, env, end });
    });
  }
}

// A wrapper killed outright while the client still holds the gateway's
// stdin open (the gateway reads fd 3 of the wrapper): only the gateway's
// watch on its parent ends it, and it must end its upstream's group too.
for (const end of Object.keys(PARENT_KILLED)) {
  test(`sh -c with the client on fd 3, ${end}: no process it started survives`, { skip: why ?? false }, async (t) => {
    const config = lifecycleConfig(tempDir(t));
    const args = ['-c', '"$0" "$1" --config "$2" <&3', process.execPath, CLI, config];
    await lifecycleCase(t, { command: 'sh', args, cwd: ROOT, env, end, input: 3 });
  });
}
