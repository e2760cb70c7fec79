/* static_model.h — the parts of the static-embedding model (issue 25) that
 * its files share: the safetensors reader (static_model_st.c), the
 * tokenizer — WordPiece (static_model_tok.c) and Unigram (static_model_uni.c,
 * issue 35) behind one struct and one entry point — and the model itself
 * (static_model.c, the public tsift_static_model_* API). static_model.c uses
 * the reader and tsift_wordpiece_*; static_model_tok.c hands a Unigram file
 * and text to static_model_uni.c; both use static_model_chars.c's
 * vocabulary table and BERT normalizer, and static_model_added.c's
 * added_tokens. */
#ifndef TSIFT_STATIC_MODEL_H
#define TSIFT_STATIC_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "base/hash.h"
#include "model/fusion_params.h"
#include "toolsift.h"

/* Hard bounds (docs/semantic.md). A file past one is TSIFT_E_LIMIT. */
#define TSIFT_STATIC_MAX_DIM 4096u
#define TSIFT_STATIC_MAX_ROWS 1000000u
/* Token ids: a vocabulary (tokenizer.json's model.vocab, added_tokens; the
 * "weights" and "mapping" tensors, one entry per id) holds at most this
 * many tokens. With "mapping" the matrix may have fewer rows than that. */
#define TSIFT_STATIC_MAX_VOCAB 1000000u
#define TSIFT_STATIC_MAX_HEADER (16u << 20)         /* safetensors JSON header */
#define TSIFT_STATIC_MAX_MATRIX (1024u << 20)       /* the matrix's bytes */
#define TSIFT_STATIC_MAX_TOKENIZER (256u << 20)     /* tokenizer.json */
/* The whole safetensors file: the 8-byte length, the largest header and the
 * largest matrix (1,090,519,048 bytes; the largest real static models weigh
 * about half of it). The reader refuses a longer buffer, and the hosts check
 * a file's size against it (and tokenizer.json's against
 * TSIFT_STATIC_MAX_TOKENIZER) before reading a byte: cli/model_load.c,
 * js/mcp/model.js. */
#define TSIFT_STATIC_MAX_FILE (8u + TSIFT_STATIC_MAX_HEADER + TSIFT_STATIC_MAX_MATRIX)
#define TSIFT_STATIC_MAX_WORD_CHARS 1000u           /* max_input_chars_per_word */
#define TSIFT_STATIC_MAX_PREFIX 16u                 /* continuing_subword_prefix bytes */
/* model2vec's encode(max_length=512): at most this many tokens are pooled
 * (after [UNK] is dropped); the text is read up to this many bytes. */
#define TSIFT_STATIC_MAX_POOLED 512u
/* A matrix value times its token's weight, in magnitude (static_model.c,
 * check_magnitude): no pooled sum can overflow. */
#define TSIFT_STATIC_MAX_MAGNITUDE 1e100
#define TSIFT_STATIC_TEXT_MAX_BYTES 65536u

/* ---- safetensors (static_model_st.c) ------------------------------------ */

typedef enum tsift_st_dtype {
  TSIFT_ST_F32 = 0,
  TSIFT_ST_F16,
  TSIFT_ST_BF16,
  TSIFT_ST_F64,
  TSIFT_ST_I8
} tsift_st_dtype;

/* A 1-D tensor beside the matrix (model2vec 0.7+): `n` elements of `size`
 * bytes at `data` (in the caller's bytes), of `dtype` (weights) or signed
 * integers (mapping); data NULL when the file has none. */
typedef struct tsift_st_1d {
  const uint8_t *data;
  size_t n;
  unsigned char size;
  tsift_st_dtype dtype;
} tsift_st_1d;

/* The embedding matrix found in a safetensors file: `data` points into the
 * caller's bytes (rows × cols elements of `dtype`, little-endian, row-major,
 * not necessarily aligned). `name` is the tensor's name (NUL-terminated,
 * cut to fit) and `meta_name` the __metadata__ "name" when it is a usable
 * model name ([a-z0-9._-], 1..32 bytes), else "". */
typedef struct tsift_st_matrix {
  const uint8_t *data;
  size_t rows, cols, elem_size;
  tsift_st_dtype dtype;
  char name[64];
  char meta_name[33];
  /* "weights": one finite scale per token id (F32, F16, BF16, F64);
   * "mapping": token id -> row (I32, I64), every entry below rows. */
  tsift_st_1d weights, mapping;
} tsift_st_matrix;

/* Read the file's header and pick the matrix: the tensor "embeddings"
 * (model2vec), else "embedding.weight" (sentence-transformers'
 * StaticEmbedding), else the only 2-D tensor. Every entry of the header is
 * checked (dtype known, shape of non-negative integers, offsets inside the
 * data and equal to the shape's byte size), and so is the layout, as the
 * reference library does: the tensors, in the order of their offsets, tile
 * the data from its first byte to its last — no overlap, no gap, no
 * trailing bytes. Errors are TSIFT_E_MODEL (or _LIMIT, _JSON, _UTF8,
 * _NOMEM) with "safetensors: …" messages. Nothing is kept allocated. */
tsift_status tsift_st_read_matrix(const uint8_t *bytes, size_t n, tsift_st_matrix *m, tsift_error *err);

/* Element (r, c) of the matrix as a double (exact for every dtype); one
 * element of a dtype at p. */
double tsift_st_value(const tsift_st_matrix *m, const uint8_t *data, size_t r, size_t c);
double tsift_st_at(tsift_st_dtype dtype, const uint8_t *p);

/* ---- the tokenizer: WordPiece (static_model_tok.c) or Unigram
 * (static_model_uni.c), one struct for both ------------------------------- */

/* Bounds of a Unigram tokenizer.json (docs/semantic.md): a piece's bytes
 * (the Viterbi search tries every length up to the longest piece at every
 * character) and the normalizer steps a Sequence may hold. */
#define TSIFT_STATIC_MAX_PIECE 1024u
#define TSIFT_STATIC_MAX_NORM_STEPS 256u

struct tsift_norm_step; /* static_model_uni.c */
struct tsift_added;     /* static_model_added.c */
struct cJSON;

typedef struct tsift_wordpiece {
  /* normalizer: BertNormalizer's options, or Lowercase alone, or none */
  unsigned char clean_text, chinese_chars, strip_accents, lowercase;
  /* pre_tokenizer: 1 BertPreTokenizer, 2 WhitespaceSplit, 0 none */
  unsigned char pretok;
  char prefix[TSIFT_STATIC_MAX_PREFIX + 1];
  size_t prefix_len;
  size_t max_chars;
  uint32_t unk_id;
  size_t rows;          /* ids are < rows */
  size_t count;         /* tokens in the vocabulary */
  size_t nids;          /* the highest token id + 1 (added tokens too): the vocabulary's size */
  size_t max_token_len; /* bytes of the longest token */
  char *arena;          /* every token's bytes, back to back */
  size_t used;          /* arena bytes filled */
  uint32_t *off, *len;  /* by id: the token's bytes in arena (len 0 + off 0: no token) */
  tsift_hash hash;      /* the tokens by their bytes (hash.h), sized once */
  /* model.type Unigram (static_model_uni.c); the fields above hold its
   * vocabulary the same way (unk_id UINT32_MAX: no unk_id) */
  unsigned char unigram, has_unk, byte_fallback;
  unsigned char metaspace;   /* pre_tokenizer: 1 Metaspace, 0 none */
  unsigned char prepend;     /* Metaspace prepend_scheme: 0 never, 1 always, 2 first */
  unsigned char split;       /* Metaspace split */
  int32_t replacement;       /* Metaspace replacement character */
  double *scores;            /* by id: the piece's log-probability */
  double unk_score;          /* the lowest score minus 10 */
  struct tsift_norm_step *steps; /* the normalizer, flattened */
  size_t nsteps;
  struct tsift_added *added; /* added_tokens matched in the text; NULL: none */
} tsift_wordpiece;

/* The vocabulary's hash is FNV-1a (hash.h): the tokenizers hash a token
 * one byte at a time with tsift_fnv_step as they scan. */

/* A growable array of code points. */
typedef struct tsift_cps {
  int32_t *v;
  size_t n, cap;
} tsift_cps;
int tsift_cps_push(tsift_cps *a, int32_t c); /* -1: out of memory */
/* s[0..len) decoded and appended to a (invalid UTF-8 reads as U+FFFD). -1: out of memory. */
int tsift_cps_decode(tsift_cps *a, const char *s, size_t len);

/* The vocabulary table of either model: allocate it (wp->rows and
 * wp->unigram set; scores too for Unigram), then add each token under its id
 * (the id of an equal token already there is returned instead, nothing
 * added; else -1). */
tsift_status tsift_vocab_alloc(tsift_wordpiece *wp, size_t count, size_t bytes, tsift_error *err);
long tsift_vocab_add(tsift_wordpiece *wp, uint32_t id, const char *s, size_t n);
/* A vocabulary of n tokens under TSIFT_STATIC_MAX_VOCAB, else a limit error naming key. */
tsift_status tsift_vocab_limit(size_t n, const char *key, tsift_error *err);

/* The id of token s[0..n) whose hash is h, or -1. */
long tsift_vocab_find_hashed(const tsift_wordpiece *wp, const char *s, size_t n, uint32_t h);

/* One character through the BertNormalizer whose options are wp's
 * clean_text, chinese_chars, strip_accents and lowercase, appended to out
 * (lowercase alone is the Lowercase normalizer). -1: out of memory. */
int tsift_bert_normalize_char(const tsift_wordpiece *wp, int32_t c, tsift_cps *out);

/* static_model_chars.c: a boolean option of a JSON object (absent: dflt; -1
 * when it is not a boolean), and BertNormalizer's four options read into
 * wp (each malformed one a model error). */
int tsift_bool_opt(const struct cJSON *o, const char *key, int dflt, int *out);
tsift_status tsift_read_bert(const struct cJSON *n, tsift_wordpiece *wp, tsift_error *err);

/* Rust's char::is_whitespace. */
int tsift_is_white_space(int32_t c);

/* static_model_uni.c: read a parsed tokenizer.json whose model.type is
 * "Unigram" into wp (wp->rows set; on failure the caller frees wp); free
 * its parts. */
tsift_status tsift_unigram_read(const struct cJSON *root, tsift_wordpiece *wp, tsift_error *err);
void tsift_unigram_free(tsift_wordpiece *wp);
/* The Unigram model's two halves: the normalizer over a (b: scratch; *zero
 * as static_model_uni.c says), and Metaspace + Unigram over a normalised
 * piece (first: the piece starts at the text's first character). -1: out of
 * memory; the pieces' 1: emit asked to stop. */
int tsift_unigram_normalize(const tsift_wordpiece *wp, tsift_cps *a, tsift_cps *b, size_t *zero);
int tsift_unigram_pieces(const tsift_wordpiece *wp, const int32_t *v, size_t n, int first,
                         int (*emit)(void *user, uint32_t id), void *user);

/* static_model_added.c: tokenizer.json's added_tokens (read after the
 * model, with the model's normalizer `norm` for the normalized ones; into
 * wp->added, freed with wp), and a text split by them as the library does:
 * segments covering v[0..n) (id UINT32_MAX: text for the model; they may
 * overlap where the library's do), by the raw (which 0) or the normalized
 * (which 1) tokens. -1: out of memory. */
typedef int (*tsift_added_norm)(const tsift_wordpiece *wp, tsift_cps *a, tsift_cps *b, size_t *zero);
typedef struct tsift_added_seg {
  size_t start, end;
  uint32_t id;
} tsift_added_seg;
tsift_status tsift_added_read(const struct cJSON *list, tsift_wordpiece *wp, tsift_added_norm norm, tsift_error *err);
int tsift_added_split(const tsift_wordpiece *wp, int which, const int32_t *v, size_t n, tsift_added_seg **out,
                      size_t *count, size_t *cap);
void tsift_added_free(tsift_wordpiece *wp);

/* Read a Hugging Face tokenizer.json (model WordPiece or Unigram) whose ids must all be
 * below `rows`. Errors name the key ("tokenizer.json: model.vocab: …"). On
 * failure *wp holds nothing. */
tsift_status tsift_wordpiece_load(const char *json, size_t n, size_t rows, tsift_wordpiece *wp,
                                  tsift_error *err);
void tsift_wordpiece_free(tsift_wordpiece *wp);

/* Called for every token of the text in order, [UNK] included; a non-zero
 * return stops the walk. */
typedef int (*tsift_wordpiece_emit)(void *user, uint32_t id);

/* Normalise, pre-tokenise and WordPiece-split text[0..len) (invalid UTF-8
 * reads as U+FFFD, which the clean_text option drops). Only TSIFT_E_NOMEM
 * can fail. */
tsift_status tsift_wordpiece_encode(const tsift_wordpiece *wp, const char *text, size_t len,
                                    tsift_wordpiece_emit emit, void *user, tsift_error *err);

/* The token with this id (NULL when the vocabulary has none). */
const char *tsift_wordpiece_token(const tsift_wordpiece *wp, uint32_t id, size_t *len);

/* ---- the model (static_model.c) -------------------------------------------- */

/* tsift_static_model_load over a safetensors buffer from tsift_alloc_bytes
 * that the model takes over and reads in place instead of copying its matrix
 * (also when loading fails: it is freed then). For the wasm host, which
 * already copied the file into linear memory: one copy of the matrix, not two. */
tsift_status tsift_static_model_load_take(uint8_t *safetensors, size_t safetensors_len, const char *tokenizer_json,
                                          size_t tokenizer_len, tsift_static_model **out, tsift_error *err);

/* tsift_static_model_load_take with flags (tsift_static_model_load_flags). */
tsift_status tsift_static_model_load_take_flags(uint8_t *safetensors, size_t safetensors_len,
                                                const char *tokenizer_json, size_t tokenizer_len, unsigned flags,
                                                tsift_static_model **out, tsift_error *err);

/* ---- calibrated fusion parameters (static_model_config.c) -------------- */

/* Set the model's parameters (config.json's, checked); NULL from
 * tsift_static_model_fusion until set: the defaults apply. */
void tsift_static_model_set_fusion(tsift_static_model *model, const tsift_fusion_params *p);
const tsift_fusion_params *tsift_static_model_fusion(const tsift_static_model *model);

#endif
