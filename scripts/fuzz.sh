#!/usr/bin/env bash
# fuzz.sh — build the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang-14,
# ASan and UBSan in build/fuzz, then run each for a while.
#
#   scripts/fuzz.sh [--seconds N] [--smoke] [--jobs J] [--fresh] [TARGET...]
#   npm run fuzz -- --seconds 600
#
#   --seconds N   run each target N seconds (default 60)
#   --smoke       CI smoke run: 12 s per target (about 60 s in all), in a fresh
#                 work corpus (build/fuzz/smoke-corpus/) seeded only from the
#                 committed seeds; ends with a non-zero status on any crash,
#                 leak, timeout or OOM. The long-run corpus is left alone.
#   --jobs J      run J targets at a time (default 1; this machine has 2 cores)
#   --fresh       start the work corpus over from the committed seeds
#   TARGET        a tests/fuzz/fuzz_TARGET.c: calls, catalog, journal, learn, query,
#                 schema, snapshot, static_model (default: all)
#
# Targets read the committed seeds tests/fuzz/corpus/<target>/ and grow a
# work corpus in build/fuzz/corpus/<target>/ (ignored by git; it persists
# between runs unless --fresh). A crash, leak or timeout input is
# written to build/fuzz/artifacts/<target>/; copy it into
# tests/fuzz/corpus/<target>/ once it is fixed, so ctest replays it
# (fuzz_<target>_corpus) in every build. Per-target logs: build/fuzz/logs/.
# The last lines are a table: target, seconds, runs, exec/s, cov, ft, corpus
# size, result; the exit status is 1 if any target failed.
#
# Needs clang-14 and libFuzzer (Debian package libclang-rt-14-dev).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SECONDS_PER=60
SMOKE=0
JOBS=1
FRESH=0
TARGETS=()
# every tests/fuzz/fuzz_<name>.c, as CMake finds them: a new target cannot be
# left out of `npm run fuzz` and the smoke stage (calls once was)
ALL=()
for f in tests/fuzz/fuzz_*.c; do
  n="${f##*/fuzz_}"
  ALL+=("${n%.c}")
done
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_PER="${2:?--seconds needs a number}"; shift 2 ;;
    --seconds=*) SECONDS_PER="${1#--seconds=}"; shift ;;
    --smoke) SMOKE=1; shift ;;
    --jobs) JOBS="${2:?--jobs needs a number}"; shift 2 ;;
    --jobs=*) JOBS="${1#--jobs=}"; shift ;;
    --fresh) FRESH=1; shift ;;
    -h | --help) sed -n '2,29p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) TARGETS+=("$1"); shift ;;
  esac
done
[ "${#TARGETS[@]}" -gt 0 ] || TARGETS=("${ALL[@]}")
WORKROOT=corpus
LOGROOT=logs
ARTROOT=artifacts
if [ "$SMOKE" -eq 1 ]; then
  SECONDS_PER=12 FRESH=1 WORKROOT=smoke-corpus LOGROOT=smoke-logs ARTROOT=smoke-artifacts
fi
case "$SECONDS_PER" in '' | *[!0-9]*) echo "fuzz.sh: --seconds must be a whole number" >&2; exit 2 ;; esac
for t in "${TARGETS[@]}"; do
  [ -f "tests/fuzz/fuzz_$t.c" ] || { echo "fuzz.sh: no target $t (tests/fuzz/fuzz_$t.c)" >&2; exit 2; }
done

CC_FUZZ="${CC_FUZZ:-clang-14}"
command -v "$CC_FUZZ" >/dev/null || { echo "fuzz.sh: $CC_FUZZ not found (apt-get install clang-14)" >&2; exit 1; }
probe="$(mktemp -d)"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
if ! "$CC_FUZZ" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2>"$probe/err"; then
  cat "$probe/err" >&2
  echo "fuzz.sh: $CC_FUZZ cannot link libFuzzer; install the Debian package libclang-rt-14-dev" >&2
  rm -rf "$probe"
  exit 1
fi
rm -rf "$probe"

# Third-party sources come from bootstrap (idempotent; quiet unless it fails).
if [ ! -f third_party/cJSON-1.7.15/cJSON.c ]; then
  TSIFT_SKIP_APT="${TSIFT_SKIP_APT:-1}" bash scripts/bootstrap.sh >/dev/null
fi

B="$ROOT/build/fuzz"
mkdir -p "$B/logs" "$B/$LOGROOT"
if [ ! -f "$B/CMakeCache.txt" ]; then
  echo "fuzz: configuring build/fuzz ($CC_FUZZ, libFuzzer + ASan + UBSan)" >&2
  CC="$CC_FUZZ" cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=Release -DTSIFT_FUZZ=ON >"$B/logs/configure.log" 2>&1 ||
    { tail -n 30 "$B/logs/configure.log" >&2; exit 1; }
fi
BUILD_TARGETS=()
for t in "${TARGETS[@]}"; do BUILD_TARGETS+=(--target "fuzz_$t"); done
cmake --build "$B" -j "$(nproc 2>/dev/null || echo 2)" "${BUILD_TARGETS[@]}" >"$B/logs/build.log" 2>&1 ||
  { tail -n 40 "$B/logs/build.log" >&2; exit 1; }

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
# A reported, not yet fixed UB finding can be silenced in
# tests/fuzz/known_bugs.supp so fuzzing goes on past it (empty now);
# TSIFT_FUZZ_PAD=1 pads inputs by one byte (tests/fuzz/fuzz_common.h).
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1:suppressions=$ROOT/tests/fuzz/known_bugs.supp}"

run_target() {
  local t="$1"
  local work="$B/$WORKROOT/$t" art="$B/$ARTROOT/$t" log="$B/$LOGROOT/$t.log"
  [ "$FRESH" -eq 1 ] && rm -rf "$work"
  mkdir -p "$work" "$art"
  local rc=0
  "$B/fuzz_$t" "$work" "tests/fuzz/corpus/$t" \
    -dict=tests/fuzz/json.dict -max_total_time="$SECONDS_PER" -timeout=10 -rss_limit_mb=2048 \
    -max_len=8192 -print_final_stats=1 -artifact_prefix="$art/" >"$log" 2>&1 || rc=$?
  echo "$rc" >"$B/$LOGROOT/$t.rc"
}

echo "fuzz: ${TARGETS[*]} — ${SECONDS_PER} s each, $JOBS at a time" >&2
running=0
for t in "${TARGETS[@]}"; do
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

FAILED=0
printf '\n%-9s %7s %11s %8s %6s %7s %7s  %s\n' target seconds runs exec/s cov ft corpus result
for t in "${TARGETS[@]}"; do
  log="$B/$LOGROOT/$t.log"
  rc="$(cat "$B/$LOGROOT/$t.rc" 2>/dev/null || echo 1)"
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  eps="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
  last="$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
  corp="$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")"
  result=ok
  if [ "$rc" != 0 ]; then
    FAILED=$((FAILED + 1))
    result="FAIL (exit $rc; see build/fuzz/$LOGROOT/$t.log"
    art="$(ls -t "$B/$ARTROOT/$t" 2>/dev/null | head -n 1 || true)"
    [ -n "$art" ] && result="$result, input build/fuzz/$ARTROOT/$t/$art"
    result="$result)"
  fi
  printf '%-9s %7s %11s %8s %6s %7s %7s  %s\n' "$t" "$SECONDS_PER" "${runs:-?}" "${eps:-?}" "${cov:-?}" \
    "${ft:-?}" "${corp:-?}" "$result"
done
if [ "$FAILED" -gt 0 ]; then
  for t in "${TARGETS[@]}"; do
    if [ "$(cat "$B/$LOGROOT/$t.rc" 2>/dev/null || echo 1)" != 0 ]; then
      printf '\n--- %s (last lines of build/fuzz/%s/%s.log)\n' "$t" "$LOGROOT" "$t" >&2
      grep -v '^#[0-9]' "$B/$LOGROOT/$t.log" | tail -n 25 >&2
    fi
  done
  echo "fuzz: $FAILED target(s) failed" >&2
  exit 1
fi
echo "fuzz: ok" >&2
