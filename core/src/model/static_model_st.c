/* static_model_st.c — the safetensors reader of the static-embedding model:
 * an 8-byte little-endian header length, a JSON header naming each tensor's
 * dtype, shape and byte range, then the data. The file is hostile until
 * every number in its header has been checked against the bytes there are:
 * nothing here reads past `n`, and every product is overflow-checked. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/catalog.h"
#include "model/static_model.h"
#include "json/json_read.h"

/* Element sizes of the dtypes safetensors defines; the matrix may only be
 * one of the first five (tsift_st_dtype order). */
static const struct {
  const char *name;
  unsigned char size;
} DTYPES[] = {
    {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"F64", 8}, {"I8", 1},
    {"BOOL", 1}, {"U8", 1}, {"F8_E5M2", 1}, {"F8_E4M3", 1}, {"I16", 2}, {"U16", 2},
    {"I32", 4}, {"U32", 4}, {"I64", 8}, {"U64", 8},
};
#define N_DTYPES (sizeof DTYPES / sizeof DTYPES[0])
#define N_MATRIX_DTYPES 5
/* JSON integers cJSON holds exactly (doubles). */
#define MAX_EXACT 9007199254740991.0

/* "safetensors: tensor "NAME": WHAT" */
static tsift_status bad(tsift_error *err, const char *name, const char *what) {
  return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%.60s\": %s", name, what);
}

/* One header entry checked: dtype known, shape integers, offsets inside the
 * data and equal to the shape's size. *dtype is its DTYPES index. */
static tsift_status check_entry(const cJSON *e, size_t data_len, int *dtype, size_t *dims, size_t shape[2],
                                size_t *begin, tsift_error *err) {
  const char *name = e->string;
  if (!cJSON_IsObject(e)) return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%.60s\": expected an object, got %s", name,
                      tsift_json_type_name(e));
  const cJSON *dt = cJSON_GetObjectItemCaseSensitive(e, "dtype");
  const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shape");
  const cJSON *off = cJSON_GetObjectItemCaseSensitive(e, "data_offsets");
  if (!cJSON_IsString(dt)) return bad(err, name, "\"dtype\" must be a string");
  *dtype = -1;
  for (size_t i = 0; i < N_DTYPES; i++)
    if (strcmp(dt->valuestring, DTYPES[i].name) == 0) *dtype = (int)i;
  if (*dtype < 0) return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%.60s\": unknown dtype \"%.20s\"", name,
                      dt->valuestring);
  if (!cJSON_IsArray(sh)) return bad(err, name, "\"shape\" must be an array");
  /* elements = product of the shape, overflow-checked against the data. */
  size_t elems = 1, nd = 0;
  for (const cJSON *d = sh->child; d; d = d->next, nd++) {
    if (!tsift_json_integral(d, 0, MAX_EXACT))
      return bad(err, name, "\"shape\" must hold non-negative integers");
    if (d->valuedouble > (double)((size_t)-1 >> 1))
      return bad(err, name, "shape too large");
    size_t v = (size_t)d->valuedouble;
    if (v && elems > (size_t)-1 / v)
      return bad(err, name, "shape too large");
    elems *= v;
    if (nd < 2) shape[nd] = v;
  }
  *dims = nd;
  if (!cJSON_IsArray(off) || cJSON_GetArraySize(off) != 2 || !tsift_json_integral(off->child, 0, MAX_EXACT) ||
      !tsift_json_integral(off->child->next, 0, MAX_EXACT))
    return bad(err, name, "\"data_offsets\" must be [begin, end], two non-negative integers");
  double a = off->child->valuedouble, b = off->child->next->valuedouble;
  if (a > b) return bad(err, name, "data_offsets begin after they end");
  if (b > (double)data_len)
    return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%.60s\": data_offsets end at %.0f, past the %zu data bytes",
                      name, b, data_len);
  size_t size = DTYPES[*dtype].size;
  if (elems > (size_t)-1 / size || (size_t)(b - a) != elems * size)
    return tsift_fail(err, TSIFT_E_MODEL,
                      "safetensors: tensor \"%.60s\": data_offsets span %.0f bytes but shape × %s is %zu elements",
                      name, b - a, DTYPES[*dtype].name, elems);
  *begin = (size_t)a;
  return TSIFT_OK;
}

/* __metadata__: an object of strings; its "name", when usable as a model id. */
static tsift_status read_metadata(const cJSON *meta, tsift_st_matrix *m, tsift_error *err) {
  if (!cJSON_IsObject(meta)) return tsift_fail(err, TSIFT_E_MODEL, "safetensors: \"__metadata__\" must be an object of strings");
  for (const cJSON *kv = meta->child; kv; kv = kv->next)
    if (!cJSON_IsString(kv)) return tsift_fail(err, TSIFT_E_MODEL, "safetensors: \"__metadata__\" value \"%.60s\" is not a string", kv->string);
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(meta, "name");
  if (!nm) return TSIFT_OK;
  size_t n = strlen(nm->valuestring);
  if (n == 0 || n >= sizeof m->meta_name) return TSIFT_OK;
  for (size_t i = 0; i < n; i++) {
    char c = nm->valuestring[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) return TSIFT_OK;
  }
  memcpy(m->meta_name, nm->valuestring, n + 1);
  return TSIFT_OK;
}

/* Which entry is the matrix: "embeddings", "embedding.weight", else the only
 * 2-D one. */
static tsift_status pick(const cJSON *root, const cJSON **chosen, tsift_error *err) {
  const cJSON *named = cJSON_GetObjectItemCaseSensitive(root, "embeddings");
  if (!named) named = cJSON_GetObjectItemCaseSensitive(root, "embedding.weight");
  if (named) {
    *chosen = named;
    return TSIFT_OK;
  }
  const cJSON *two_d = NULL;
  size_t count = 0;
  for (const cJSON *e = root->child; e; e = e->next) {
    if (strcmp(e->string, "__metadata__") == 0) continue;
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shape");
    if (cJSON_GetArraySize(sh) == 2) {
      two_d = e;
      count++;
    }
  }
  if (count != 1)
    return tsift_fail(err, TSIFT_E_MODEL,
                      "safetensors: no tensor \"embeddings\" and %zu two-dimensional tensors (expected exactly one)", count);
  *chosen = two_d;
  return TSIFT_OK;
}

/* A tensor's bytes in the data, [begin, end), and its place in the header. */
typedef struct span {
  size_t begin, end, order;
  const char *name;
} span;

static int span_cmp(const void *pa, const void *pb) {
  const span *a = pa, *b = pb;
  if (a->begin != b->begin) return a->begin < b->begin ? -1 : 1;
  if (a->end != b->end) return a->end < b->end ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* The layout, after every entry passed check_entry: sorted by (begin, end),
 * each tensor begins where the one before it ends, the first at 0, and the
 * last ends at the end of the data — the reference library's rule
 * (huggingface/safetensors: Metadata::validate, then "file not fully
 * covered"). So no two tensors share a byte (an empty one may sit where
 * another begins or ends) and no byte is in no tensor: a file padded with
 * gigabytes of zeros after its last tensor is refused. */
static tsift_status check_layout(const cJSON *root, const cJSON *meta, size_t data_len, tsift_error *err) {
  size_t n = 0;
  for (const cJSON *e = root->child; e; e = e->next) n += e != meta;
  if (n == 0) {
    if (data_len == 0) return TSIFT_OK;
    return tsift_fail(err, TSIFT_E_MODEL, "safetensors: data bytes 0..%zu are in no tensor (the header names none)",
                      data_len);
  }
  span *s = tsift_calloc_array(n, sizeof *s);
  if (!s) return tsift_nomem(err, "checking the safetensors layout");
  size_t i = 0;
  for (const cJSON *e = root->child; e; e = e->next) {
    if (e == meta) continue;
    const cJSON *off = cJSON_GetObjectItemCaseSensitive(e, "data_offsets"); /* checked: two integers <= data_len */
    s[i] = (span){(size_t)off->child->valuedouble, (size_t)off->child->next->valuedouble, i, e->string};
    i++;
  }
  if (n > 1) qsort(s, n, sizeof *s, span_cmp);
  tsift_status st = TSIFT_OK;
  size_t at = 0; /* where the next tensor must begin */
  for (i = 0; i < n && !st; i++) {
    if (s[i].begin < at)
      st = tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensors \"%.60s\" (bytes %zu..%zu) and \"%.60s\" (bytes %zu..%zu) overlap",
                      s[i - 1].name, s[i - 1].begin, s[i - 1].end, s[i].name, s[i].begin, s[i].end);
    else if (s[i].begin > at && i == 0)
      st = tsift_fail(err, TSIFT_E_MODEL, "safetensors: data bytes 0..%zu are in no tensor (the first, \"%.60s\", begins at %zu)",
                      s[i].begin, s[i].name, s[i].begin);
    else if (s[i].begin > at)
      st = tsift_fail(err, TSIFT_E_MODEL, "safetensors: data bytes %zu..%zu are in no tensor (between \"%.60s\" and \"%.60s\")",
                      at, s[i].begin, s[i - 1].name, s[i].name);
    at = s[i].end;
  }
  if (!st && at != data_len)
    st = tsift_fail(err, TSIFT_E_MODEL,
                    "safetensors: data bytes %zu..%zu are in no tensor (%zu bytes after the last, \"%.60s\")", at,
                    data_len, data_len - at, s[n - 1].name);
  tsift_free(s);
  return st;
}

static uint64_t le(const uint8_t *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

double tsift_st_at(tsift_st_dtype dtype, const uint8_t *p);

/* "weights" or "mapping" (model2vec 0.7+), when the header has it: 1-D, of
 * a float dtype (weights: each finite) or I32/I64 (mapping: each a row of
 * the matrix), at most TSIFT_STATIC_MAX_VOCAB entries. Whether it has one
 * entry per token id is checked against the tokenizer (static_model.c). */
static tsift_status read_1d(const cJSON *root, const char *name, const uint8_t *data, size_t data_len,
                            tsift_st_matrix *m, tsift_st_1d *t, tsift_error *err) {
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, name);
  if (!e) return TSIFT_OK;
  int dtype = 0, map = name[0] == 'm';
  size_t dims = 0, shape[2] = {0, 0}, begin = 0;
  check_entry(e, data_len, &dtype, &dims, shape, &begin, err); /* checked: its numbers again */
  if (dims != 1)
    return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%s\" has %zu dimensions, expected 1 ([vocab])", name, dims);
  if (map ? dtype != 11 && dtype != 13 : dtype >= N_MATRIX_DTYPES - 1)
    return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%s\": dtype %s is not supported (%s)", name,
                      DTYPES[dtype].name, map ? "I32, I64" : "F32, F16, BF16, F64");
  if (shape[0] > TSIFT_STATIC_MAX_VOCAB)
    return tsift_fail(err, TSIFT_E_LIMIT, "safetensors: tensor \"%s\": %zu entries is over the limit of %u tokens", name,
                      shape[0], TSIFT_STATIC_MAX_VOCAB);
  *t = (tsift_st_1d){data + begin, shape[0], DTYPES[dtype].size, (tsift_st_dtype)dtype};
  for (size_t i = 0; i < t->n; i++) {
    const uint8_t *p = t->data + i * t->size;
    if (map) {
      int64_t v = (int64_t)le(p, t->size);
      if (t->size == 4) v = (int32_t)v;
      if (v < 0 || (uint64_t)v >= m->rows)
        return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"mapping\": entry %zu is %lld, not a row of \"%s\" (0 to %zu)",
                          i, (long long)v, m->name, m->rows - 1);
    } else {
      double v = tsift_st_at(t->dtype, p);
      if (v != v || v - v != 0)
        return tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"weights\": entry %zu is %s", i,
                          v != v ? "NaN" : "infinite");
    }
  }
  return TSIFT_OK;
}

/* long: the header's checks in file order, each with its own message. */
tsift_status tsift_st_read_matrix(const uint8_t *bytes, size_t n, tsift_st_matrix *m, tsift_error *err) {
  memset(m, 0, sizeof *m);
  if (!bytes && n) return tsift_fail(err, TSIFT_E_ARG, "safetensors: NULL input");
  if (n < 8) return tsift_fail(err, TSIFT_E_MODEL, "safetensors: %zu bytes, shorter than the 8-byte header length", n);
  if (n > TSIFT_STATIC_MAX_FILE)
    return tsift_fail(err, TSIFT_E_LIMIT, "safetensors: %zu bytes, over the %u-byte limit of a model file", n,
                      TSIFT_STATIC_MAX_FILE);
  uint64_t hlen = 0;
  for (int i = 7; i >= 0; i--) hlen = (hlen << 8) | bytes[i];
  if (hlen > n - 8)
    return tsift_fail(err, TSIFT_E_MODEL, "safetensors: header length %llu is past the end of the file (%zu bytes)",
                      (unsigned long long)hlen, n);
  if (hlen > TSIFT_STATIC_MAX_HEADER)
    return tsift_fail(err, TSIFT_E_LIMIT, "safetensors: header length %llu is over the %u-byte limit",
                      (unsigned long long)hlen, TSIFT_STATIC_MAX_HEADER);
  if (hlen < 2 || bytes[8] != '{')
    return tsift_fail(err, TSIFT_E_MODEL, "safetensors: the header (bytes 8..%llu) is not a JSON object",
                      (unsigned long long)(8 + hlen));
  cJSON *root = NULL;
  tsift_status st = tsift_json_parse((const char *)bytes + 8, (size_t)hlen, "safetensors header", &root, err);
  if (st) return st;
  if (!cJSON_IsObject(root)) {
    cJSON_Delete(root);
    return tsift_fail(err, TSIFT_E_MODEL, "safetensors: the header is not a JSON object");
  }
  size_t data_len = n - 8 - (size_t)hlen;
  const uint8_t *data = bytes + 8 + hlen;
  const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "__metadata__");
  if (meta && (st = read_metadata(meta, m, err))) goto done;
  int dtype = 0;
  size_t dims = 0, shape[2] = {0, 0}, begin = 0;
  for (const cJSON *e = root->child; e; e = e->next) {
    if (e == meta) continue;
    if ((st = check_entry(e, data_len, &dtype, &dims, shape, &begin, err))) goto done;
  }
  if ((st = check_layout(root, meta, data_len, err))) goto done;
  const cJSON *chosen = NULL;
  if ((st = pick(root, &chosen, err))) goto done;
  check_entry(chosen, data_len, &dtype, &dims, shape, &begin, err); /* checked above: its numbers again */
  size_t cut = strlen(chosen->string);
  if (cut >= sizeof m->name) cut = sizeof m->name - 1;
  memcpy(m->name, chosen->string, cut);
  m->name[cut] = 0;
  if (dims != 2) {
    st = tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%s\" has %zu dimensions, expected 2 ([vocab, dim])",
                    m->name, dims);
  } else if (dtype >= N_MATRIX_DTYPES) {
    st = tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%s\": dtype %s is not supported (F32, F16, BF16, F64, I8)",
                    m->name, DTYPES[dtype].name);
  } else if (shape[0] == 0 || shape[1] == 0) {
    st = tsift_fail(err, TSIFT_E_MODEL, "safetensors: tensor \"%s\" is empty (shape [%zu, %zu])", m->name, shape[0], shape[1]);
  } else if (shape[1] > TSIFT_STATIC_MAX_DIM) {
    st = tsift_fail(err, TSIFT_E_LIMIT, "safetensors: tensor \"%s\": dimension %zu is over the limit of %u", m->name,
                    shape[1], TSIFT_STATIC_MAX_DIM);
  } else if (shape[0] > TSIFT_STATIC_MAX_ROWS) {
    st = tsift_fail(err, TSIFT_E_LIMIT, "safetensors: tensor \"%s\": %zu rows is over the limit of %u", m->name,
                    shape[0], TSIFT_STATIC_MAX_ROWS);
  } else if (shape[0] * shape[1] * DTYPES[dtype].size > TSIFT_STATIC_MAX_MATRIX) {
    st = tsift_fail(err, TSIFT_E_LIMIT, "safetensors: tensor \"%s\": %zu bytes is over the limit of %u", m->name,
                    shape[0] * shape[1] * DTYPES[dtype].size, TSIFT_STATIC_MAX_MATRIX);
  } else {
    m->data = data + begin;
    m->rows = shape[0];
    m->cols = shape[1];
    m->elem_size = DTYPES[dtype].size;
    m->dtype = (tsift_st_dtype)dtype;
    st = read_1d(root, "weights", data, data_len, m, &m->weights, err);
    if (!st) st = read_1d(root, "mapping", data, data_len, m, &m->mapping, err);
  }
done:
  cJSON_Delete(root);
  return st;
}

/* IEEE half → double by its fields: exact (every half is a double). */
static double half_value(uint32_t h) {
  uint32_t e = (h >> 10) & 31, f = h & 1023;
  double v;
  if (e == 31) v = f ? __builtin_nan("") : __builtin_inf(); /* refused at load (check_finite) */
  else if (e == 0) v = (double)f / 16777216.0; /* subnormal: f × 2^-24 */
  else {
    v = (double)(f + 1024);
    int x = (int)e - 25; /* (1024 + f) × 2^(e-25) */
    for (; x > 0; x--) v *= 2.0;
    for (; x < 0; x++) v *= 0.5;
  }
  return (h & 0x8000) ? -v : v;
}

double tsift_st_value(const tsift_st_matrix *m, const uint8_t *data, size_t r, size_t c) {
  return tsift_st_at(m->dtype, data + (r * m->cols + c) * m->elem_size);
}

double tsift_st_at(tsift_st_dtype dtype, const uint8_t *p) {
  switch (dtype) {
    case TSIFT_ST_F32: {
      uint32_t u = (uint32_t)le(p, 4);
      float f;
      memcpy(&f, &u, 4);
      return (double)f;
    }
    case TSIFT_ST_BF16: {
      uint32_t u = (uint32_t)le(p, 2) << 16;
      float f;
      memcpy(&f, &u, 4);
      return (double)f;
    }
    case TSIFT_ST_F64: {
      uint64_t u = le(p, 8);
      double d;
      memcpy(&d, &u, 8);
      return d;
    }
    case TSIFT_ST_F16: return half_value((uint32_t)le(p, 2));
    case TSIFT_ST_I8: return (double)(int8_t)p[0];
  }
  return 0;
}
