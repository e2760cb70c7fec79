#!/usr/bin/env bash
# fresh-machine.sh — would scripts/bootstrap.sh make a fresh Debian 12 able to
# build and test toolsift? (issue 24; docs/fresh-machine.md)
#
# Needs no network and changes nothing on the system:
#   1. `scripts/bootstrap.sh --check-fresh`: apt works out, from this
#      machine's package lists and an empty dpkg status, what the bootstrap's
#      own package list installs on top of Debian 12's minimal base, with
#      --no-install-recommends. Every name must exist and every dependency
#      resolve. As root it runs in a private mount namespace in which
#      /etc/apt, /var/lib/apt, /var/lib/dpkg, /var/cache/apt and /var/log/apt
#      are read-only, so a write there would fail the check (without root the
#      file permissions already forbid it).
#   2. Every file the build and the tests use (the table in build_files) is
#      looked up on this machine, mapped to its Debian package with dpkg -S
#      (along its symlinks: /usr/bin/cc → /etc/alternatives/cc → gcc → gcc-12),
#      and that package must be in the simulated fresh install: part of the
#      minimal base, named in the bootstrap's list, or pulled in by it.
#      A few prerequisites come before the bootstrap (ASSUMED, with reasons).
#
# SKIP (passes): no apt/dpkg, no package lists, lists not for bookworm; files
# not on this machine (bootstrap not run here) are skipped in one SKIP line.
# Prints one line per file; the last line is "fresh-machine: N passed, N
# failed, N skipped". Exit status 1 on any failure.
#
#   bash tests/bootstrap/fresh-machine.sh     (stage fresh-machine of scripts/test.sh)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BOOTSTRAP="$ROOT/scripts/bootstrap.sh"
start=$SECONDS

skip_all() { echo "SKIP: $*"; echo "fresh-machine: 0 passed, 0 failed, 1 skipped"; exit 0; }

{ command -v apt-get && command -v dpkg; } >/dev/null 2>&1 ||
  skip_all "not a Debian system (no apt-get/dpkg): the fresh Debian 12 check needs apt's package lists"
LISTS="$(apt-config shell L Dir::State::Lists/d | sed -E "s/^L='(.*)'$/\1/")"
compgen -G "$LISTS*Packages*" >/dev/null ||
  skip_all "no apt package lists in $LISTS (run apt-get update once): nothing to resolve against"
grep -qsx 'Codename: bookworm' "$LISTS"*Release ||
  skip_all "the package lists in $LISTS are not Debian 12 (bookworm): $(sed -n 's/^Codename: //p' "$LISTS"*Release | sort -u | tr '\n' ' ')"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# --- 1. the simulated fresh install -----------------------------------------
READ_ONLY_DIRS=(/etc/apt /var/lib/apt /var/lib/dpkg /var/cache/apt /var/log/apt)
check_fresh_read_only() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "read-only: not root, so the system's apt and dpkg folders are not writable"
    bash "$BOOTSTRAP" --check-fresh
  elif unshare --mount --propagation private true 2>/dev/null; then
    echo "read-only: private mount namespace, read-only: ${READ_ONLY_DIRS[*]}"
    # shellcheck disable=SC2016 # expanded by the inner shell
    unshare --mount --propagation private bash -c '
      bootstrap="$1"; shift
      for d in "$@"; do
        [ -d "$d" ] || continue
        mount --bind "$d" "$d" && mount -o remount,bind,ro "$d" || exit 90
      done
      # The namespace must really refuse writes, or the check proves nothing.
      if touch /var/lib/dpkg/.tsift-read-only-probe 2>/dev/null; then
        rm -f /var/lib/dpkg/.tsift-read-only-probe; echo "read-only mount did not hold" >&2; exit 91
      fi
      exec bash "$bootstrap" --check-fresh' bash "$BOOTSTRAP" "${READ_ONLY_DIRS[@]}"
  else
    echo "read-only: NOT enforced (root, and no mount namespace here); bootstrap --check-fresh points every apt write at a temporary folder"
    bash "$BOOTSTRAP" --check-fresh
  fi
}
rc=0
check_fresh_read_only >"$TMP/fresh" 2>"$TMP/fresh.err" || rc=$?
grep '^read-only:' "$TMP/fresh" || true
sed 's/^/  /' "$TMP/fresh.err"
if [ "$rc" -ne 0 ]; then
  echo "FAIL  the bootstrap's package list does not install on a fresh Debian 12 (exit $rc, above)"
  echo "fresh-machine: 0 passed, 1 failed, 0 skipped"
  exit 1
fi

declare -A ROLE
while read -r name _ role; do
  ROLE[$name]="$role"
done < <(grep -v '^read-only:' "$TMP/fresh")
mapfile -t NAMED < <(bash "$BOOTSTRAP" --list-packages)
count_role() { local n=0 p; for p in "${!ROLE[@]}"; do [ "${ROLE[$p]}" = "$1" ] && n=$((n + 1)); done; echo "$n"; }
echo "fresh install: ${#ROLE[@]} packages ($(count_role base) minimal base, $(count_role named) named by bootstrap, $(count_role dep) pulled in)"
PASSED=0
FAILED=0
for p in "${NAMED[@]}"; do
  if [ "${ROLE[$p]:-}" != named ]; then
    echo "FAIL  $p is in bootstrap's list but not in the simulated install"
    FAILED=$((FAILED + 1))
  fi
done

# --- 2. the files the build uses ----------------------------------------------
# build_files: "PATH<TAB>what uses it", one a line. Commands are looked up
# where Debian's packages put them (a fresh machine's PATH finds those), not
# in this machine's PATH, which may find a pyenv shim or a /usr/local build
# first: then the line says so. Compilers are asked the way the build asks
# them. A file that is not here comes out as a path that does not exist
# (skipped below).
PACKAGE_PATH=/usr/sbin:/usr/bin:/sbin:/bin
cmd() {
  local deb here why="$2"
  deb="$(PATH="$PACKAGE_PATH" command -v "$1" 2>/dev/null || echo "/usr/bin/$1")"
  here="$(command -v "$1" 2>/dev/null || true)"
  if [ "$why" = ASSUMED ]; then
    deb="${here:-$deb}" # a prerequisite is wherever this machine has it
  elif [ -n "$here" ] && [ "$here" != "$deb" ]; then
    why="$why; here PATH finds $here first"
  fi
  printf '%s\t%s\n' "$deb" "$why"
}
file() { printf '%s\t%s\n' "$1" "$2"; }
# A compiler's answer to -print-…, or a non-path when the compiler is absent.
ask() { PATH="$PACKAGE_PATH" "$@" 2>/dev/null || echo "(no answer from $1)"; }
build_files() {
  local rt arch
  arch="$(uname -m)"
  cmd cc "native build: CMake's default C compiler (build.sh, sanitize.sh)"
  file /usr/include/stdio.h "native build: C library headers"
  file "$(ask cc -print-file-name=libasan.so)" "sanitize.sh: gcc's AddressSanitizer runtime"
  file "$(ask cc -print-file-name=libubsan.so)" "sanitize.sh: gcc's UndefinedBehaviorSanitizer runtime"
  file /usr/include/sqlite3.h "bench/native/CMakeLists.txt: SQLite FTS5 peer"
  file "$(ask cc -print-file-name=libsqlite3.so)" "bench/native/CMakeLists.txt: SQLite FTS5 peer"
  cmd cmake "build.sh: every build dir"
  cmd ctest "test.sh: ctest stage, sanitize.sh"
  cmd make "CMake's Unix Makefiles generator"
  cmd nm "scripts/check-layers.mjs: symbols of the native objects"
  cmd clang-14 "cmake/wasm32-wasi.cmake, fuzz.sh"
  cmd wasm-ld-14 "cmake/wasm32-wasi.cmake: the wasm linker"
  cmd llvm-ar-14 "cmake/wasm32-wasi.cmake: LTO archives"
  cmd llvm-ranlib-14 "cmake/wasm32-wasi.cmake: LTO archives"
  file /usr/include/wasm32-wasi/stdlib.h "cmake/wasm32-wasi.cmake: wasi-libc headers"
  file /usr/lib/wasm32-wasi/libc.a "cmake/wasm32-wasi.cmake: wasi-libc"
  file "$(ask clang-14 --target=wasm32-wasi -print-libgcc-file-name)" "cmake/wasm32-wasi.cmake: compiler-rt builtins for wasm32"
  rt="$(ask clang-14 -print-runtime-dir)"
  file "$rt/libclang_rt.fuzzer-$arch.a" "fuzz.sh: libFuzzer"
  file "$rt/libclang_rt.asan-$arch.a" "fuzz.sh: clang's AddressSanitizer runtime"
  file "$rt/libclang_rt.ubsan_standalone-$arch.a" "fuzz.sh: clang's UBSan runtime"
  cmd emcc "cmake/emscripten.cmake: the wasm-emcc build"
  cmd em-config "cmake/emscripten.cmake: finds the Emscripten root"
  file /usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake "cmake/emscripten.cmake: Emscripten's CMake platform"
  file /usr/share/emscripten/cache "build.sh: Debian's prebuilt Emscripten cache"
  file /usr/share/nodejs/acorn/package.json "build.sh, cmake/emscripten.cmake: acorn for emcc's JS passes"
  cmd wasm-opt "emcc: binaryen's optimizer"
  cmd python3 "emcc runs on it"
  cmd chromium "tests/runtimes, tests/playground: headless Chromium"
  cmd gzip "scripts/gzip-size.mjs: the gzip -9 size limit"
  cmd tar "bootstrap.sh: unpacks third_party/"
  cmd sha256sum "bootstrap.sh: checks scripts/deps.sha256"
  cmd awk "bootstrap.sh, test.sh"
  cmd apt-get "bootstrap.sh: apt-get source through the private configuration"
  cmd gpgv "apt: verifies the private deb-src Release"
  file /etc/apt/trusted.gpg.d/debian-archive-bookworm-stable.asc "apt: the key for the private deb-src list (it has no Signed-By)"
  cmd node "ASSUMED"
  cmd npm "ASSUMED"
  cmd git "ASSUMED"
}
# Prerequisites that are on the machine before the bootstrap runs, and why.
declare -A ASSUMED=(
  [node]="Node >= 20 comes first: Debian 12 ships Node 18 (emscripten pulls its nodejs in), which bootstrap.sh refuses"
  [npm]="comes with the Node >= 20 install (Debian 12's nodejs has no npm)"
  [git]="the repository is cloned with it; only tests/front-door's newcomer test runs it"
)

# chain PATH: the path, then each symlink target in turn, then the real path,
# each also under its merged-/usr twin (Debian 12 packages list some files as
# /bin/…, which is /usr/bin/… on disk).
chain() {
  local p="$1" t i
  for ((i = 0; i < 12; i++)); do
    printf '%s\n' "$p"
    case "$p" in
      /usr/bin/* | /usr/sbin/* | /usr/lib/* | /usr/lib64/*) printf '%s\n' "${p#/usr}" ;;
      /bin/* | /sbin/* | /lib/* | /lib64/*) printf '%s\n' "/usr$p" ;;
    esac
    [ -L "$p" ] || break
    t="$(readlink "$p")"
    case "$t" in /*) ;; *) t="$(dirname "$p")/$t" ;; esac
    p="$(realpath -ms "$t")"
  done
  realpath -e "$1" 2>/dev/null || true
}

build_files >"$TMP/files"
MISSING=()
: >"$TMP/chains"
while IFS=$'\t' read -r path why; do
  [ -e "$path" ] || continue
  chain "$path" | awk -v k="$path" '!seen[$0]++ { print k "\t" $0 }' >>"$TMP/chains"
done <"$TMP/files"
# One dpkg -S for every path (a call reads the whole file database). Lines are
# "pkg[:arch], pkg…: /path"; diversion lines are not ownership.
cut -f2 "$TMP/chains" | sort -u | xargs -r -d '\n' dpkg -S 2>/dev/null | grep -v '^diversion ' >"$TMP/owners" || true
declare -A OWNERS
while IFS= read -r line; do
  OWNERS[${line##*: }]="$(printf '%s' "${line%: *}" | sed -E 's/:[a-z0-9]+//g; s/,//g')"
done <"$TMP/owners"

describe() { # describe PKG: "pkg (role)"
  printf '%s (%s)' "$1" "${ROLE[$1]:-not installed by a fresh bootstrap}"
}
echo
echo "files the build uses → Debian package → role in the fresh install:"
while IFS=$'\t' read -r path why; do
  name="$(basename "$path")"
  if [ ! -e "$path" ] && [ "$why" = ASSUMED ]; then
    printf 'ASSUMED %-14s not on this machine: %s\n' "$name" "${ASSUMED[$name]}"
    continue
  elif [ ! -e "$path" ]; then
    MISSING+=("$path")
    continue
  fi
  ok=1 owned=0 seen="" parts=()
  while IFS=$'\t' read -r _ p; do
    owners="${OWNERS[$p]:-}"
    [ -n "$owners" ] || continue
    owned=1
    any=0
    for o in $owners; do
      [[ " $seen " == *" $o "* ]] && { any=1; continue; }
      seen="$seen $o"
      parts+=("$(describe "$o")")
      [ -n "${ROLE[$o]:-}" ] && any=1
    done
    [ "$any" -eq 1 ] || ok=0
  done < <(awk -F'\t' -v k="$path" '$1 == k' "$TMP/chains")
  real="$(realpath -e "$path")"
  shown="$path"
  [ "$real" != "$path" ] && shown="$path -> $real"
  if [ "$why" = ASSUMED ]; then
    ver=""
    for o in $seen; do ver="$ver $o $(dpkg-query -W -f='${Version}' "$o" 2>/dev/null)"; done
    printf 'ASSUMED %-14s %s (here:%s): %s\n' "$name" "$shown" "${ver:- no package}" "${ASSUMED[$name]}"
    continue
  fi
  list="${parts[0]:-}"
  for o in "${parts[@]:1}"; do list="$list, $o"; done
  if [ "$owned" -eq 0 ]; then
    printf 'FAIL  %-14s %s: no Debian package owns it, so a fresh bootstrap would not have it [%s]\n' "$name" "$shown" "$why"
    FAILED=$((FAILED + 1))
  elif [ "$ok" -eq 0 ]; then
    printf 'FAIL  %-14s %s: %s — not in the fresh install [%s]\n' "$name" "$shown" "$list" "$why"
    FAILED=$((FAILED + 1))
  else
    printf 'ok    %-14s %s: %s [%s]\n' "$name" "$shown" "$list" "$why"
    PASSED=$((PASSED + 1))
  fi
done <"$TMP/files"

SKIPPED=0
if [ "${#MISSING[@]}" -gt 0 ]; then
  SKIPPED=1
  echo "SKIP: ${#MISSING[@]} files the build uses are not on this machine, so they cannot be mapped to packages (run scripts/bootstrap.sh here first): ${MISSING[*]}"
fi
echo "fresh-machine: $PASSED passed, $FAILED failed, $SKIPPED skipped ($((SECONDS - start)) s)"
[ "$FAILED" -eq 0 ]
