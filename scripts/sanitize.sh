#!/usr/bin/env bash
# sanitize.sh — the whole C suite under AddressSanitizer, UndefinedBehavior-
# Sanitizer and LeakSanitizer: configures build/sanitize with
# -DTSIFT_SANITIZE=ON (the default compiler, RelWithDebInfo), builds it and
# runs ctest there. Any ASan report, leak or UB stops the test that hit it.
#
#   scripts/sanitize.sh [ctest arguments…]      e.g. -L limits, -R test_scale, -L fuzz-corpus
#   npm run test:sanitize
#
# Environment: CC (default: cc), JOBS (default nproc), TSIFT_TIME_SCALE
# (default 20: the time bounds of the `limits` tests — tests/c/bounds.h — are
# multiplied by it. Sanitized code runs several times slower, and on a shared
# 2-core machine they run beside test_snapshot: test_scale's 10k-line rank
# over 100k tools took 95.6 s there, 5.9 s natively. A quadratic regression
# still overshoots by far.)
# Logs: build/logs/sanitize-build.log.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
B="$ROOT/build/sanitize"
mkdir -p "$ROOT/build/logs"
LOG="$ROOT/build/logs/sanitize-build.log"
start=$(date +%s)
# No `cc` (a machine with only bootstrap's clang-14): use clang-14, whose
# sanitizer runtimes come from libclang-rt-14-dev.
if [ -z "${CC:-}" ] && ! command -v cc >/dev/null 2>&1 && command -v clang-14 >/dev/null 2>&1; then
  export CC=clang-14
fi

if [ ! -f third_party/cJSON-1.7.15/cJSON.c ]; then
  bash scripts/bootstrap.sh >/dev/null
fi
: >"$LOG"
if [ ! -f "$B/CMakeCache.txt" ]; then
  echo "sanitize: configuring build/sanitize (ASan + UBSan + LSan)" >&2
  cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTSIFT_SANITIZE=ON >>"$LOG" 2>&1 ||
    { tail -n 30 "$LOG" >&2; exit 1; }
fi
cmake --build "$B" -j "$JOBS" >>"$LOG" 2>&1 || { tail -n 40 "$LOG" >&2; exit 1; }
built=$(date +%s)

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-}"
export TSIFT_TIME_SCALE="${TSIFT_TIME_SCALE:-20}"
rc=0
ctest --test-dir "$B" --output-on-failure -j "$JOBS" "$@" || rc=$?
end=$(date +%s)
echo "sanitize: build $((built - start)) s, ctest $((end - built)) s (ASAN_OPTIONS=$ASAN_OPTIONS)" >&2
exit "$rc"
