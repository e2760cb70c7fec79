#!/usr/bin/env bash
# start.sh — `npm start`: build if needed (quietly; details in build/logs/),
# then serve the playground on 127.0.0.1 and print its URL
# (scripts/start.mjs; arguments are passed on, e.g. --port 9000).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/build.sh --quiet

exec node scripts/start.mjs "$@"
