#!/usr/bin/env bash
# start.sh — build (quietly; details in build/build.log) and start toolsift:
# scripts/start.mjs with the given arguments, or, until that exists, one
# explained search with the native CLI over the bundled catalog.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/build.sh --quiet

if [ -f scripts/start.mjs ]; then
  exec node scripts/start.mjs "$@"
fi
exec build/native/toolsift search --catalog corpus/catalog.json --explain "create an issue"
