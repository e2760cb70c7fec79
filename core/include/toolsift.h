/*
 * toolsift.h — the one public header of the toolsift core.
 *
 * toolsift ranks tools (MCP / OpenAI / Anthropic / native JSON shapes) for a
 * natural-language query with a deterministic BM25F ranker. The core is pure
 * C11: no I/O, no threads, no global state except the allocator hook.
 *
 * Conventions
 *  - Every fallible function returns a tsift_status and, when given a non-NULL
 *    tsift_error, fills it with the status and a message naming what was wrong
 *    and where. Nothing is ever printed; abort() is never called.
 *  - Handles are opaque. Whoever receives a handle frees it with the matching
 *    *_free function. Byte buffers returned through `char **out` are allocated
 *    with the current allocator and freed with tsift_free().
 *  - Strings are UTF-8 with an explicit length (no NUL needed).
 *  - Output JSON is produced by the core itself with a fixed number format, so
 *    the same input gives the same bytes natively and in WebAssembly.
 */
#ifndef TOOLSIFT_H
#define TOOLSIFT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TSIFT_BUILDING) && (defined(__GNUC__) || defined(__clang__))
#define TSIFT_API __attribute__((visibility("default")))
#else
#define TSIFT_API
#endif

#define TSIFT_VERSION "0.1.0"
/* Changes whenever scoring changes (recorded in results and decisions). */
#define TSIFT_RANKER_VERSION "bm25f-6"

typedef enum tsift_status {
  TSIFT_OK = 0,
  TSIFT_E_ARG = 1,      /* a bad argument to an API call (NULL handle, bad limit) */
  TSIFT_E_JSON = 2,     /* malformed JSON */
  TSIFT_E_UTF8 = 3,     /* invalid UTF-8 where it is not allowed */
  TSIFT_E_CONFIG = 4,   /* a catalog/configuration error: duplicate id, bad id, wrong type */
  TSIFT_E_LIMIT = 5,    /* an input beyond a hard bound */
  TSIFT_E_NOMEM = 6,    /* the allocator returned NULL */
  TSIFT_E_SNAPSHOT = 7, /* a bad index snapshot */
  TSIFT_E_STATE = 8,    /* a call that the object's state does not allow */
  TSIFT_E_RANKER = 9,   /* a host ranker failed */
  TSIFT_E_DIVERGED = 10, /* a replayed run diverged from its journal */
  TSIFT_E_TAMPERED = 11, /* a journal's chain, header or key does not verify */
  TSIFT_E_MODEL = 12     /* a malformed static-embedding model file (safetensors, tokenizer.json) */
} tsift_status;

#define TSIFT_ERROR_MESSAGE_MAX 512

typedef struct tsift_error {
  tsift_status status;
  char message[TSIFT_ERROR_MESSAGE_MAX]; /* NUL-terminated, may be cut */
} tsift_error;

/* Short stable name of a status: "ok", "arg", "json", "utf8", "config",
 * "limit", "nomem", "snapshot", "state", "ranker", "diverged", "tampered",
 * "model". Static string. */
TSIFT_API const char *tsift_status_name(tsift_status status);
/* A human sentence for a status. Static string. */
TSIFT_API const char *tsift_strerror(tsift_status status);
/* Library version string ("0.1.0"). Static string. */
TSIFT_API const char *tsift_version(void);

/* ---- allocation ------------------------------------------------------- */

typedef void *(*tsift_malloc_fn)(size_t size);
typedef void *(*tsift_realloc_fn)(void *ptr, size_t size);
typedef void (*tsift_free_fn)(void *ptr);

/* Replace the allocator used by the core and by cJSON (NULLs restore libc).
 * Call it before creating any object; objects must be freed with the
 * allocator that made them. Not thread-safe (process-wide hook). */
TSIFT_API void tsift_set_allocator(tsift_malloc_fn m, tsift_realloc_fn r, tsift_free_fn f);
/* Free a buffer the core returned (JSON output). NULL is fine. */
TSIFT_API void tsift_free(void *ptr);

/* ---- index ------------------------------------------------------------ */

typedef struct tsift_index tsift_index;
typedef struct tsift_static_model tsift_static_model; /* static-embedding models, below */

/*
 * Build an index from a catalog (SPEC S1): a JSON object with "tools",
 * optional "skills" and "annotations", a bare array of tools, or an MCP
 * tools/list result. `options_json` may be NULL or a JSON object:
 *   { "stopwords": null | [ "word", ... ],   (null = the built-in list, [] = none)
 *     "ids": "strict" | "lenient",           (strict, the default: ids must match
 *                                              ^[A-Za-z0-9_.:-]{1,128}$; lenient: any
 *                                              1..1024 bytes without control characters,
 *                                              for pure ranking of outside data sets)
 *     "weights": { "name": 3, "aliases": 2, "tags": 2, "description": 1,
 *                  "params": …, "param_docs": … },   (any subset; 0..100)
 *     "minCoverage": 0..1 }  (confidence rule: the result is empty unless the
 *                             best hit matches two content terms, one in its
 *                             name/aliases/tags, or this idf-weighted share of
 *                             its matched plus the query's unknown content
 *                             terms; default 0 = off; exact names stay;
 *                             docs/relevance.md)
 * On success *out owns the index (free with tsift_index_free). On failure
 * *out is NULL and nothing is left allocated.
 */
TSIFT_API tsift_status tsift_index_build(const char *catalog_json, size_t catalog_len,
                                         const char *options_json, size_t options_len,
                                         tsift_index **out, tsift_error *err);
TSIFT_API void tsift_index_free(tsift_index *index);

/* Number of tools in the index. */
TSIFT_API size_t tsift_index_size(const tsift_index *index);

/*
 * Search and return a JSON document (caller frees *out with tsift_free):
 *   {"query":…,"terms":[…],"hits":[{"id","name","description","trust","score"[,"exact"],
 *     "match":"strong"|"partial","matched":[…][,"explain"]}],
 *    "unmatched":[…][,"capped":[…]][,"tainted":true][,"analysis":{…}]}
 * `options_json` may be NULL or { "limit": 1..1000 (default 10), "explain": bool }.
 * The query is never an error: invalid UTF-8 is replaced, oversize is cut.
 * Hits are bounded: "name" at most 128 characters, "description" (first line,
 * withheld for un-vouched remote and tainted tools) at most 160, each then "…".
 * "match" is the hit's grade and "matched" the query words it matches
 * (docs/sessions.md, "The match grade"). "explain" is {"terms":[{"term",
 * "score","fields":{…}[,"via"]}…][,"pairs":[{"terms":[a,b],"score"}…]],
 * "grade":{"coverage","relative"[,"phrase"]}}: each scored term's
 * contribution by field (an expansion or typo correction names its word in
 * "via") and the proximity pairs the hit has, which add up to its score, and
 * why it got its grade. With explain, "analysis" holds the tokens, stopwords,
 * terms, expansions, "corrections" ([word, correction] pairs, when any) and
 * "evidence" (what each content word weighs in the grade).
 */
TSIFT_API tsift_status tsift_index_search_json(const tsift_index *index, const char *query,
                                               size_t query_len, const char *options_json,
                                               size_t options_len, char **out, size_t *out_len,
                                               tsift_error *err);

/* One hit of the typed (hot-path) search. `id` points into the index and
 * lives as long as the index. */
typedef struct tsift_hit {
  const char *id;
  double score;
  uint32_t tool; /* position of the tool in the catalog */
} tsift_hit;

/*
 * Typed search without JSON: writes at most `capacity` hits best first into
 * `hits` and their count into *count. For hosts and benchmarks that call the
 * core directly.
 */
TSIFT_API tsift_status tsift_index_search(const tsift_index *index, const char *query,
                                          size_t query_len, size_t capacity, tsift_hit *hits,
                                          size_t *count, tsift_error *err);

/*
 * Batch ranking in the stable outside-evaluation contract: `queries_jsonl`
 * holds lines {"id": <any JSON>, "query": "<text>"}; the output has one line
 * per non-blank input line, in input order:
 *   {"id":<the id, re-serialised>,"hits":["<tool id>",…]}\n
 * with at most k hits (1..1000). A malformed line is an error naming its line.
 */
TSIFT_API tsift_status tsift_index_rank_jsonl(const tsift_index *index, const char *queries_jsonl,
                                              size_t len, unsigned k, char **out, size_t *out_len,
                                              tsift_error *err);

/* Index facts as JSON {"tools":N,"terms":N,"ranker":"bm25f-6","fingerprint":"<sha256 hex>",
 * "fields":{…weights…}}. Caller frees *out with tsift_free. */
TSIFT_API tsift_status tsift_index_info_json(const tsift_index *index, char **out, size_t *out_len,
                                             tsift_error *err);

/*
 * The search document of every tool as the trust policy built it (SPEC S2),
 * as JSON {"tools":[{"id","trust","fields":{"name":[tokens],…}}]}. For the
 * playground and for tests. Caller frees *out with tsift_free.
 */
TSIFT_API tsift_status tsift_index_documents_json(const tsift_index *index, char **out,
                                                  size_t *out_len, tsift_error *err);

/* ---- vectors (docs/relevance.md, "Semantic search") -------------------- */

/*
 * An index may hold one embedding vector per tool: from the catalog (a
 * tool's "embedding": an array of numbers or a base64 string of float32
 * little-endian; build option "model" names the model, default "catalog";
 * every first-party and vouched tool has one of the same dimension, or none
 * has; a remote or tainted tool's own embedding is an error, its
 * description is not indexed) or from the host (below). Vectors are stored
 * quantised (int8 and a scale per tool). A search with the option
 * "vector" (the query's vector, the same forms; "minSimilarity": -1..1, the
 * grade's floor) fuses similarity with BM25F; its "ranker" is
 * "bm25f-N+vec:<model>" and each hit's explain has "semantic". Without
 * "vector" a search is what it is without vectors, byte for byte.
 *
 * The text a host embeds for each tool, under the trust policy (SPEC S2),
 * as JSON {"tools":[{"id","trust","text"}]} in tool order. Caller frees *out.
 */
TSIFT_API tsift_status tsift_index_embed_texts_json(const tsift_index *index, char **out, size_t *out_len,
                                                    tsift_error *err);
/* Give the index one vector per tool: rows holds nrows (= the number of
 * tools) x dim floats in tool order; model (1..64 printable ASCII, no
 * space) is recorded in results, decisions and snapshots. A row with a NaN,
 * an infinity or all zeros is TSIFT_E_CONFIG naming the tool. Replaces any
 * vectors the index had; on failure it has none. */
TSIFT_API tsift_status tsift_index_set_vectors(tsift_index *index, const char *model, size_t model_len,
                                               uint32_t dim, const float *rows, size_t nrows, tsift_error *err);
/* A host's embedding function: write dim floats for text[0..len) to out;
 * non-zero means it failed. */
typedef int (*tsift_embed_fn)(void *user, const char *text, size_t len, uint32_t dim, float *out);
/* tsift_index_set_vectors with each tool's vector from fn over the text
 * tsift_index_embed_texts_json gives it. A failing fn is TSIFT_E_RANKER. */
TSIFT_API tsift_status tsift_index_embed(tsift_index *index, const char *model, size_t model_len, uint32_t dim,
                                         tsift_embed_fn fn, void *user, tsift_error *err);

/* ---- snapshots (SPEC S11) --------------------------------------------- */

/* Write the index as a versioned binary snapshot (analyser and ranker
 * versions, fingerprint, a 64-bit checksum). Caller frees *out. */
TSIFT_API tsift_status tsift_index_snapshot(const tsift_index *index, char **out, size_t *out_len,
                                            tsift_error *err);
/* Load a snapshot without re-analysing the catalog. Another format,
 * ranker, analyser or Unicode version, a truncated or corrupted blob, or a
 * checksum mismatch is TSIFT_E_SNAPSHOT. The index gives byte-identical
 * results to one built from the catalog. */
TSIFT_API tsift_status tsift_index_from_snapshot(const char *bytes, size_t len, tsift_index **out,
                                                 tsift_error *err);
/* Re-derive a loaded index's fingerprint and postings from its documents
 * and compare them with the ones the snapshot states (loading trusts them
 * once the checksum matches: the checksum catches corruption, not a
 * deliberately edited blob). TSIFT_E_SNAPSHOT when they differ. Costs
 * about as much as a build's indexing step. */
TSIFT_API tsift_status tsift_index_verify(const tsift_index *index, tsift_error *err);

/* ---- relevance evaluation (SPEC S10) ---------------------------------- */

/*
 * Evaluate toolsift and a plain-BM25 baseline on a catalog (JSON, or JSON
 * Lines of tools) and graded queries (JSON Lines {"id", "query", "class"?,
 * "relevance" | "relevant": {toolId: grade}}; an empty relevance means the
 * right answer is nothing). `options_json` may be NULL or
 *   {"index": {build options; default {"ids":"lenient"}}, "worst": 10,
 *    "gates": {"overall": {metric: floor}, "classes": {class: {metric: floor}}}}
 * with metrics r1, r5, r10, mrr, ndcg10, noMatch. Writes the metrics JSON
 * (overall, per class, worst queries, gate failures) to *out.
 */
TSIFT_API tsift_status tsift_eval_json(const char *catalog, size_t catalog_len, const char *queries,
                                       size_t queries_len, const char *options_json,
                                       size_t options_len, char **out, size_t *out_len,
                                       tsift_error *err);
/* tsift_eval_json with the vectors of a model (JSON Lines, docs/relevance.md
 * "Measuring a model": {"kind":"model","id"}, then {"kind":"tool","id",
 * "vector"|"b64"} for every tool and {"kind":"query","id","vector"|"b64"}
 * per query): each query with a vector is ranked fused (and its loop
 * search too); "ranker" is "bm25f-N+vec:<model>", "queryVectors" the count
 * of queries that had one. vectors NULL: tsift_eval_json. */
TSIFT_API tsift_status tsift_eval_vectors_json(const char *catalog, size_t catalog_len, const char *queries,
                                               size_t queries_len, const char *vectors, size_t vectors_len,
                                               const char *options_json, size_t options_len, char **out,
                                               size_t *out_len, tsift_error *err);
/* tsift_eval_json with a static model (tsift_static_model_load) instead of a
 * vectors file: the catalog's tools embedded with it (the trust policy's
 * texts, as tsift_index_embed_static) and every query's text, fused by the
 * same rule; the option "fusion" applies. A tool or query the model knows
 * no token of has no vector (BM25F only). The model is borrowed. */
TSIFT_API tsift_status tsift_eval_model_json(const char *catalog, size_t catalog_len, const char *queries,
                                             size_t queries_len, const tsift_static_model *model,
                                             const char *options_json, size_t options_len, char **out,
                                             size_t *out_len, tsift_error *err);
/* Propose fusion parameters for a static model on a catalog
 * (docs/semantic.md, "Calibrating a model"): the evaluation with the model
 * over a grid of margins and weights beside lexical, the best nDCG@10 that
 * keeps the loop's floors, then an "agree" floor if it buys precision.
 * queries (JSON Lines as tsift_eval_json's) may be empty: then each tool's
 * description is a query for it, asked of the catalog without descriptions.
 * *out: the table as text when `text`, else JSON {"model", "from", "queries",
 * "noMatchQueries", "lexical", "rows", "config"} ("config": the object for
 * the model's config.json, or null when the defaults stand). */
TSIFT_API tsift_status tsift_calibrate_json(const char *catalog, size_t catalog_len, const char *queries,
                                            size_t queries_len, const tsift_static_model *model, int text,
                                            char **out, size_t *out_len, tsift_error *err);
/* Render an evaluation JSON as a text table headed by `title`. */
TSIFT_API tsift_status tsift_eval_report(const char *eval_json, size_t len, const char *title,
                                         char **out, size_t *out_len, tsift_error *err);

/* ---- text analysis (exposed for tests and tooling) -------------------- */

/*
 * Analyse `text` as a query would be analysed and return JSON
 *   {"tokens":[…all tokens…],"stopwords":[…dropped…],"terms":[…final terms…]}
 * `options_json` as for tsift_index_build (stopwords). Caller frees *out.
 */
TSIFT_API tsift_status tsift_analyze_query_json(const char *text, size_t len,
                                                const char *options_json, size_t options_len,
                                                char **out, size_t *out_len, tsift_error *err);

/* Analyse `text` as a document field (no stopwords, invalid UTF-8 is an
 * error) and return the JSON array of tokens. Caller frees *out. */
TSIFT_API tsift_status tsift_analyze_field_json(const char *text, size_t len, char **out,
                                                size_t *out_len, tsift_error *err);

/* ---- sessions (SPEC S6, S7, S9) --------------------------------------- */

typedef struct tsift_session tsift_session;

/*
 * Create a session (one agent run) from a configuration JSON:
 *   { "loop": "agent", "tools": [ the agent's own tools ],
 *     "catalog": { "tools": [], "skills": [], "annotations": {} },
 *     "search": { "toolName": "search_tools", "alwaysLoaded": [], "namespaces": [],
 *                 "maxPerSearch": 5, "maxLoaded": 20, "maxSearches": 25,
 *                 "maxMenuChars": null, "stopwords": null,
 *                 "load": "strong", "strong": {"coverage": 0.5, "pairCoverage": 0.25,
 *                 "relative": 0.75}, "overview": true, "overviewChars": 1500 } }
 * (docs/sessions.md has every key; "load": "strong" loads only strong hits).
 * `journal` (may be NULL) holds recorded decisions, as a JSON array or JSON
 * Lines; with it the session serves recorded decisions instead of ranking.
 * `options_json` may be NULL or { "divergence": "fail" | "warn" | "off",
 * "journalKey": hex, "journalParent": hex, "client": name } (default
 * "fail"; no key; client: who the run serves, 1-64 bytes, recorded in the
 * journal header for learning, docs/learning.md). The
 * journal the session writes is hash-chained (a header line, then a "chain"
 * digest in every decision; HMAC-SHA-256 with journalKey, 16–64 bytes as
 * 32–128 lowercase hex digits); a recorded journal is verified before
 * anything is served: in "fail" mode a broken chain, a header that does not
 * match the live catalog and configuration, or a wrong key is
 * TSIFT_E_TAMPERED; in "warn" mode each is a warning on the output that
 * serves the decision. journalParent (64 hex) chains the journal to the
 * last digest of the one before it (docs/reliability.md). On failure *out
 * is NULL and err names the cause.
 */
TSIFT_API tsift_status tsift_session_new(const char *config_json, size_t config_len,
                                         const char *journal, size_t journal_len,
                                         const char *options_json, size_t options_len,
                                         tsift_session **out, tsift_error *err);
/* The same over an index snapshot (edge cold start): the configuration must
 * not have "catalog" or search.stopwords (the snapshot fixes both), and the
 * snapshot must have been built with strict (model-facing) ids. */
TSIFT_API tsift_status tsift_session_new_from_snapshot(const char *config_json, size_t config_len,
                                                       const char *snapshot, size_t snapshot_len,
                                                       const char *journal, size_t journal_len,
                                                       const char *options_json, size_t options_len,
                                                       tsift_session **out, tsift_error *err);
TSIFT_API void tsift_session_free(tsift_session *session);

/*
 * For hosts that read a session from files (the CLIs), so that none of them
 * parses or prints JSON itself:
 *
 * The catalog file a configuration names ("catalog": "file", a path the host
 * resolves, e.g. relative to the configuration file). The configuration is
 * read as tsift_session_new reads it (its errors are the same). On success
 * *file is the string (caller frees it with tsift_free; no NUL inside) and
 * *file_len its length, or *file is NULL when "catalog" is not a string.
 */
TSIFT_API tsift_status tsift_session_config_catalog(const char *config_json, size_t config_len,
                                                    char **file, size_t *file_len, tsift_error *err);
/*
 * A session as tsift_session_new or, with `snapshot` (may be NULL),
 * tsift_session_new_from_snapshot makes it, with `catalog` (may be NULL):
 * the bytes of the catalog file the configuration names, which then stand
 * for its "catalog" (the configuration's "catalog" must be a string).
 * Errors in the file's JSON name it ("catalog file F: malformed JSON at
 * byte …"); errors in the catalog it holds are "config: catalog: …", as for
 * a catalog inside the configuration. Nothing is kept of the caller's
 * buffers. On failure *out is NULL.
 */
TSIFT_API tsift_status tsift_session_open(const char *config_json, size_t config_len, const char *catalog,
                                          size_t catalog_len, const char *snapshot, size_t snapshot_len,
                                          const char *journal, size_t journal_len, const char *options_json,
                                          size_t options_len, tsift_session **out, tsift_error *err);
/*
 * Handle the next call of a calls file: JSON Lines, one
 *   {"turn": integer, "call": integer, "tool": string, "args": {…}}
 * per line (0 <= turn, call <= 4294967295; "args", the arguments the model
 * sent, may be any JSON value — a meta-tool refuses a non-object with
 * invalid_input — or left out for {}; other keys are ignored), blank lines
 * skipped. The cursor is
 * *pos, where reading goes on, and *line, the number of the last line read:
 * start both at 0. It skips blank lines, handles the next line as
 * tsift_session_call and leaves *pos past it and *line its number (lines
 * count from 1, blank ones included). At the end (nothing but blank lines
 * left) it returns TSIFT_OK with *out NULL. The output is tsift_session_call's
 * (caller frees *out with tsift_free). A line that is not such an object
 * (the strict JSON reader decides: a duplicate key, a fractional turn or
 * trailing data are not) is TSIFT_E_CONFIG with the message
 *   calls line N: expected {"turn": integer, "call": integer, "tool": string, "args": {…}} or
 *   {"turn": integer, "preSearch": string}
 * (a line {"turn": T, "preSearch": "the user's message"} is
 * tsift_session_pre_search's, its output the line's)
 * — the only TSIFT_E_CONFIG it returns; every other error is the call's, its
 * message prefixed "calls line N: ". The cursor is past the line after an
 * error too, so a host can report it and go on.
 */
TSIFT_API tsift_status tsift_session_call_next(tsift_session *session, const char *calls, size_t len,
                                               size_t *pos, size_t *line, char **out, size_t *out_len,
                                               tsift_error *err);

/*
 * Handle one model tool call (turn i, call j, tool name, arguments JSON).
 * Writes {"call": {"turn","call","tool"}, "result": …, "decision": {…} | null
 * [, "warnings": [...]]} to *out
 * (free with tsift_free). A search_tools result lists its hits with their
 * loaded flags and grades, the unmatched words, a note and, after a miss,
 * catalog words (docs/sessions.md); a "select:a,b" query loads named tools.
 * Refusals (invalid_input — arguments that are not a JSON object among
 * others —, search_limit_reached, not_on_menu, …) are results with an
 * "error" code and record nothing. A call to a non-meta tool is answered
 * {"allowed": true} when it is on the menu; an allowed call to a catalog tool
 * is recorded in the journal ({"id": "<loop>#turn:i:tool:j:call", "source":
 * "agent-tool-call", "value": {"tool": id}}, a call record: not a decision,
 * replay passes over it). Errors (status != OK) are
 * reserved for bad API arguments, a search at a (turn, call) that does not
 * advance past the last decision's (ids must stay unique), out of memory and
 * divergence in "fail" mode; the session stays usable after any of them.
 */
TSIFT_API tsift_status tsift_session_call(tsift_session *session, uint32_t turn, uint32_t call,
                                          const char *tool, size_t tool_len, const char *args_json,
                                          size_t args_len, char **out, size_t *out_len,
                                          tsift_error *err);
/*
 * The one reader of a journal key (the session and learner option
 * "journalKey", a CLI's key file or TOOLSIFT_JOURNAL_KEY): exactly 32 to
 * 128 lowercase hex digits (a key of 16 to 64 bytes) — an empty,
 * white-space, short, long, non-hex or NUL-holding text is TSIFT_E_CONFIG
 * naming `where` and what is wrong (never the key). A host that was given
 * a key source checks it here, so an empty one is an error, not "no key".
 */
TSIFT_API tsift_status tsift_journal_key_check(const char *text, size_t len, const char *where, tsift_error *err);

/*
 * Pre-search (docs/sessions.md, "Pre-search"): before the model's turn
 * `turn`, the host searches `text` (the user's latest message; its first
 * 512 bytes, read as plain words: no select:, no +word) and the strong hits
 * join the menu under the same caps, trust and recording as a search_tools
 * call — a decision "<loop>#turn:T:pre-search", source "host-pre-search",
 * served from the journal on replay. It must come before the turn's calls;
 * it does not count against maxSearches (the model's budget). *out is
 * {"call": {"turn": T, "preSearch": true}, "result": …, "decision": …} as a
 * search's. TSIFT_E_STATE in a session with every tool on its menu
 * (search.auto), with a host ranker (its pages are not graded) or while a
 * search waits for a ranking; TSIFT_E_ARG when the turn does not advance.
 */
TSIFT_API tsift_status tsift_session_pre_search(tsift_session *session, uint32_t turn, const char *text,
                                                size_t len, char **out, size_t *out_len, tsift_error *err);
/*
 * The host reports that an allowed call to catalog tool `tool` (at turn,
 * call) failed (the tool answered an error): recorded in the journal as
 * source "agent-tool-call-failed", so learning does not count it as the
 * tool the model needed. Reporting the same call again records nothing.
 * TSIFT_E_ARG when the session allowed no such call.
 */
TSIFT_API tsift_status tsift_session_call_failed(tsift_session *session, uint32_t turn, uint32_t call,
                                                 const char *tool, size_t tool_len, tsift_error *err);

/*
 * A host ranker replaces BM25F for live searches (SPEC S4 "pluggable").
 * `kind` (1..64 bytes) is recorded in every decision. The ranker gets the
 * query and `want`, the number of ids to return, and answers a JSON array of
 * tool ids best first in *ids_json (host-owned memory that must stay valid
 * until the next call of the ranker or the end of the session); a non-zero
 * return means the ranker failed. Its answer is clipped to `want`,
 * intersected with the searchable universe, and when the page comes back
 * short from a full answer the ranker is asked again for twice as many (at
 * most 4 rounds, never over 1000). A failed ranker or an answer that is not
 * a JSON array gives the refusal search_unavailable (nothing recorded).
 * With fn == NULL the session is two-phase (for hosts that cannot be called
 * back, e.g. JS through wasm): a live search answers
 *   {"call": …, "rank": {"kind": …, "query": …, "want": N}}
 * and the host completes it with tsift_session_ranked. kind == NULL restores
 * BM25F. Set it before the first search.
 */
typedef int (*tsift_rank_fn)(void *user, const char *query, size_t query_len, unsigned want,
                             const char **ids_json, size_t *ids_len);
TSIFT_API tsift_status tsift_session_set_ranker(tsift_session *session, const char *kind,
                                                tsift_rank_fn fn, void *user, tsift_error *err);

/* The vector of the next search_tools query (dim floats, the index's
 * dimension; vec NULL clears it), fused with BM25F by the built-in ranker
 * (docs/relevance.md, "Semantic search"); min_similarity (-1..1, or -2:
 * off) is the grade's floor: no hit below it is strong, so none loads.
 * The decision records the ranker "bm25f-N+vec:<model>"; a replay serves it
 * without vectors. The vector is dropped after that search (refused or
 * not). TSIFT_E_ARG when the index has no vectors or another dimension. */
TSIFT_API tsift_status tsift_session_set_query_vector(tsift_session *session, const float *vec, uint32_t dim,
                                                      double min_similarity, tsift_error *err);

/* A static model (tsift_static_model_load) as the session's query
 * embedder: every search_tools query the built-in ranker answers is
 * embedded with it in the core and fused as if set by
 * tsift_session_set_query_vector with min_similarity — unless the host set
 * a vector for that search, which wins. A query with no token the model
 * knows gets no vector (that search is lexical). The index's vectors must
 * be the model's (tsift_index_embed_static, or a snapshot of such an
 * index); a session index without vectors is embedded with the model here
 * (tsift_index_embed_static: the tools' texts under the trust policy).
 * TSIFT_E_ARG when the vectors are of another dimension or model id. The session borrows the model: it must outlive the
 * session, or be unset first (model NULL). Replays never embed. */
TSIFT_API tsift_status tsift_session_set_embedder(tsift_session *session, const tsift_static_model *model,
                                                  double min_similarity, tsift_error *err);

/* A host skill ranker (SPEC S8) for sessions whose skills.discovery is
 * "search" or "both": the same contract as tsift_session_set_ranker, over
 * skill ids. In two-phase mode its requests carry "of": "skills":
 *   {"call": …, "rank": {"kind", "query", "want", "of": "skills"}}
 * and are answered with tsift_session_ranked too. With a host ranker on
 * either side, a search's page takes tools and skills by rank position,
 * tool first; with BM25F on both, by score. Set it before the first search. */
TSIFT_API tsift_status tsift_session_set_skill_ranker(tsift_session *session, const char *kind,
                                                      tsift_rank_fn fn, void *user, tsift_error *err);

/* The session's contribution to the system prompt (SPEC S8): the skill
 * index, one line per skill not selected up front ("- id: first line of
 * the description [tags]"), in id order, bounded by skills.maxIndex and
 * skills.maxIndexBytes with a "(+N more …)" marker; in "search" discovery
 * one fixed line. Empty when skills are off. Caller frees *out. */
TSIFT_API tsift_status tsift_session_skill_index(const tsift_session *session, char **out,
                                                 size_t *out_len, tsift_error *err);

/* Complete a pending two-phase search with the host ranker's answer (a JSON
 * array of ids, or NULL when the ranker failed). The output is that of
 * tsift_session_call — or another ranking request when the page is short. */
TSIFT_API tsift_status tsift_session_ranked(tsift_session *session, const char *ids_json,
                                            size_t len, char **out, size_t *out_len,
                                            tsift_error *err);

/* The menu in "mcp" ({"tools":[…]}), "openai" or "anthropic" (arrays) shape.
 * Caller frees *out. */
TSIFT_API tsift_status tsift_session_menu_json(const tsift_session *session, const char *format,
                                               char **out, size_t *out_len, tsift_error *err);

/* The decisions recorded so far as JSON Lines (one decision per line; empty
 * when none). Caller frees *out. */
TSIFT_API tsift_status tsift_session_journal_jsonl(const tsift_session *session, char **out,
                                                   size_t *out_len, tsift_error *err);

/* The verification of the recorded journal the session was opened with:
 * {"verified":bool,"chained":bool,"keyed":bool,"decisions":N,
 *  "problems":[{"at":N,"problem":"…"}]} (at 0: the journal as a whole, else
 * the decision's 1-based position). Open the session with divergence "off"
 * or "warn" to read the problems instead of failing on the first. Caller
 * frees *out. */
TSIFT_API tsift_status tsift_session_verify_json(const tsift_session *session, char **out, size_t *out_len,
                                                 tsift_error *err);

/* Counters a host can log (no query text):
 * {"searches","refusals","hits","noMatch","loaded","rankerCalls","replayed",
 *  ["activations","activeSkills",] "menu","menuChars","fingerprint"} (the
 *  skill counters with skills on). Caller frees *out. */
TSIFT_API tsift_status tsift_session_metrics_json(const tsift_session *session, char **out,
                                                  size_t *out_len, tsift_error *err);

/* Serve every remaining journal decision as the search it records (turn,
 * call and query from the record): the menu a recorded run ended with,
 * without its calls file. */
TSIFT_API tsift_status tsift_session_apply_journal(tsift_session *session, tsift_error *err);

/* End of a replayed run: journal decisions never asked for are divergence
 * (an error in "fail" mode; in "warn" and "off" mode they are only listed).
 * Writes {"unasked":[ids…]} to *out. Caller frees *out. */
TSIFT_API tsift_status tsift_session_finish(tsift_session *session, char **out, size_t *out_len,
                                            tsift_error *err);

/* ---- static-embedding models (issue 25, docs/semantic.md) -------------- */


/*
 * Load a model2vec-style static embedding: `safetensors` holds the matrix
 * (the tensor "embeddings", else "embedding.weight", else the only 2-D
 * tensor; F32, F16, BF16, F64 or I8; one row per token id, dimension
 * 1..4096, at most 1,000,000 rows, every value finite) and `tokenizer_json`
 * a Hugging Face tokenizer.json with a WordPiece model (normalizer
 * BertNormalizer, Lowercase or null; pre_tokenizer BertPreTokenizer,
 * WhitespaceSplit or null; every vocabulary id below the row count, no id
 * twice, unk_token in the vocabulary). A malformed file is TSIFT_E_MODEL
 * naming the file, the key or tensor and what is wrong (JSON syntax:
 * TSIFT_E_JSON/_UTF8; a bound: TSIFT_E_LIMIT). Nothing of the caller's
 * buffers is kept. On success *out owns the model (tsift_static_model_free);
 * on failure *out is NULL and nothing is left allocated.
 */
TSIFT_API tsift_status tsift_static_model_load(const uint8_t *safetensors, size_t safetensors_len,
                                               const char *tokenizer_json, size_t tokenizer_len,
                                               tsift_static_model **out, tsift_error *err);
/*
 * tsift_static_model_load with flags. TSIFT_STATIC_SENTENCE_TRANSFORMERS:
 * the files are a sentence-transformers StaticEmbedding module (a host sets
 * it when it reads them from a model's `0_StaticEmbedding/` folder;
 * docs/semantic.md, "Pooling"): the embedding is the mean of every token's
 * row, [UNK] included and no 512-token cap (model2vec's pooling, the
 * default, drops a WordPiece [UNK] and keeps 512), a file with a "weights"
 * or "mapping" tensor is refused (StaticEmbedding reads neither), and the
 * model's id differs from the same files' default id. Other bits: ignored.
 */
#define TSIFT_STATIC_SENTENCE_TRANSFORMERS 1u
TSIFT_API tsift_status tsift_static_model_load_flags(const uint8_t *safetensors, size_t safetensors_len,
                                                     const char *tokenizer_json, size_t tokenizer_len,
                                                     unsigned flags, tsift_static_model **out, tsift_error *err);
TSIFT_API void tsift_static_model_free(tsift_static_model *model);
/* The embedding dimension (0 for NULL). */
TSIFT_API size_t tsift_static_model_dim(const tsift_static_model *model);
/* The model's identity for a ranker kind ("bm25f-6+vec:<id>"): NAME-HEX12,
 * where HEX12 is the first 12 hex digits of a SHA-256 over both files and
 * NAME the safetensors __metadata__ "name" when it is [a-z0-9._-]{1,32},
 * else "static". At most 45 bytes; lives as long as the model. */
TSIFT_API const char *tsift_static_model_id(const tsift_static_model *model);
/* The fusion parameters calibrated for the model (docs/semantic.md,
 * "Calibrating a model"), from its config.json: the optional member
 *   "toolsift": {"fusion": {"margin": -10..10, "weight": 0..100,
 *                           "strong": -10..10, "agree": -10..10 | null}}
 * (each key optional; the rest of config.json, model2vec's own keys, is
 * not read). Searches and evaluations that embed with the model use them
 * in place of the defaults; eval's "fusion" option still overrides. A
 * config.json without the member changes nothing; a malformed one is a
 * TSIFT_E_MODEL error naming the key, and the model keeps what it had. */
TSIFT_API tsift_status tsift_static_model_configure(tsift_static_model *model, const char *config_json, size_t len,
                                                    tsift_error *err);
/*
 * Embed `text` (UTF-8; invalid bytes read as U+FFFD; read up to 65536
 * bytes): normalise, pre-tokenise, WordPiece or Unigram, drop a WordPiece
 * [UNK], keep the first 512 tokens, sum their rows (through "mapping",
 * times "weights", when the file has them) in token order in doubles and
 * divide by the sum's Euclidean norm (the mean's direction; with
 * TSIFT_STATIC_SENTENCE_TRANSFORMERS every token, no cap), written as `dim` floats to
 * out. *pooled (may be NULL) is the number of rows summed. A text with no
 * known token (or rows that sum to zero) gives the zero vector: TSIFT_OK,
 * every component 0 and *pooled 0 — a caller must treat it as "no vector".
 * The same bytes natively and in WebAssembly.
 */
TSIFT_API tsift_status tsift_static_model_embed(const tsift_static_model *model, const char *text,
                                                size_t len, float *out, size_t *pooled,
                                                tsift_error *err);
/* The same as JSON {"model":ID,"dim":N,"tokens":[…every WordPiece token
 * read, "[UNK]" included…],"pooled":N,"vector":[…%.9g, which reads back to
 * the same float…] | null (the zero vector)}. Caller frees *out. */
TSIFT_API tsift_status tsift_static_model_embed_json(const tsift_static_model *model, const char *text,
                                                     size_t len, char **out, size_t *out_len,
                                                     tsift_error *err);

/*
 * A static model as an index's embedder (docs/semantic.md): every tool's
 * text to embed (tsift_index_embed_texts_json's) through the model into the
 * index's vectors, under the model's id (ranker "bm25f-N+vec:<id>").
 * Replaces any vectors the index had; on failure it has none. A tool whose
 * text has no token the model knows gets no vector (it keeps its BM25F
 * score and is left out of the similarity distribution); *without (may be
 * NULL) is how many.
 */
TSIFT_API tsift_status tsift_index_embed_static(tsift_index *index, const tsift_static_model *model,
                                                size_t *without, tsift_error *err);
/* A query's vector as the search option "vector" reads it: a JSON string,
 * base64 of the dim float32s little-endian, or null when the model knows no
 * token of the text (the search is then the lexical one, byte for byte).
 * Caller frees *out. */
TSIFT_API tsift_status tsift_static_model_vector_json(const tsift_static_model *model, const char *text,
                                                      size_t len, char **out, size_t *out_len,
                                                      tsift_error *err);

/* ---- learning a catalog's vocabulary (docs/learning.md) --------------- */

typedef struct tsift_learner tsift_learner;
/*
 * A learner over a catalog (as tsift_index_build reads it; its own
 * annotations count as its text, so give it without a learned vocabulary)
 * with options (may be NULL):
 *   {"index": build options, "minSessions": 3, "minClients": 2,
 *    "maxPerClient": 3, "minShare": 0.1, "minExamples": 1,
 *    "unverified": "refuse" | "skip" | "accept", "journalKey": hex}
 * Feed it journals and labelled examples in any order (the result does not
 * depend on it), then tsift_learner_finish.
 */
TSIFT_API tsift_status tsift_learner_new(const char *catalog, size_t catalog_len, const char *options_json,
                                         size_t options_len, tsift_learner **out, tsift_error *err);
/* One journal: the JSON Lines one run (session) wrote, a CLI journal or a
 * gateway client session's file. `name` names it in errors. Malformed:
 * TSIFT_E_JSON / TSIFT_E_CONFIG naming the journal and line; a broken or
 * unverifiable chain: TSIFT_E_TAMPERED unless the options say "skip" (left
 * out, counted) or "accept". Nothing is added on an error. */
TSIFT_API tsift_status tsift_learner_add_journal(tsift_learner *learner, const char *name, const char *jsonl,
                                                 size_t len, tsift_error *err);
/* Labelled examples: JSON Lines of {"query", "relevance" | "relevant":
 * {"<tool id>": grade}} (the eval format); each teaches its request's words
 * to the tools of its top grade. An id the catalog lacks is TSIFT_E_CONFIG
 * naming the line; on any error nothing of the file is added. */
TSIFT_API tsift_status tsift_learner_add_examples(tsift_learner *learner, const char *name, const char *jsonl,
                                                  size_t len, tsift_error *err);
/* The learned vocabulary as JSON (caller frees *out with tsift_free):
 *   {"learned": {"version", "catalog", "rule", "journals", "skipped",
 *                "sessions", "clients", "examples"},
 *    "annotations": {"<tool id>": {"aliases": [phrases], "tags": [words]}},
 *    "evidence": {"<tool id>": {"<label>": {"sessions", "clients",
 *                 "examples", "against", "share"}}}}
 * — the shape the index option "annotations" takes. */
TSIFT_API tsift_status tsift_learner_finish(tsift_learner *learner, char **out, size_t *out_len, tsift_error *err);
TSIFT_API void tsift_learner_free(tsift_learner *learner);
/* What vocabulary `new_json` would change against `old_json` (both in the
 * shape above, or the host's own {"annotations": …}), for review:
 *   {"tools": [{"id", "added": [{"label", "list", <its evidence>}],
 *               "removed": [...]}], "toolsChanged", "added", "removed"}
 * tools in id order; a label's evidence comes from the file that has it.
 * Labels compare as labels do (case, width and white space aside). */
TSIFT_API tsift_status tsift_learn_diff_json(const char *old_json, size_t old_len, const char *new_json,
                                             size_t new_len, char **out, size_t *out_len, tsift_error *err);

#ifdef __cplusplus
}
#endif
#endif /* TOOLSIFT_H */
