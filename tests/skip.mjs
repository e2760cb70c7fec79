// skip.mjs — how a test says it skipped something: a line "SKIP: reason" on
// stdout (node --test shows it as "# SKIP: reason"); scripts/test.sh collects
// these lines from every stage's log into the run's summary.
export function reportSkip(reason) {
  console.log(`SKIP: ${reason}`);
}
