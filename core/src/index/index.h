/* index.h — the index (SPEC S4): the search documents as term ids, the
 * dictionary, the postings, the exact-match sequences and the statistics
 * BM25F needs; shared by the ranker (rank.h), snapshots and sessions.
 * Internal to the core. */
#ifndef TSIFT_INDEX_H
#define TSIFT_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/hash.h"
#include "catalog/catalog.h"
#include "catalog/tool_text.h"
#include "text/text.h"
#include "text/textpack.h"
#include "toolsift.h"

#define TSIFT_TF_CLAMP 2
#define TSIFT_SEARCH_MAX_LIMIT 1000
/* The confidence rule's floor (option "minCoverage"; 0 = off, see tsift_rank). */
#define TSIFT_DEFAULT_MIN_COVERAGE 0.0

/* Default field weights (SPEC S4; the schema weights are chosen on the
 * corpus). An index may override them with the "weights" build option. */
extern const double tsift_default_field_weights[TSIFT_FIELD_COUNT];

/* One posting: a doc and its clamped term frequency in each field, two bits
 * per field (0..TSIFT_TF_CLAMP), field f at bits 2f..2f+1 of tfs; 4 bytes,
 * so a doc number has 20 bits and an index at most TSIFT_MAX_TOOLS tools
 * (the build and a snapshot load refuse more, TSIFT_E_LIMIT). Snapshots
 * store a posting as its doc's gap and its tfs pattern (snapshot.c), not
 * this layout, so the layout is no format. */
#define TSIFT_MAX_TOOLS (1u << 20)
typedef struct tsift_posting {
  uint32_t bits; /* doc << 12 | tfs: postings of one term sort as their bits */
} tsift_posting;
_Static_assert(TSIFT_FIELD_COUNT * 2 <= 12 && TSIFT_MAX_TOOLS <= (1u << 20), "a posting is 32 bits");

static inline uint32_t tsift_posting_doc(const tsift_posting *p) { return p->bits >> 12; }
static inline unsigned tsift_posting_tfs(const tsift_posting *p) { return p->bits & 0xFFFu; }
static inline unsigned tsift_posting_tf(const tsift_posting *p, int f) {
  return (p->bits >> (2 * f)) & 3u;
}
/* The bits below which a posting's doc is below doc (galloping compares
 * them without taking the doc out). */
static inline uint32_t tsift_posting_key(uint32_t doc) {
  return doc < TSIFT_MAX_TOOLS ? doc << 12 : UINT32_MAX;
}

struct tsift_index {
  tsift_catalog catalog;
  size_t n; /* tools */
  uint8_t *trust;

  /* The search document of each tool (the forward index, forward.c), kept
   * as the snapshot codes it so that a loaded index reads it in place:
   * field_lens[d*F+f] is the token count of doc d's field f (at most
   * TSIFT_FIELD_TOKENS_MAX); doc d's tokens, field after field, are varint
   * term ranks at tok_bytes[tok_at[d] .. tok_at[d+1]), by_rank[r] the id of
   * rank r and rank_of[t] the rank of id t. 1.4 bytes a token instead of 4
   * (issue 23); the ranker decodes a doc's tokens only for proximity, which
   * compares ranks. tok_own: the built index's buffer (a loaded one's tokens
   * are in its blob). */
  uint8_t *field_lens;
  uint32_t *tok_at;
  const unsigned char *tok_bytes;
  unsigned char *tok_own;
  uint32_t *by_rank, *rank_of;
  /* Exact-match sequences (at most TSIFT_SEQ_TOKENS_MAX tokens each), coded
   * as snapshots store them and read through forward.c: doc d's at
   * seq_bytes[seq_at[d] ..): v count, v rank each (its name), then v 0 when
   * its id's is the same, else v count + 1, v rank each. seq_own: the built
   * index's buffer. */
  uint32_t *seq_at;
  const unsigned char *seq_bytes;
  unsigned char *seq_own;

  /* Term dictionary: the terms' bytes and their hash table (hash.h). */
  char *term_bytes;
  size_t term_bytes_len, term_bytes_cap;
  uint32_t *term_off;
  uint8_t *term_len;
  size_t nterms, terms_cap;
  tsift_hash term_hash;
  /* The term ids by first byte, then id: the terms starting
   * with byte c are by_letter[letter_off[c] .. letter_off[c + 1]) (step_typo.c
   * scans only those of the right first letter and length). Derived at build
   * and load, never stored. */
  uint32_t *by_letter;
  uint32_t letter_off[257];

  /* Postings, sorted by doc within each term. */
  uint32_t *post_off; /* nterms + 1 */
  tsift_posting *post;

  uint64_t field_len_sum[TSIFT_FIELD_COUNT];
  /* Documents whose field f has at least one token (derived from field_lens by
   * tsift_index_count_fields; not stored in snapshots). */
  uint64_t field_docs[TSIFT_FIELD_COUNT];
  double weights[TSIFT_FIELD_COUNT];
  /* Derived at build and load for the pruned ranker (step_prune.c), never stored
   * (tsift_index_derive). Without them (a hand-made index) the ranker
   * scores every candidate, with the same results.
   * - scoring_avg_len: the average field lengths the tables are for (the
   *   whole catalog's, tsift_stats_fit(ix, NULL));
   * - len_norm_w (F x TSIFT_NORM_ROW): weights[f] / norm of a field f of
   *   len tokens at [f * TSIFT_NORM_ROW + len] under them, the BM25F length
   *   normalisation of tsift_posting_tfn for tf = 1 (tf = 2 is twice it,
   *   exactly); 0 when the field's average is 0. By length, not by doc: a
   *   field has at most TSIFT_FIELD_TOKENS_MAX tokens, so 6 KiB instead of
   *   48 bytes a tool;
   * - term_max_tfn (nterms): the largest tfn of the term's postings, each
   *   filled the first time a query needs it (bm25f.h tsift_term_max_tfn);
   * - exact_head (exact_nbuckets, a power of two) and exact_next (2n): the
   *   docs by the hash of their name and id sequences (tsift_seq_hash), as
   *   chains of entries e = 2d (name) or 2d + 1 (id), stored as e + 1. */
  double scoring_avg_len[TSIFT_FIELD_COUNT];
  double *len_norm_w;
  double *term_max_tfn;
  uint32_t *exact_head;
  uint32_t *exact_next;
  size_t exact_nbuckets;
  /* The 64 terms with the most postings (ascending ids;
   * ncommon of them) and, per doc, which of them it has (bit i: common[i]):
   * the pruned ranker knows a common term absent without a lookup. */
  uint32_t common[64];
  size_t ncommon;
  uint64_t *doc_common;
  uint8_t lenient_ids; /* built with {"ids":"lenient"} */
  double min_coverage; /* confidence rule floor, 0 = off; see tsift_rank */
  tsift_stopwords stopwords;
  char fingerprint[65];
  /* The vocabulary the host annotated the catalog with (the option
   * "annotations", a learned file: docs/learning.md): the sha256 of its
   * canonical form, in the fingerprint and in journal headers, "" when
   * none; its entries for ids no tool has (skipped; not in snapshots). */
  char vocabulary[65];
  size_t vocabulary_unknown;
  /* An index loaded from a snapshot: the part of the snapshot bytes it keeps
   * (snapshot.c), in which the term bytes, the tools' ids, names, titles and
   * labels and the descriptions' and schemas' codes live, and the
   * dictionary of those codes (pack). The document,
   * dictionary and postings arrays are the index's own, as after a build.
   * NULL and empty for a built index. */
  char *blob;
  tsift_textpack pack;
  /* Embedding vectors (vectors.h): vec_dim components per tool, int8, at
   * vec_q[d * vec_dim]; vec_scale[d] their scale (0: tool d has none);
   * vec_model the model id the host named. vec_dim 0: no vectors. Not in
   * the fingerprint: a replay needs neither vectors nor model. A loaded
   * snapshot's vec_q lives in its kept blob (vec_q_in_blob: not freed). */
  uint32_t vec_dim;
  int8_t *vec_q;
  uint8_t vec_q_in_blob;
  double *vec_scale;
  char vec_model[65];
};

#define TSIFT_NORM_ROW (TSIFT_FIELD_TOKENS_MAX + 1)

/* Tokens of field f of doc d. */
static inline size_t tsift_field_len(const tsift_index *ix, uint32_t d, int f) {
  return ix->field_lens[(size_t)d * TSIFT_FIELD_COUNT + f];
}

/* The next varint of a forward-index code (checked when it was made or
 * loaded, so neither cut nor longer than 5 bytes). */
static inline uint32_t tsift_forward_next(const unsigned char **p) {
  uint32_t v = *(*p)++;
  if (v < 128) return v;
  v &= 127u;
  for (unsigned shift = 7;; shift += 7) {
    uint32_t c = *(*p)++;
    v |= (c & 127u) << shift;
    if (c < 128) return v;
  }
}

/* Readable bytes after a forward-index code, for tsift_forward_skip's reads
 * of 8 bytes at a time (their values do not matter). */
#define TSIFT_FORWARD_PAD 8

/* The high-bit mask m (0x80 in some of its eight bytes): how many bytes
 * have it. With m = ~w & 0x80…80, how many varints end in the word w. */
static inline unsigned tsift_high_bytes(uint64_t m) { return (unsigned)(((m >> 7) * 0x0101010101010101ull) >> 56); }

/* Skip n varints of a forward-index code (a byte < 128 ends one): 8 bytes a
 * step while they end fewer than n (then they are all the code's), the
 * rest byte by byte. Proximity skips the fields before the ones it scans. */
static inline const unsigned char *tsift_forward_skip(const unsigned char *p, size_t n) {
  for (;;) {
    uint64_t w;
    memcpy(&w, p, 8);
    size_t ends = tsift_high_bytes(~w & 0x8080808080808080ull);
    if (ends >= n) break;
    p += 8;
    n -= ends;
  }
  while (n)
    if (*p++ < 128) n--;
  return p;
}

/* ---- forward.c: the forward index ---- */
/* A build's documents as term ids: tokens of doc d's field f at
 * field_terms[field_off[d*F+f] .. field_off[d*F+f+1]), its name sequence at
 * seq_terms[seq_off[2d] .. seq_off[2d+1]) and its id's up to seq_off[2d+2]. */
typedef struct tsift_doc_ids {
  const uint32_t *field_off, *field_terms, *seq_off, *seq_terms;
} tsift_doc_ids;
/* The forward index and the sequences of a build: ranks by token count as
 * snapshots store them (term_ranks), field_lens, tok_at, seq_at, the codes.
 * -1 when out of memory. */
int tsift_forward_encode(tsift_index *ix, const tsift_doc_ids *docs);
/* Sequence e (2d: doc d's name, 2d + 1: its id) as term ids into out (room
 * for TSIFT_SEQ_TOKENS_MAX); the count. */
size_t tsift_seq_tokens(const tsift_index *ix, uint32_t e, uint32_t *out);
/* 1 when sequence e is q[0..nq). */
int tsift_seq_is(const tsift_index *ix, uint32_t e, const long *q, size_t nq);
/* 1 when doc d's name or id sequence is q[0..nq). */
int tsift_doc_seq_is(const tsift_index *ix, uint32_t d, const long *q, size_t nq);
/* Doc d's field f as term ids into out (room for TSIFT_FIELD_TOKENS_MAX);
 * the count. */
size_t tsift_field_tokens(const tsift_index *ix, uint32_t d, int f, uint32_t *out);
/* Fill ix->rank_of, the inverse of ix->by_rank; -1 when out of memory. */
int tsift_forward_rank_of(tsift_index *ix);

/* Fill ix->post_off and ix->post from the forward index; -1 when out of
 * memory. Two passes: count each term's documents, then place the
 * postings. */
int tsift_index_postings(tsift_index *ix);
/* Fill ix->field_docs from ix->field_lens (after a build and a snapshot load). */
void tsift_index_count_fields(tsift_index *ix);

/* ---- derive.c ---- */
/* Derive the ranker's tables (field_norm_w, term_max_tfn, the exact-match
 * chains; see above) once the documents and postings are in place; -1 when
 * out of memory. A build (index.c) and a snapshot load (snapshot.c) both
 * call it last, after tsift_dict_letters. */
int tsift_index_derive(tsift_index *ix);

/* The hash of an exact-match sequence (name or id term ids), term by term
 * from TSIFT_SEQ_HASH_SEED: FNV-1a's basis and prime over whole term ids,
 * each step folded (h ^ h >> 15) because ids are small numbers. The exact
 * chains are a multimap from this hash to docs (several tools can share a
 * name), not a table of strings, so they are not hash.h's. */
#define TSIFT_SEQ_HASH_SEED TSIFT_FNV_BASIS
static inline uint32_t tsift_seq_hash_add(uint32_t h, uint32_t term) {
  h ^= term;
  h *= 16777619u;
  return h ^ (h >> 15);
}
/* tsift_index_from_snapshot over bytes from the core's allocator, which the
 * index takes over instead of copying (also when loading fails: they are
 * freed then). For the wasm binding, which has already copied the snapshot
 * into linear memory once. */
tsift_status tsift_index_from_snapshot_take(char *bytes, size_t len, tsift_index **out, tsift_error *err);
/* tsift_index_build over a catalog already parsed with tsift_json_parse,
 * which the index takes over (also when building fails: it is freed then).
 * For a session over a catalog file: one parse, whose errors name the file. */
tsift_status tsift_index_build_tree(struct cJSON *catalog, const char *options_json, size_t options_len,
                                    tsift_index **out, tsift_error *err);

/* ---- dict.c: the term dictionary ---- */
/* Term id of s[0..n) or -1. */
long tsift_term_lookup(const tsift_index *ix, const char *s, size_t n);
/* Term id of s[0..n), adding it when new; -1 when out of memory. */
long tsift_dict_intern(tsift_index *ix, const char *s, size_t n);
/* The term hash table's first size, in slots. */
#define TSIFT_DICT_FIRST_SLOTS 1024
/* Room in the term hash table for one more term than there are (at a
 * snapshot load: the table for all of them); -1 when out of memory. */
int tsift_dict_hash(tsift_index *ix);
/* Fill ix->by_letter and ix->letter_off (a build's and a snapshot load's
 * step before tsift_index_derive); -1 when out of memory. */
int tsift_dict_letters(tsift_index *ix);

/* ---- fingerprint.c ---- */
/* The fingerprint (64 hex digits) of the documents, weights and stopwords. */
tsift_status tsift_index_fingerprint(const tsift_index *ix, char out[65], tsift_error *err);
/* Sort n doc numbers by id bytes (ids are unique); tmp has room for n. */
void tsift_sort_docs_by_id(const tsift_index *ix, uint32_t *a, uint32_t *tmp, size_t n);
/* The same by menu name (ids.c): what sessions look names up by. */
void tsift_sort_docs_by_menu_name(const tsift_index *ix, uint32_t *a, uint32_t *tmp, size_t n);
/* The doc whose menu name is `name`, in `by_name` (every doc, sorted by
 * tsift_sort_docs_by_menu_name), or -1: what sessions and learning look up. */
long tsift_find_doc_by_menu_name(const tsift_index *ix, const uint32_t *by_name, const char *name);

/* ---- describe.c ---- */
/* One-line, bounded, trust-aware description of a tool for results. */
#define TSIFT_RESULT_DESCRIPTION_CHARS 160
/* Names in search results: at most this many characters, then "…" (S12). */
#define TSIFT_RESULT_NAME_CHARS 128
/* NULL when it fails, *st saying why: TSIFT_E_NOMEM, or TSIFT_E_SNAPSHOT
 * for a loaded tool whose stored description is not a valid code. */
char *tsift_short_description(const tsift_tool *t, size_t max_chars, size_t *len, tsift_status *st);

#endif
