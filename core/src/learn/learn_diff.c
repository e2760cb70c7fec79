/* learn_diff.c — what a new learned vocabulary would change against the
 * one in use (docs/learning.md, "Review"): per tool, the labels it would
 * add and drop, each with its evidence from the file that has it, so an
 * operator reviews words and counts, never requests. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "catalog/catalog.h"
#include "json/json_check.h"
#include "json/json_out.h"
#include "text/text.h"
#include "toolsift.h"
#include "json/json_read.h"

static const char *const k_lists[] = {"aliases", "tags"};

/* A vocabulary's "annotations" object; TSIFT_E_CONFIG naming `which` when
 * the document is not one. */
static tsift_status annotations_of(const cJSON *doc, const char *which, const cJSON **out, tsift_error *err) {
  *out = cJSON_GetObjectItemCaseSensitive(doc, "annotations");
  if (!cJSON_IsObject(doc) || !cJSON_IsObject(*out))
    return tsift_fail(err, TSIFT_E_CONFIG, "learn diff: %s: expected a vocabulary {\"annotations\": {…}}", which);
  const cJSON *entry, *list, *label;
  cJSON_ArrayForEach(entry, *out) {
    if (!cJSON_IsObject(entry))
      return tsift_fail(err, TSIFT_E_CONFIG, "learn diff: %s: annotations[\"%.60s\"]: expected an object", which,
                        entry->string);
    cJSON_ArrayForEach(list, entry) {
      if (strcmp(list->string, "tags") != 0 && strcmp(list->string, "aliases") != 0)
        return tsift_fail(err, TSIFT_E_CONFIG, "learn diff: %s: annotations[\"%.60s\"]: unknown key \"%.40s\"", which,
                          entry->string, list->string);
      if (!cJSON_IsArray(list))
        return tsift_fail(err, TSIFT_E_CONFIG, "learn diff: %s: annotations[\"%.60s\"].%s: expected an array", which,
                          entry->string, list->string);
      cJSON_ArrayForEach(label, list) if (!cJSON_IsString(label)) return tsift_fail(
          err, TSIFT_E_CONFIG, "learn diff: %s: annotations[\"%.60s\"].%s: expected strings", which, entry->string,
          list->string);
    }
  }
  return TSIFT_OK;
}

/* Whether list `key` of tool entry `entry` has `label` (after the label
 * rule: case, width and white space do not make another label). */
static int has_label(const cJSON *entry, const char *key, const char *label, int *nomem) {
  char *want = NULL;
  size_t wl = 0;
  tsift_error err;
  if (tsift_label_normalize(label, strlen(label), &want, &wl, &err)) {
    *nomem |= err.status == TSIFT_E_NOMEM;
    return 0;
  }
  int found = 0;
  const cJSON *item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(entry, key)) {
    char *have = NULL;
    size_t hl = 0;
    if (tsift_label_normalize(item->valuestring, strlen(item->valuestring), &have, &hl, &err)) {
      *nomem |= err.status == TSIFT_E_NOMEM;
      continue;
    }
    found |= hl == wl && memcmp(have, want, wl) == 0;
    tsift_free(have);
  }
  tsift_free(want);
  return found;
}

/* The labels of `entry` (in `doc`) that `other` lacks, per list, with their
 * evidence; the number written. */
static size_t write_changes(tsift_buf *b, const char *key, const cJSON *doc, const char *id, const cJSON *entry,
                            const cJSON *other, int *nomem) {
  size_t n = 0;
  const cJSON *evidence = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "evidence"), id);
  for (size_t k = 0; k < 2; k++) {
    const cJSON *label;
    cJSON_ArrayForEach(label, cJSON_GetObjectItemCaseSensitive(entry, k_lists[k])) {
      if (other && has_label(other, k_lists[k], label->valuestring, nomem)) continue;
      if (!n++) {
        tsift_json_key(b, key);
        tsift_json_begin_array(b);
      }
      tsift_json_begin_object(b);
      tsift_json_key_cstr(b, "label", label->valuestring);
      tsift_json_key_cstr(b, "list", k_lists[k]);
      const cJSON *ev = cJSON_GetObjectItemCaseSensitive(evidence, label->valuestring), *f;
      if (cJSON_IsObject(ev)) /* the counts the file recorded, as they are */
        cJSON_ArrayForEach(f, ev) if (cJSON_IsNumber(f)) {
          tsift_json_key(b, f->string);
          if (tsift_json_integral(f, 0, 9007199254740992.0)) tsift_json_int(b, (long long)f->valuedouble);
          else tsift_json_score(b, f->valuedouble);
        }
      tsift_json_end_object(b);
    }
  }
  if (n) tsift_json_end_array(b);
  return n;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

tsift_status tsift_learn_diff_json(const char *old_json, size_t old_len, const char *new_json, size_t new_len,
                                   char **out, size_t *out_len, tsift_error *err) {
  if (!out || (!old_json && old_len) || (!new_json && new_len))
    return tsift_fail(err, TSIFT_E_ARG, "tsift_learn_diff_json: NULL argument");
  *out = NULL;
  cJSON *a = NULL, *b = NULL;
  const cJSON *aa = NULL, *ba = NULL;
  tsift_status st = tsift_json_parse(old_json ? old_json : "", old_len, "learn diff: the old vocabulary", &a, err);
  if (!st) st = tsift_json_parse(new_json ? new_json : "", new_len, "learn diff: the new vocabulary", &b, err);
  if (!st) st = annotations_of(a, "the old vocabulary", &aa, err);
  if (!st) st = annotations_of(b, "the new vocabulary", &ba, err);
  /* Every tool either names, in id order. */
  size_t n = 0, cap = (size_t)cJSON_GetArraySize(aa) + (size_t)cJSON_GetArraySize(ba);
  const char **ids = st ? NULL : tsift_calloc_array(cap + 1, sizeof *ids);
  if (!st && !ids) st = tsift_nomem(err, "comparing vocabularies");
  const cJSON *e;
  if (!st) {
    cJSON_ArrayForEach(e, aa) ids[n++] = e->string;
    cJSON_ArrayForEach(e, ba) if (!cJSON_GetObjectItemCaseSensitive(aa, e->string)) ids[n++] = e->string;
    qsort(ids, n, sizeof *ids, cmp_str);
  }
  tsift_buf o;
  tsift_buf_init(&o);
  size_t added = 0, removed = 0, tools = 0;
  int nomem = 0;
  if (!st) {
    tsift_json_begin_object(&o);
    tsift_json_key(&o, "tools");
    tsift_json_begin_array(&o);
    for (size_t i = 0; i < n; i++) {
      const cJSON *was = cJSON_GetObjectItemCaseSensitive(aa, ids[i]), *now = cJSON_GetObjectItemCaseSensitive(ba, ids[i]);
      tsift_buf t;
      tsift_buf_init(&t);
      tsift_json_begin_object(&t);
      tsift_json_key_cstr(&t, "id", ids[i]);
      size_t plus = now ? write_changes(&t, "added", b, ids[i], now, was, &nomem) : 0;
      size_t minus = was ? write_changes(&t, "removed", a, ids[i], was, now, &nomem) : 0;
      tsift_json_end_object(&t);
      if (t.failed) nomem = 1;
      else if (plus + minus) {
        tsift_json_raw(&o, t.data, t.len);
        tools++;
      }
      added += plus;
      removed += minus;
      tsift_buf_free(&t);
    }
    tsift_json_end_array(&o);
    tsift_json_key_int(&o, "toolsChanged", (long long)tools);
    tsift_json_key_int(&o, "added", (long long)added);
    tsift_json_key_int(&o, "removed", (long long)removed);
    tsift_json_end_object(&o);
    if (nomem) o.failed = 1;
  }
  tsift_free(ids);
  cJSON_Delete(a);
  cJSON_Delete(b);
  return tsift_buf_finish_unless(st, &o, out, out_len, "comparing vocabularies", err);
}
