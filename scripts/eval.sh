#!/usr/bin/env bash
# eval.sh — `npm run eval`: relevance of toolsift beside plain BM25 on our
# corpus (with its gates) and, when ../shared is present, on the public
# development sets and our graded MCP set (corpus/mcp). Exits non-zero when a
# gate fails. Extra arguments (e.g. --json) go to every `toolsift eval`,
# except `--vectors DIR`: a folder of a model's vectors, one JSON Lines file
# per set (corpus.jsonl, toollens.jsonl, metatool.jsonl, sealtools.jsonl,
# mcp.jsonl; docs/relevance.md, "Measuring a model"); each set with a file is
# evaluated with its vectors (gates still apply), the others without.
# `--model DIR` (a static model) goes to every eval: each set's tools and
# queries are embedded with it (docs/relevance.md, "Measuring a model").
# Learning (docs/learning.md) is measured on every gated set: `--learn`
# (5-fold: each fold's vocabulary learned from the simulated runs of the
# other folds' queries) beside no learning, with the gates' "learned"
# floors; MetaTool and ToolLens again with 20 % noisy runs. With --vectors
# or --model, no learning (it measures the catalog alone).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/build.sh --quiet >/dev/null || { echo "eval: build failed" >&2; exit 1; }
BIN=build/native/toolsift
rc=0
VECTORS_DIR=""
ARGS=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--vectors" ] && [ $# -ge 2 ]; then
    VECTORS_DIR="$2"
    shift 2
  else
    ARGS+=("$1")
    shift
  fi
done
set -- ${ARGS[@]+"${ARGS[@]}"}
LEARN=(--learn)
if [ -n "$VECTORS_DIR" ]; then LEARN=(); fi
for a in "$@"; do [ "$a" = "--model" ] && LEARN=(); done
if [ -n "$VECTORS_DIR" ] && [ ! -d "$VECTORS_DIR" ]; then
  echo "eval: --vectors $VECTORS_DIR: not a folder (one SET.jsonl per set)" >&2
  exit 2
fi
# vecs SET: the --vectors arguments for a set that has a file, else none
vecs() {
  if [ -n "$VECTORS_DIR" ] && [ -f "$VECTORS_DIR/$1.jsonl" ]; then
    echo "--vectors $VECTORS_DIR/$1.jsonl"
  elif [ -n "$VECTORS_DIR" ]; then
    echo "eval: no $VECTORS_DIR/$1.jsonl: $1 without vectors" >&2
  fi
}
if [ -f corpus/queries.jsonl ]; then
  # shellcheck disable=SC2046
  "$BIN" eval --corpus corpus --loop ${LEARN[@]+"${LEARN[@]}"} $(vecs corpus) "$@" || rc=1
  # The same corpus with the confidence rule on (docs/relevance.md): no-match
  # accuracy and nDCG measured together, floors in corpus/gates-confidence.json.
  echo
  echo "corpus with the confidence rule {\"minCoverage\":0.5}:"
  "$BIN" eval --corpus corpus --options '{"ids":"lenient","minCoverage":0.5}' \
    --gates corpus/gates-confidence.json "$@" || rc=1
else
  echo "SKIP: eval: corpus/queries.jsonl not present yet; the corpus"
fi
# The public development sets: ../shared/datasets (CI's copy, with the floors
# of corpus/dev-gates), else datasets/ as `npm run datasets` writes it (from
# the sets' repositories; its ToolLens queries are the whole train split, not
# the 2,000 sampled in ../shared, so the floors are not applied there).
SHARED="$ROOT/../shared/datasets"
GATES_DIR="${GATES_DIR:-$ROOT/corpus/dev-gates}"
if [ ! -d "$SHARED" ] && [ -d "$ROOT/datasets" ]; then
  SHARED="$ROOT/datasets"
  GATES_DIR=""
  echo "eval: the public sets from datasets/ (npm run datasets); no floors applied"
fi
if [ -d "$SHARED" ]; then
  for set in toollens metatool sealtools; do
    [ -f "$SHARED/$set/tools.jsonl" ] || continue
    if [ ! -f "$SHARED/$set/queries_dev.jsonl" ]; then
      echo "SKIP: eval: $set has no development queries in $SHARED/$set (docs/datasets.md)"
      continue
    fi
    echo
    # shellcheck disable=SC2046
    "$BIN" eval --catalog "$SHARED/$set/tools.jsonl" --queries "$SHARED/$set/queries_dev.jsonl" --loop \
      ${LEARN[@]+"${LEARN[@]}"} ${GATES_DIR:+--gates "$GATES_DIR/$set.json"} $(vecs "$set") "$@" || rc=1
    # The gains must survive noise: 20 % of the simulated runs call a wrong
    # tool (a quarter of them one abusive client repeating one request).
    if [ ${#LEARN[@]} -gt 0 ] && [ -f "${GATES_DIR:-/nonexistent}/$set-noise.json" ]; then
      echo
      echo "$set, learning from runs of which 20 % are noisy:"
      "$BIN" eval --catalog "$SHARED/$set/tools.jsonl" --queries "$SHARED/$set/queries_dev.jsonl" --learn \
        --noise 0.2 --gates "$GATES_DIR/$set-noise.json" "$@" || rc=1
    fi
  done
else
  echo "SKIP: eval: the public development sets (neither ../shared/datasets nor datasets/ is present; npm run datasets fetches them)"
fi
# Our hand-graded queries over the real MCP catalog (corpus/mcp/README.md),
# with the floors of corpus/mcp/gates.json; skipped when
# ../shared/catalogs/all.json is absent.
MCP_CATALOG="$ROOT/../shared/catalogs/all.json"
if [ -f "$MCP_CATALOG" ] && [ -f corpus/mcp/queries.jsonl ]; then
  echo
  # shellcheck disable=SC2046
  "$BIN" eval --catalog "$MCP_CATALOG" --queries corpus/mcp/queries.jsonl --loop ${LEARN[@]+"${LEARN[@]}"} \
    --gates corpus/mcp/gates.json $(vecs mcp) "$@" || rc=1
else
  echo "SKIP: eval: corpus/mcp and its gates (../shared/catalogs/all.json not present)"
fi
exit $rc
