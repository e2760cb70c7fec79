#!/usr/bin/env bash
# build.sh — bootstrap, then build every target incrementally:
#   build/native     gcc/cc, Release (-O2, -ffp-contract=off): CLI + C tests
#   build/wasm-wasi  clang-14 wasm32-wasi reactor  -> build/wasm/toolsift.wasm
#                                                  and build/wasm/toolsift-serving.wasm
#                                                  (no evaluation or learning: issue 37)
#   build/wasm-emcc  emcc STANDALONE_WASM          -> build/wasm/toolsift.emcc.wasm
#   build/component  scripts/build-component.mjs   -> build/component/toolsift.component.wasm
#
# Imports of the modules (checked after every link by scripts/check-wasm.mjs,
# which fails the build on anything else and prints them with the sizes):
#   toolsift.wasm       none: WebAssembly.instantiate(module, {})
#   toolsift.emcc.wasm  env.emscripten_notify_memory_growth(memoryIndex), called
#                       after memory.grow; a no-op is enough:
#                       { env: { emscripten_notify_memory_growth() {} } }
# Both export memory and _initialize (call it once before anything else).
#
# Each build dir is configured once and then only rebuilt (CMake re-runs its
# own configure when CMakeLists.txt or the source globs change). Delete a build
# dir to start it over. All three targets are attempted even if one fails; the
# exit status is non-zero if any failed.
#
#   scripts/build.sh            full output
#   scripts/build.sh --quiet    tool output to build/logs/*.log (tail shown on failure)
#
# Environment: WASI_SDK_PREFIX (use a wasi-sdk for the wasi build), EM_CACHE,
# CMAKE_BUILD_TYPE (default Release), JOBS (default nproc).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

QUIET=0
for a in "$@"; do
  case "$a" in
    --quiet | -q) QUIET=1 ;;
    *) echo "build.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done

JOBS="${JOBS:-$(nproc 2>/dev/null || echo 4)}"
BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}"
mkdir -p "$ROOT/build/logs"
LOG="$ROOT/build/logs/bootstrap.log"

# run CMD… : show its output, or in quiet mode append it to $LOG.
run() {
  if [ "$QUIET" -eq 1 ]; then "$@" >>"$LOG" 2>&1; else "$@"; fi
}

if [ "$QUIET" -eq 1 ]; then
  : >"$LOG"
  bash scripts/bootstrap.sh >>"$LOG"
else
  bash scripts/bootstrap.sh
fi

# Emscripten: Debian's emcc needs acorn from /usr/share/nodejs (the emscripten
# toolchain file also injects this into every emcc call). Debian ships a
# prebuilt, frozen cache (/usr/share/emscripten/cache) that works read-only,
# also for non-root users; an EM_CACHE from the environment is passed through.
EMCC_ARGS=()
if [ -d /usr/share/nodejs/acorn ]; then
  export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
fi
if [ -n "${EM_CACHE:-}" ]; then
  EMCC_ARGS+=("-DTSIFT_EM_CACHE=$EM_CACHE")
fi

# build_one NAME DIR [cmake configure args…]
build_one() {
  local name="$1" dir="$2"
  shift 2
  LOG="$ROOT/build/logs/$name.log"
  [ "$QUIET" -eq 1 ] && : >"$LOG"
  if [ ! -f "$dir/Makefile" ] && [ ! -f "$dir/build.ninja" ]; then
    echo "build: configuring $name ($dir)" >&2
    run cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" "$@" &&
      run cmake --build "$dir" -j "$JOBS" && return 0
  else
    run cmake --build "$dir" -j "$JOBS" && return 0
  fi
  if [ "$QUIET" -eq 1 ]; then
    echo "build: $name failed; last lines of $LOG:" >&2
    tail -n 40 "$LOG" >&2
  fi
  return 1
}

FAILED=()
build_one native build/native || FAILED+=(native)
build_one wasm-wasi build/wasm-wasi -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/wasm32-wasi.cmake" ||
  FAILED+=(wasm-wasi)
build_one wasm-emcc build/wasm-emcc -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/emscripten.cmake" \
  ${EMCC_ARGS[@]+"${EMCC_ARGS[@]}"} || FAILED+=(wasm-emcc)

for m in build/wasm/toolsift.wasm build/wasm/toolsift-serving.wasm build/wasm/toolsift.emcc.wasm; do
  if [ -f "$m" ]; then node scripts/check-wasm.mjs "$m" --sizes-only; fi
done

# The WebAssembly component (wasm/toolsift.wit) over the wasm32-wasi core.
if [[ " ${FAILED[*]-} " != *" wasm-wasi "* ]]; then
  node scripts/build-component.mjs || FAILED+=(component)
fi

if [ "${#FAILED[@]}" -gt 0 ]; then
  echo "build: FAILED: ${FAILED[*]}" >&2
  exit 1
fi
echo "build: ok (native, wasm-wasi, wasm-emcc, component)" >&2
