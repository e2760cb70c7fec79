#!/usr/bin/env bash
# bootstrap.sh — make this machine able to build and test toolsift.
#
# Owns three idempotent steps; each checks first and only acts (and says what
# it does) when something is missing:
#   1. Debian packages: the native and wasm toolchains (apt-get).
#   2. Third-party sources: utf8proc and cJSON, the upstream orig tarballs from
#      Debian's source packages, fetched through a PRIVATE apt configuration
#      (the system's sources.list, lists and caches are never touched),
#      verified against scripts/deps.sha256 and unpacked into third_party/.
#   3. npm dependencies, only if package.json declares any.
# Node >= 20 is a prerequisite it checks but does not install (Debian 12
# ships 18): it is checked before step 3, so steps 1 and 2 still run and a
# missing Node comes with a clear message after them.
#
#   scripts/bootstrap.sh                  the three steps
#   scripts/bootstrap.sh --list-packages  step 1's Debian packages, one a line
#   scripts/bootstrap.sh --check-fresh    would step 1 work on a fresh Debian
#                                         12? A simulation only: see check_fresh
#
# Environment:
#   TSIFT_SKIP_APT=1          never run apt-get install (report what is missing)
#   TSIFT_DEBIAN_MIRROR=URL   mirror for the deb-src entry (default deb.debian.org)
#
# Messages (what is checked, fetched, installed) go to stderr prefixed
# "bootstrap:"; the tools' own chatter (apt-get, npm) goes to stdout, so a
# caller can send stdout to a log and still show what was installed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf 'bootstrap: %s\n' "$*" >&2; }
die() { printf 'bootstrap: ERROR: %s\n' "$*" >&2; exit 1; }

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=(sudo); fi

# ---------------------------------------------------------------------------
# 1. Debian packages
# ---------------------------------------------------------------------------
# gcc: the native build's compiler (CMake's default `cc`). A fresh Debian 12
# has no C compiler, and clang-14 installs no `cc`.
# libclang-rt-14-dev: libFuzzer and the clang sanitizer runtimes (only
# recommended by clang-14, so --no-install-recommends leaves it out); the
# sanitizer run with gcc uses libasan8/libubsan1, which clang-14 pulls in.
# libsqlite3-dev: SQLite FTS5 as a native peer in the benchmark
# (bench/native/fts5_bench.c; without it that one row is skipped).
APT_PKGS=(gcc clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32 libclang-rt-14-dev emscripten cmake make chromium libsqlite3-dev)

pkg_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

ensure_apt_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    say "not a Debian system; skipping apt (need: ${APT_PKGS[*]} or equivalents)"
    return 0
  fi
  local missing=() p
  for p in "${APT_PKGS[@]}"; do pkg_installed "$p" || missing+=("$p"); done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "${TSIFT_SKIP_APT:-0}" = 1 ]; then
    say "TSIFT_SKIP_APT=1: not installing missing packages: ${missing[*]}"
    return 0
  fi
  if [ "$(id -u)" -ne 0 ] && [ "${#SUDO[@]}" -eq 0 ]; then
    die "missing packages ${missing[*]}; run as root: apt-get install ${missing[*]}"
  fi
  say "installing apt packages: ${missing[*]}"
  # Wait for a concurrently running apt/dpkg (e.g. unattended-upgrades on a
  # fresh VM) instead of failing on its lock.
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout=600 update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
  for p in "${missing[@]}"; do
    pkg_installed "$p" || die "apt-get did not install $p"
  done
  say "installed: ${missing[*]}"
}

# --check-fresh: what step 1 would install on a fresh Debian 12, worked out by
# apt from the package lists this machine already has, without installing,
# downloading or changing anything. An empty dpkg status file stands for the
# empty disk; into it apt simulates installing Debian 12's minimal base
# (every Priority: required package: what `debootstrap --variant=minbase
# bookworm` lays down) plus APT_PKGS, with --no-install-recommends as step 1
# runs apt-get, so a name that does not exist, a dependency that does not
# resolve, or a package that only a Recommends would bring fails here.
# The lists (Dir::State::Lists) and sources are only read; everything apt
# could write (status, extended_states, caches, archives, logs) points into a
# temporary folder, and locking is off because nothing is installed.
# stdout: one line per package of the result, "NAME VERSION ROLE", ROLE being
# base (in the minimal base), named (in APT_PKGS) or dep (pulled in by them);
# tests/bootstrap/fresh-machine.sh maps the build's files onto it.
check_fresh() {
  command -v apt-get >/dev/null 2>&1 || die "--check-fresh needs apt-get (a Debian system)"
  local lists
  lists="$(apt-config shell L Dir::State::Lists/d | sed -E "s/^L='(.*)'$/\1/")"
  compgen -G "$lists*_Packages*" >/dev/null ||
    die "--check-fresh: no package lists in $lists (run apt-get update once)"
  local suites
  suites="$(cat "$lists"*Release 2>/dev/null | sed -n 's/^Codename: //p' |
    sort -u | tr '\n' ' ')"
  say "check-fresh: package lists in $lists: ${suites:-unknown}"
  local tmp
  tmp="$(mktemp -d)"
  : >"$tmp/status"
  mkdir -p "$tmp/cache/archives/partial" "$tmp/log"
  local opts=(
    -o "Dir::State::status=$tmp/status"
    -o "Dir::State::extended_states=$tmp/extended_states"
    -o "Dir::State::Lists=$lists"
    -o "Dir::Cache=$tmp/cache"
    -o "Dir::Cache::pkgcache="
    -o "Dir::Cache::srcpkgcache="
    -o "Dir::Log=$tmp/log"
    -o "Debug::NoLocking=1"
    -o "APT::Architectures=$(dpkg --print-architecture)"
    -o "APT::Install-Suggests=false"
    --simulate --no-install-recommends
  )
  # The minimal base: every Priority: required package, and usr-is-merged as
  # debootstrap chooses it (it merges /usr itself; left to choose, apt would
  # take usrmerge, the converter, and perl with it).
  local base=('?priority(required)' usr-is-merged)
  # "Inst NAME (VERSION ARCHIVE [ARCH])" lines; the base alone first, to tell
  # what the base already has from what step 1 adds.
  local base_only rc=0
  base_only="$(apt-get "${opts[@]}" install "${base[@]}" 2>&1)" || rc=$?
  if [ "$rc" -ne 0 ]; then
    rm -rf "$tmp"
    printf '%s\n' "$base_only" | tail -n 20 >&2
    die "--check-fresh: apt cannot resolve Debian's minimal base from these lists"
  fi
  local fresh
  fresh="$(apt-get "${opts[@]}" install "${base[@]}" "${APT_PKGS[@]}" 2>&1)" || rc=$?
  if [ "$rc" -ne 0 ]; then
    rm -rf "$tmp"
    printf '%s\n' "$fresh" | grep -Ev '^(Inst|Conf) ' | tail -n 30 >&2
    die "--check-fresh: apt cannot install ${APT_PKGS[*]} on a fresh Debian base"
  fi
  printf '%s\n' "$base_only" | awk '$1 == "Inst" { print $2 }' >"$tmp/base"
  printf '%s\n' "$fresh" | awk -v named="${APT_PKGS[*]}" -v basefile="$tmp/base" '
    BEGIN { n = split(named, a, " "); for (i = 1; i <= n; i++) isnamed[a[i]] = 1
            while ((getline p < basefile) > 0) isbase[p] = 1 }
    $1 == "Inst" { v = $3; sub(/^\(/, "", v)
                   role = ($2 in isnamed) ? "named" : ($2 in isbase) ? "base" : "dep"
                   print $2, v, role }'
  rm -rf "$tmp"
  local nbase nall
  nbase="$(printf '%s\n' "$base_only" | grep -c '^Inst ')"
  nall="$(printf '%s\n' "$fresh" | grep -c '^Inst ')"
  say "check-fresh: ok: a minimal Debian base is $nbase packages; step 1 (${APT_PKGS[*]}) adds $((nall - nbase)), $nall in all"
}

# ---------------------------------------------------------------------------
# 2. Third-party sources
# ---------------------------------------------------------------------------
TP="$ROOT/third_party"
DL="$TP/.download"
APTDIR="$TP/.apt"
STAMP="$TP/.deps.stamp"
PINS="$ROOT/scripts/deps.sha256"
# Directory each tarball unpacks to; CMakeLists.txt uses the same names.
TP_DIRS=(utf8proc-2.8.0 cJSON-1.7.15)

pins() { grep -Ev '^[[:space:]]*(#|$)' "$PINS"; }
pin_files() { pins | awk '{print $2}'; }

# True when every pinned tarball is in $DL with the pinned checksum.
tarballs_ok() {
  (cd "$DL" 2>/dev/null && pins | sha256sum --quiet --status -c -) 2>/dev/null
}

# The upstream orig tarballs via `apt-get source --download-only`, with a
# private sources.list, lists dir and no package caches, so the system's apt
# state is left exactly as it was.
fetch_with_apt() {
  command -v apt-get >/dev/null 2>&1 || return 1
  local mirror="${TSIFT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial" "$APTDIR/src"
  printf 'deb-src %s bookworm main\n' "$mirror" >"$APTDIR/sources.list"
  local opts=(
    -o "Dir::Etc::SourceList=$APTDIR/sources.list"
    -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$APTDIR/lists"
    -o "Dir::Cache=$APTDIR/cache"
    -o "Dir::Cache::pkgcache="
    -o "Dir::Cache::srcpkgcache="
    -o "Acquire::Languages=none"
    -o "APT::Sandbox::User=root"
    -q
  )
  local srcpkgs=() f
  for f in $(pin_files); do srcpkgs+=("${f%%_*}"); done
  say "apt-get update (private deb-src list: $APTDIR/sources.list)"
  apt-get "${opts[@]}" update || return 1
  say "apt-get source --download-only ${srcpkgs[*]}"
  (cd "$APTDIR/src" && apt-get "${opts[@]}" source --download-only "${srcpkgs[@]}") || return 1
  for f in $(pin_files); do
    [ -f "$APTDIR/src/$f" ] && mv -f "$APTDIR/src/$f" "$DL/$f"
  done
  # The private Sources index (~10 MB) is only needed for this one fetch.
  rm -rf "$APTDIR/src" "$APTDIR/lists" "$APTDIR/cache"
  return 0
}

# Fallback for hosts without apt: the same files straight from the Debian pool.
fetch_from_pool() {
  local mirror="${TSIFT_DEBIAN_MIRROR:-http://deb.debian.org/debian}" f src pfx url
  for f in $(pin_files); do
    [ -f "$DL/$f" ] && continue
    src="${f%%_*}"
    case "$src" in lib?*) pfx="${src:0:4}" ;; *) pfx="${src:0:1}" ;; esac
    url="$mirror/pool/main/$pfx/$src/$f"
    say "downloading $url"
    if command -v curl >/dev/null 2>&1; then
      curl -fsSL -o "$DL/$f.part" "$url" || return 1
    elif command -v wget >/dev/null 2>&1; then
      wget -q -O "$DL/$f.part" "$url" || return 1
    else
      return 1
    fi
    mv -f "$DL/$f.part" "$DL/$f"
  done
}

verify_tarballs() {
  local sum f actual bad=0
  while read -r sum f; do
    [ -f "$DL/$f" ] || { say "missing $f"; bad=1; continue; }
    actual="$(sha256sum "$DL/$f" | awk '{print $1}')"
    if [ "$actual" != "$sum" ]; then
      printf 'bootstrap: CHECKSUM MISMATCH for %s\n  expected %s\n  actual   %s\n' \
        "$f" "$sum" "$actual" >&2
      mv -f "$DL/$f" "$DL/$f.rejected"
      bad=1
    else
      say "verified $f sha256=$sum"
    fi
  done < <(pins)
  [ "$bad" -eq 0 ]
}

ensure_third_party() {
  local want d ok=1
  want="$(pins)"
  for d in "${TP_DIRS[@]}"; do [ -d "$TP/$d" ] || ok=0; done
  if [ "$ok" -eq 1 ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then
    return 0
  fi
  mkdir -p "$DL"
  if ! tarballs_ok; then
    say "fetching third-party sources: $(pin_files | tr '\n' ' ')"
    fetch_with_apt || say "apt-get source did not work; trying the Debian pool directly"
    tarballs_ok || fetch_from_pool || true
  fi
  verify_tarballs || die "third-party tarballs failed verification against $PINS"

  # Unpack into a scratch dir first so a failure never leaves half a tree.
  local tmp f top
  tmp="$(mktemp -d "$TP/.unpack.XXXXXX")"
  for f in $(pin_files); do tar -xzf "$DL/$f" -C "$tmp"; done
  for d in "${TP_DIRS[@]}"; do
    [ -d "$tmp/$d" ] || { rm -rf "$tmp"; die "tarballs did not contain $d/"; }
    rm -rf "${TP:?}/$d"
    mv "$tmp/$d" "$TP/$d"
    say "unpacked third_party/$d"
  done
  rm -rf "$tmp"
  printf '%s\n' "$want" >"$STAMP"
}

# ---------------------------------------------------------------------------
# 3. npm dependencies
# ---------------------------------------------------------------------------
ensure_node() {
  command -v node >/dev/null 2>&1 || die "node (>= 20) is required"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge 20 ] || die "node >= 20 required, found $(node --version)"
}

ensure_npm_deps() {
  local n
  [ -f package.json ] || return 0
  n="$(node -e 'const p=require("./package.json");
    const k=new Set([p.dependencies,p.devDependencies,p.optionalDependencies]
      .flatMap(o=>Object.keys(o||{})));
    process.stdout.write(String(k.size))')"
  [ "$n" -eq 0 ] && return 0
  local marker="node_modules/.package-lock.json"
  if [ -f "$marker" ] && [ ! package.json -nt "$marker" ] &&
    { [ ! -f package-lock.json ] || [ ! package-lock.json -nt "$marker" ]; }; then
    return 0
  fi
  # A node_modules that is a link (a second worktree sharing a checkout's)
  # is left alone: npm ci would empty the folder it points to, under the
  # checkout that owns it.
  if [ -L node_modules ]; then
    say "node_modules is a link to $(readlink node_modules): not reinstalled here (run npm ci where it lives)"
    return 0
  fi
  local cmd=(npm install --no-audit --no-fund)
  [ -f package-lock.json ] && cmd=(npm ci --no-audit --no-fund)
  say "installing npm dependencies (${cmd[*]:0:2})"
  # npm's notices go with the tools' chatter (stdout: build/logs/bootstrap.log
  # under build.sh --quiet), not to the terminal: on Node 20 they are
  # EBADENGINE warnings (ai, openai and their deps declare node >= 22; the
  # tests pass on 20) and the install-script notice for the bun, deno,
  # esbuild and workerd devDependencies. One line says how many there were;
  # on a failure the tail is shown.
  local out rc=0
  out="$(mktemp)"
  "${cmd[@]}" >"$out" 2>&1 || rc=$?
  cat "$out"
  if [ "$rc" -ne 0 ]; then
    tail -n 30 "$out" >&2
    rm -f "$out"
    die "${cmd[*]:0:2} failed (exit $rc)"
  fi
  local warnings
  warnings="$(grep -c '^npm warn' "$out" || true)"
  [ "$warnings" -gt 0 ] && say "${cmd[*]:0:2}: ok, $warnings npm warnings (EBADENGINE on Node < 22, install scripts) in its output"
  rm -f "$out"
  return 0
}

case "${1:-}" in
  "") ;;
  --list-packages) printf '%s\n' "${APT_PKGS[@]}"; exit 0 ;;
  --check-fresh) check_fresh; exit 0 ;;
  *) die "unknown argument $1 (known: --list-packages, --check-fresh)" ;;
esac

ensure_apt_packages
ensure_third_party
ensure_node
ensure_npm_deps
