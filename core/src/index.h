/* index.h — the BM25F index (SPEC S4) shared by the search front ends,
 * snapshots and sessions. Internal to the core. */
#ifndef TSIFT_INDEX_H
#define TSIFT_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "docs.h"
#include "text.h"
#include "toolsift.h"

#define TSIFT_BM25_K1 1.2
#define TSIFT_BM25_B 0.75
#define TSIFT_TF_CLAMP 2
#define TSIFT_SEARCH_MAX_LIMIT 1000
/* The confidence rule's floor (option "minCoverage"; 0 = off, see tsift_rank). */
#define TSIFT_DEFAULT_MIN_COVERAGE 0.0

/* Default field weights (SPEC S4; the schema weights are chosen on the
 * corpus). An index may override them with the "weights" build option. */
extern const double tsift_default_field_weights[TSIFT_FIELD_COUNT];

/* One posting: a doc and its clamped term frequency in each field, two bits
 * per field (0..TSIFT_TF_CLAMP), field f at bits 2f..2f+1. Packed to 6 bytes
 * because snapshots store postings as they are in memory and are read in
 * place (snapshot.c): half the 12 bytes of an aligned u32 + 6 x u8 layout,
 * and a snapshot's size is what a load copies, checksums and pages in. */
typedef struct __attribute__((packed)) tsift_posting {
  uint32_t doc;
  uint16_t tfs;
} tsift_posting;

static inline unsigned tsift_posting_tf(const tsift_posting *p, int f) {
  return ((unsigned)p->tfs >> (2 * f)) & 3u;
}

struct tsift_index {
  tsift_catalog catalog;
  size_t n; /* tools */
  uint8_t *trust;

  /* The search document of each tool as term ids, field by field:
   * tokens of doc d, field f are field_terms[field_off[d*F+f] .. field_off[d*F+f+1]). */
  uint32_t *field_off;
  uint32_t *field_terms;
  /* Exact-match sequences: name of d = seq[seq_off[2d]..seq_off[2d+1]),
   * id of d = seq[seq_off[2d+1]..seq_off[2d+2]). */
  uint32_t *seq_off;
  uint32_t *seq_terms;

  /* Term dictionary (open addressing over term ids + 1). */
  char *term_bytes;
  size_t term_bytes_len, term_bytes_cap;
  uint32_t *term_off;
  uint8_t *term_len;
  size_t nterms, terms_cap;
  uint32_t *slots;
  size_t nslots;

  /* Postings, sorted by doc within each term. */
  uint32_t *post_off; /* nterms + 1 */
  tsift_posting *post;

  uint64_t field_len_sum[TSIFT_FIELD_COUNT];
  /* Documents whose field f has at least one token (derived from field_off by
   * tsift_index_count_fields; not stored in snapshots). */
  uint64_t field_docs[TSIFT_FIELD_COUNT];
  double weights[TSIFT_FIELD_COUNT];
  uint8_t lenient_ids; /* built with {"ids":"lenient"} */
  double min_coverage; /* confidence rule floor, 0 = off; see tsift_rank */
  tsift_stopwords stopwords;
  char fingerprint[65];
  /* An index loaded from a snapshot: its own copy of the snapshot bytes, in
   * which the document, dictionary and postings arrays and the tools'
   * strings live (not freed one by one). NULL for a built index. */
  char *blob;
};

/* Fill ix->field_docs from ix->field_off (after a build and a snapshot load). */
void tsift_index_count_fields(tsift_index *ix);
/* tsift_index_from_snapshot over bytes from the core's allocator, which the
 * index takes over instead of copying (also when loading fails: they are
 * freed then). For the wasm binding, which has already copied the snapshot
 * into linear memory once. */
tsift_status tsift_index_from_snapshot_take(char *bytes, size_t len, tsift_index **out, tsift_error *err);

/* Rebuild the term hash table with `nslots` (a power of two) slots. */
int tsift_index_rehash(tsift_index *ix, size_t nslots);
/* The fingerprint (64 hex digits) of the documents, weights and stopwords. */
tsift_status tsift_index_fingerprint(const tsift_index *ix, char out[65], tsift_error *err);

/* Statistics of the authorised universe (SPEC S6). allowed == NULL: all.
 * avg_len[f] is the average length of field f over the documents of the
 * universe that have the field (at least one token), as Lucene's BM25 does:
 * an empty field has no length to normalise against (docs/relevance.md). */
typedef struct tsift_stats {
  const uint8_t *allowed;
  double n;
  double avg_len[TSIFT_FIELD_COUNT];
} tsift_stats;

void tsift_stats_fit(const tsift_index *ix, const uint8_t *allowed, tsift_stats *st);

typedef struct tsift_scored {
  uint32_t doc;
  uint8_t exact;
  double score;
} tsift_scored;

/* What became of each query term in a ranking. */
enum {
  TSIFT_TERM_UNMATCHED = 0, /* no document of the universe has it */
  TSIFT_TERM_USED = 1,      /* scored */
  TSIFT_TERM_CAPPED = 2     /* matched, but beyond the 16 rarest terms */
};

/*
 * Rank `q` over the universe of `stats`, never returning docs with
 * excluded[d] set (they still count in the statistics). Writes at most k hits
 * best first into out (capacity k). When a query has more than
 * TSIFT_QUERY_MAX_TERMS matching terms, 16 are scored: terms some tool has in
 * its name, then other terms, then value-like ones (q->term_weak), the rarest
 * (smallest df) first within each, then the earliest. With ix->min_coverage
 * > 0 the result is empty unless the best hit is confident (docs/relevance.md).
 * The fate of each term goes to term_state[i] (may be NULL; q->terms.count
 * entries).
 */
tsift_status tsift_rank(const tsift_index *ix, const tsift_query *q, const tsift_stats *stats,
                        const uint8_t *excluded, size_t k, tsift_scored *out, size_t *nout,
                        uint8_t *term_state, tsift_error *err);

/*
 * Diversity (docs/relevance.md): a request of two or more sentences with at
 * least TSIFT_DIVERSIFY_MIN_TERMS scored terms usually asks for several
 * things, so its hits are picked greedily: each next hit is the one with the
 * highest score after every term's contribution is halved once for each hit
 * already picked that matched the term (at most TSIFT_DIVERSIFY_MAX_HALVINGS
 * times). That score is the one reported. Other queries rank by BM25F alone.
 */
#define TSIFT_DIVERSIFY_MIN_SENTENCES 2
#define TSIFT_DIVERSIFY_MIN_TERMS 13
#define TSIFT_DIVERSIFY_MAX_HALVINGS 32
/* 1 when tsift_rank diversified the hits of q (term_state as it wrote it). */
int tsift_rank_diversifies(const tsift_query *q, const uint8_t *term_state);
/* The factor of a term's contribution after `covered` earlier hits matched it. */
double tsift_diversity_factor(uint32_t covered);

/*
 * Proximity (docs/relevance.md): two consecutive scored terms of the query
 * (in query order, `ip address`) that a tool has close together in one field
 * (the second at most TSIFT_PROXIMITY_WINDOW tokens after the first) add
 * TSIFT_PROXIMITY_WEIGHT x the smaller idf of the two x the smaller of their
 * query-term weights (TSIFT_SOFT_WEIGHT for a soft term) to its score, once
 * per pair. Capped and unmatched terms are passed over; a term scored only
 * through an expansion breaks the chain; expansions (vocab.h) do not pair.
 */
#define TSIFT_PROXIMITY_WINDOW 3
#define TSIFT_PROXIMITY_WEIGHT 0.75

typedef struct tsift_qpair {
  uint32_t a, b;   /* query term indexes, a before b */
  uint32_t ta, tb; /* their term ids */
  double bonus;    /* what the pair adds to a tool that has it */
} tsift_qpair;

/* The pairs of q (at most q->terms.count - 1) under term_state (tsift_rank's
 * fates: only scored terms pair) and the universe of stats. */
size_t tsift_query_pairs(const tsift_index *ix, const tsift_stats *stats, const tsift_query *q,
                         const uint8_t *term_state, tsift_qpair *pairs);
/* 1 when doc d has the pair close together in one field (only the fields
 * whose postings have both terms are scanned). */
int tsift_pair_near(const tsift_index *ix, uint32_t d, const tsift_qpair *p);
/* What the pair adds to a hit that has it: its bonus, halved as often as
 * the more covered of its two terms under the diversity rule (covered: per
 * query term, the earlier hits that matched it; NULL when not diversified). */
double tsift_pair_score(const tsift_qpair *p, const uint32_t *covered);

/* Term id of s[0..n) or -1. */
long tsift_term_lookup(const tsift_index *ix, const char *s, size_t n);

/* Per-field contributions of query term `term` to doc `doc` (0 when absent);
 * returns the term's total contribution. */
double tsift_term_explain(const tsift_index *ix, const tsift_stats *stats, long term, uint32_t doc,
                          double fields[TSIFT_FIELD_COUNT]);

/* Members of a ranking: the query's terms (m < terms.count), then their
 * expansions (vocab.h). The query term member m belongs to: */
static inline size_t tsift_member_owner(const tsift_query *q, size_t m) {
  return m < q->terms.count ? m : q->xof[m - q->terms.count];
}

/* The query-term weight of member m: 1 for a term, TSIFT_VOCAB_WEIGHT for a
 * translation, TSIFT_SYNONYM_WEIGHT for a synonym (vocab.h). */
double tsift_member_weight(const tsift_query *q, size_t m);

/* One-line, bounded, trust-aware description of a tool for results. */
#define TSIFT_RESULT_DESCRIPTION_CHARS 160
/* Names in search results: at most this many characters, then "…" (S12). */
#define TSIFT_RESULT_NAME_CHARS 128
#define TSIFT_WITHHELD_DESCRIPTION "Third-party tool; description withheld"
char *tsift_short_description(const tsift_tool *t, size_t max_chars, size_t *len);

#endif
