// skip.mjs — how a test says it skipped something: a line "SKIP: reason" on
// stdout and, under scripts/test.sh, a line in $TOOLSIFT_SKIP_FILE, which the
// run's summary lists with the stage's name.
import { appendFileSync } from 'node:fs';

export function reportSkip(reason) {
  console.log(`SKIP: ${reason}`);
  const file = process.env.TOOLSIFT_SKIP_FILE;
  if (file) appendFileSync(file, `${process.env.TOOLSIFT_STAGE ?? '?'}: ${reason}\n`);
}
