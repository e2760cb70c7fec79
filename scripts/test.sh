#!/usr/bin/env bash
# test.sh — build everything, then run every test stage:
#   build      scripts/build.sh (bootstrap + native + both wasm modules)
#   fresh-machine  tests/bootstrap/fresh-machine.sh: bootstrap's package list
#              resolved by apt on an empty dpkg status over Debian 12's
#              minimal base (simulated, read-only, no network), and every
#              file the build uses mapped to a package of that install
#              (docs/fresh-machine.md; about 6 s of CPU)
#   ctest      C unit tests (build/native), one executable per module or
#              concern, with the `limits` tests (pathological inputs with
#              time bounds, allocation-failure sweeps) and the fuzz corpus
#              replays
#   layers     scripts/check-layers.mjs: core/src's folders include and call
#              only downwards, no call circles between core files or
#              between the native CLI's files, no function over 120 lines
#              without a "long:" reason, docs/architecture.md names every
#              core file and wasm export
#   sanitize   the whole ctest suite again under ASan + UBSan + LeakSanitizer
#              (scripts/sanitize.sh, build/sanitize)
#   fuzz-smoke every libFuzzer target for 12 s from the committed seeds
#              (scripts/fuzz.sh --smoke, build/fuzz; ≈ 60 s + the first build)
#   js-wasi    node --test tests/js against build/wasm/toolsift.wasm
#   js-emcc    node --test tests/js against build/wasm/toolsift.emcc.wasm
#   parity     tests/parity/parity.mjs (native CLI vs wasm CLI)
#   integrations  the SDK adapters (toolsift/ai-sdk, /openai, /anthropic)
#              against the pinned ai, openai and @anthropic-ai/sdk packages:
#              scripted conversations over the SDKs' mock model or a
#              127.0.0.1 server playing recorded responses, replay from the
#              journal, and tsc over the adapters' .d.ts (tests/integrations)
#   front-door tests/front-door: the README front page (at most 150 lines, its
#              figures = bench/results/latest.json via scripts/figures.mjs,
#              links), the newcomer test (git clone of HEAD into an empty
#              folder without ../shared: the README's JS, C, CLI and first SDK
#              examples run against the built artifacts; the optional peers'
#              install messages), the adapters' .d.ts without their SDKs,
#              `npm run datasets` against a mirror served on 127.0.0.1
#   install    the README's install line done for real (tests/install): `npm
#              pack`, the tarball installed offline into an empty project
#              (the gateway's peers from the npm cache `npm ci` filled, else
#              those parts SKIP), then from there the README's JS example,
#              its CLI lines via `npx toolsift`, an adapter by subpath,
#              examples/mcp/client-config.json driven by the MCP SDK client,
#              `--http --generate-token` with the README's header, and
#              `npx toolsift-mcp` ended by SIGTERM, SIGINT and stdin with no
#              process left behind (about 15 s)
#   runtimes   the npm package packed and installed into an empty project
#              (tests/runtimes/pack.test.mjs), then the smoke scenario in Node,
#              Deno, Bun, workerd and Chromium vs the native CLI
#              (tests/runtimes/run.mjs, `npm run test:runtimes`)
#   playground the playground's logic in Node, then the page in Chromium via
#              playwright-core (`npm run test:playground`)
#   component  the WebAssembly component transpiled with jco: the runtimes
#              smoke scenario vs the native CLI, errors, resource lifetimes
#              (tests/component/component.test.mjs)
#   eval-gates relevance and the loop (what one search loads) against the
#              floors in corpus/gates.json, gates-confidence.json, and with
#              ../shared the dev sets' and corpus/mcp's (scripts/eval.sh)
#   mcp        the toolsift-mcp gateway (tests/mcp): the MCP SDK client against
#              the gateway in front of real upstream servers from npm and the
#              in-repo catalog upstream
#   bench-quick  `npm run bench:quick`: every engine on the synthetic 1k catalog
#              and the corpus (smoke run: it checks the benchmark runs, no
#              timing is asserted; results in build/bench-quick/)
# Every stage runs even when an earlier one failed (a stage whose inputs are
# missing fails). Each stage prints one line (ok/FAIL, seconds, skips); its
# output goes to build/test-logs/STAGE.log (the tail is shown when it fails;
# --verbose or TOOLSIFT_TEST_VERBOSE=1 streams it). A stage reports a skip
# with a line "SKIP: reason" (or node --test's "# SKIP"); the summary lists
# every skip with its stage. The last line is "N passed, N failed, N skipped";
# the exit status is 1 if any failed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PASSED=0
FAILED=0
REPORT=()
SKIPS=()
VERBOSE="${TOOLSIFT_TEST_VERBOSE:-0}"
for a in "$@"; do
  case "$a" in
    --verbose | -v) VERBOSE=1 ;;
    *) echo "test.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
LOGS="$ROOT/build/test-logs"
mkdir -p "$LOGS"

# stage NAME CMD… : run one stage, its output in build/test-logs/NAME.log, and
# print one line. (Commands run as an `if` condition, so a failure is
# recorded instead of ending the script.)
stage() {
  local name="$1"
  shift
  local log="$LOGS/$name.log" start=$SECONDS rc=0
  if [ "$VERBOSE" = 1 ]; then
    printf '\n=== %s\n' "$name"
    set +e
    "$@" 2>&1 | tee "$log"
    rc="${PIPESTATUS[0]}"
    set -e
  else
    if "$@" >"$log" 2>&1; then rc=0; else rc=$?; fi
  fi
  local secs=$((SECONDS - start)) skipped=()
  # "SKIP: reason" lines, and node --test's skipped tests ("ok N - name # SKIP reason")
  mapfile -t skipped < <(sed -nE -e 's/^(# )?SKIP: (.*)$/\2/p' \
    -e 's/^ *ok [0-9]+ - (.*) # SKIP ?(.*)$/\1: \2/p' "$log" | awk '!seen[$0]++')
  local s
  for s in "${skipped[@]}"; do SKIPS+=("  $name: $s"); done
  local note=""
  [ "${#skipped[@]}" -gt 0 ] && note=", ${#skipped[@]} skipped"
  if [ "$rc" -eq 0 ]; then
    PASSED=$((PASSED + 1))
    REPORT+=("  ok    $name")
    printf 'ok    %-13s %4ds%s\n' "$name" "$secs" "$note"
  else
    FAILED=$((FAILED + 1))
    REPORT+=("  FAIL  $name")
    printf 'FAIL  %-13s %4ds%s (exit %d; build/test-logs/%s.log)\n' "$name" "$secs" "$note" "$rc" "$name"
    [ "$VERBOSE" = 1 ] || tail -n 40 "$log" | sed 's/^/      | /'
  fi
}

# Test files under tests/js by node --test's own naming conventions
# (*.test.js, *-test.mjs, *_test.cjs, test-*.js, test.js), listed explicitly so
# the behaviour does not depend on how a Node version expands directories.
js_test_files() {
  [ -d tests/js ] || return 0
  find tests/js -type f \( -name '*.test.js' -o -name '*.test.mjs' -o -name '*.test.cjs' \
    -o -name '*-test.js' -o -name '*-test.mjs' -o -name '*-test.cjs' \
    -o -name '*_test.js' -o -name '*_test.mjs' -o -name '*_test.cjs' \
    -o -name 'test-*.js' -o -name 'test-*.mjs' -o -name 'test-*.cjs' \
    -o -name 'test.js' -o -name 'test.mjs' -o -name 'test.cjs' \) \
    -not -path '*/node_modules/*' | LC_ALL=C sort
}

run_ctest() {
  if [ ! -f build/native/CTestTestfile.cmake ]; then
    echo "build/native is not configured"
    return 1
  fi
  ctest --test-dir build/native --output-on-failure -j "${JOBS:-$(nproc 2>/dev/null || echo 4)}"
}

# run_js MODULE FILE… : the JS suite against one wasm module.
run_js() {
  local module="$1"
  shift
  if [ ! -f "$module" ]; then
    echo "$module was not built"
    return 1
  fi
  if [ "$#" -eq 0 ]; then
    echo "no test files in tests/js"
    return 1
  fi
  echo "TOOLSIFT_WASM=$module"
  TOOLSIFT_WASM="$module" node --test "$@"
}

stage build bash scripts/build.sh

# Would the bootstrap work on a fresh Debian 12? (issue 24, docs/fresh-machine.md)
stage fresh-machine bash tests/bootstrap/fresh-machine.sh

stage ctest run_ctest

# Hardening (issue 8, docs/reliability.md).
# The core's structure: its layers (includes and calls downwards only), no
# file-level call circles, no over-long function without a reason, the map
# in docs/architecture.md complete (scripts/check-layers.mjs).
stage layers node scripts/check-layers.mjs
stage sanitize bash scripts/sanitize.sh
stage fuzz-smoke bash scripts/fuzz.sh --smoke

mapfile -t JS_FILES < <(js_test_files)
stage js-wasi run_js "$ROOT/build/wasm/toolsift.wasm" "${JS_FILES[@]}"
stage js-emcc run_js "$ROOT/build/wasm/toolsift.emcc.wasm" "${JS_FILES[@]}"

stage parity env TOOLSIFT_NATIVE="$ROOT/build/native/toolsift" node tests/parity/parity.mjs

# run_integrations : the adapter tests against the clang/wasi module.
run_integrations() {
  local module="$ROOT/build/wasm/toolsift.wasm"
  if [ ! -f "$module" ]; then
    echo "$module was not built"
    return 1
  fi
  local files
  mapfile -t files < <(find tests/integrations -maxdepth 1 -type f -name '*.test.mjs' | LC_ALL=C sort)
  if [ "${#files[@]}" -eq 0 ]; then
    echo "no tests in tests/integrations"
    return 1
  fi
  TOOLSIFT_WASM="$module" node --test "${files[@]}"
}

stage integrations run_integrations

# The front door (issue 24): the README front page, a newcomer's clone of
# HEAD running its examples against the built artifacts, the adapters'
# declarations without their SDKs (tests/front-door, about 15 s).
run_front_door() {
  local files
  mapfile -t files < <(find tests/front-door -maxdepth 1 -type f -name '*.test.mjs' | LC_ALL=C sort)
  TOOLSIFT_WASM="$ROOT/build/wasm/toolsift.wasm" TOOLSIFT_NATIVE="$ROOT/build/native/toolsift" \
    TOOLSIFT_CORE_LIB="$ROOT/build/native/libtoolsift_core.a" node --test "${files[@]}"
}

stage front-door run_front_door

# The last metre (issue 33): its walk-through as a new user meets it — what
# the README's first lines tell a new user to type, offline, from an empty
# project, then the real catalog, select: by a bare name, auto mode,
# pre-search, the installed gateway over stdio and HTTP with the token file
# and its lifecycle (tests/install), and the playground's first view with its
# three example requests in Chromium (that one test of tests/playground).
run_last_metre() {
  if [ ! -f build/wasm/toolsift.wasm ]; then
    echo "build/wasm/toolsift.wasm was not built"
    return 1
  fi
  if [ ! -d node_modules/@modelcontextprotocol/sdk ]; then
    echo "node_modules/@modelcontextprotocol/sdk is missing: run npm ci"
    return 1
  fi
  local rc=0
  TOOLSIFT_NATIVE="$ROOT/build/native/toolsift" node --test --test-concurrency=1 tests/install/install.test.mjs || rc=1
  # (the playground's other tests, left out by the pattern, are not skips)
  local out
  out="$(mktemp)"
  TOOLSIFT_WASM="$ROOT/build/wasm/toolsift.wasm" node --test --test-name-pattern='^first view' \
    tests/playground/playground.test.mjs >"$out" 2>&1 || rc=1
  grep -v '# SKIP test name does not match pattern' "$out" || true
  rm -f "$out"
  return "$rc"
}

stage last-metre run_last_metre

run_runtimes() {
  local rc=0
  TOOLSIFT_NATIVE="$ROOT/build/native/toolsift" node --test tests/runtimes/pack.test.mjs || rc=1
  TOOLSIFT_NATIVE="$ROOT/build/native/toolsift" node tests/runtimes/run.mjs || rc=1
  return "$rc"
}

stage runtimes run_runtimes

run_playground() {
  TOOLSIFT_WASM="$ROOT/build/wasm/toolsift.wasm" node --test --test-concurrency=1 \
    tests/playground/model.test.mjs tests/playground/playground.test.mjs
}

stage playground run_playground

stage component env TOOLSIFT_NATIVE="$ROOT/build/native/toolsift" node --test tests/component/component.test.mjs

# Relevance and loop gates (floors measured, ratchet them up): the corpus
# (corpus/gates.json), the corpus with the confidence rule
# (gates-confidence.json), and, when ../shared is present, the public dev sets
# (corpus/dev-gates) and corpus/mcp — scripts/eval.sh, `npm run eval`.
stage eval-gates bash scripts/eval.sh

# The MCP gateway, with the official SDK client and real upstream servers
# (installed by npm ci, run offline).
run_mcp() {
  if [ ! -f build/wasm/toolsift.wasm ]; then
    echo "build/wasm/toolsift.wasm was not built"
    return 1
  fi
  if [ ! -d node_modules/@modelcontextprotocol/sdk ]; then
    echo "node_modules/@modelcontextprotocol/sdk is missing: run npm ci"
    return 1
  fi
  local files
  mapfile -t files < <(find tests/mcp -maxdepth 1 -name '*.test.mjs' | LC_ALL=C sort)
  TOOLSIFT_WASM="$ROOT/build/wasm/toolsift.wasm" node --test --test-concurrency=2 "${files[@]}"
}

stage mcp run_mcp

# Benchmark smoke run (issue 9): must run to the end; no timing assertions.
stage bench-quick node --expose-gc bench/run.mjs --quick

printf '\n=== summary\n'
printf '%s\n' "${REPORT[@]}"
if [ "${#SKIPS[@]}" -gt 0 ]; then
  echo "skipped:"
  printf '%s\n' "${SKIPS[@]}"
fi
echo "$PASSED passed, $FAILED failed, ${#SKIPS[@]} skipped (logs: build/test-logs/)"
[ "$FAILED" -eq 0 ]
