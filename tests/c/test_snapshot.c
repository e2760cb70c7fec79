/* test_snapshot.c — index snapshots (SPEC S11): byte-identical results after
 * a round trip; every corruption class is a typed error, never a crash. */
#include <stdlib.h>

#include "harness.h"
#include "cJSON.h"
#include "base/alloc.h"
#include "base/checksum.h"
#include "index/index.h"
#include "json/json_out.h"
#include "toolsift.h"

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static const char *QUERIES[] = {"create a github issue", "list database tables", "send a slack message",
                                "翻译文本", "Straße", "refund a payment", "kubernetes pods logs",
                                "zzqx", "the", "createPullRequest"};

static void search_all(tsift_index *ix, char *dst, size_t cap) {
  size_t o = 0;
  dst[0] = 0;
  for (size_t i = 0; i < sizeof QUERIES / sizeof *QUERIES; i++) {
    char *out = NULL;
    size_t len = 0;
    tsift_error err;
    if (tsift_index_search_json(ix, QUERIES[i], strlen(QUERIES[i]), "{\"explain\":true,\"limit\":20}", 27,
                                &out, &len, &err) == TSIFT_OK &&
        o + len + 1 < cap) {
      memcpy(dst + o, out, len);
      o += len;
      dst[o] = 0;
    }
    tsift_free(out);
  }
}

/* 1 when b ranks every one of the nq queries' top 20 as a does (tools and
 * scores): what a verified index must do, whatever else a crafted blob
 * changed. */
static int same_answers_to(const tsift_index *a, const tsift_index *b, const char *const *queries, size_t nq) {
  for (size_t i = 0; i < nq; i++) {
    tsift_hit ha[20], hb[20];
    size_t na = 0, nb = 0;
    tsift_error err;
    if (tsift_index_search(a, queries[i], strlen(queries[i]), 20, ha, &na, &err) != TSIFT_OK ||
        tsift_index_search(b, queries[i], strlen(queries[i]), 20, hb, &nb, &err) != TSIFT_OK || na != nb)
      return 0;
    for (size_t k = 0; k < na; k++)
      if (ha[k].tool != hb[k].tool || ha[k].score != hb[k].score) return 0;
  }
  return 1;
}

static int same_answers(const tsift_index *a, const tsift_index *b) {
  return same_answers_to(a, b, QUERIES, sizeof QUERIES / sizeof *QUERIES);
}

static tsift_status load(const char *bytes, size_t len, tsift_error *err) {
  tsift_index *ix = NULL;
  tsift_status st = tsift_index_from_snapshot(bytes, len, &ix, err);
  if (st == TSIFT_OK) {
    char *out = NULL;
    size_t n;
    tsift_index_search_json(ix, "issue", 5, NULL, 0, &out, &n, err); /* usable */
    tsift_free(out);
  } else {
    CHECK(ix == NULL);
  }
  tsift_index_free(ix);
  return st;
}

/* Re-seal a blob after an edit, so the structure checks (not the checksum)
 * must catch it. */
static void reseal(char *blob, size_t len) {
  uint64_t sum = tsift_checksum64(blob, len - 8);
  for (int i = 0; i < 8; i++) blob[len - 8 + i] = (char)(unsigned char)(sum >> (8 * i));
}

/* Where the tool count of a snapshot is (snapshot.c's header layout: the
 * strings, the weights and sums, the stopwords, the vectors' model). */
static size_t tools_count_at(const char *blob) {
  size_t p = 12;
#define U32_AT(q) ((uint32_t)(unsigned char)blob[q] | (uint32_t)(unsigned char)blob[(q) + 1] << 8 | \
                   (uint32_t)(unsigned char)blob[(q) + 2] << 16 | (uint32_t)(unsigned char)blob[(q) + 3] << 24)
  for (int i = 0; i < 4; i++) p += 4 + U32_AT(p);
  p = (p + 1 + 3) / 4 * 4 + 13 * 8;
  uint32_t nstop = U32_AT(p);
  p += 4;
  for (uint32_t i = 0; i < nstop; i++) p += 4 + U32_AT(p);
  p = (p + 3) / 4 * 4;
  p += 4 + U32_AT(p) + 4; /* the vectors' model id and dimension */
  p = (p + 3) / 4 * 4;
  p += 4 + U32_AT(p); /* the vocabulary's digest (format 6) */
  return (p + 3) / 4 * 4;
#undef U32_AT
}

/* A session over a snapshot answers exactly as one over the catalog. */
static void test_session_over_snapshot(const char *catalog, size_t cat_len) {
  tsift_index *ix = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_build(catalog, cat_len, NULL, 0, &ix, &err), TSIFT_OK);
  char *blob = NULL;
  size_t len = 0;
  tsift_index_snapshot(ix, &blob, &len, &err);
  tsift_index_free(ix);
  const char *search = "\"search\":{\"maxPerSearch\":3,\"alwaysLoaded\":[\"github__create_issue\"]}";
  size_t cfg_cap = cat_len + 256;
  char *with_catalog = malloc(cfg_cap);
  snprintf(with_catalog, cfg_cap, "{\"loop\":\"s\",\"catalog\":%.*s,%s}", (int)cat_len, catalog, search);
  char without[256];
  snprintf(without, sizeof without, "{\"loop\":\"s\",%s}", search);
  tsift_session *a = NULL, *b = NULL;
  CHECK_EQ_INT(tsift_session_new(with_catalog, strlen(with_catalog), NULL, 0, NULL, 0, &a, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_session_new_from_snapshot(without, strlen(without), blob, len, NULL, 0, NULL, 0, &b, &err),
               TSIFT_OK);
  const char *queries[] = {"send a slack message", "list database tables", "refund a payment"};
  for (unsigned i = 0; a && b && i < 3; i++) {
    char args[128];
    snprintf(args, sizeof args, "{\"query\":\"%s\"}", queries[i]);
    char *oa = NULL, *ob = NULL;
    size_t n;
    tsift_session_call(a, i, 0, "search_tools", 12, args, strlen(args), &oa, &n, &err);
    tsift_session_call(b, i, 0, "search_tools", 12, args, strlen(args), &ob, &n, &err);
    CHECK(oa && ob && strcmp(oa, ob) == 0);
    tsift_free(oa);
    tsift_free(ob);
  }
  char *ma = NULL, *mb = NULL;
  size_t n;
  if (a && b) {
    tsift_session_menu_json(a, "openai", &ma, &n, &err);
    tsift_session_menu_json(b, "openai", &mb, &n, &err);
    CHECK(ma && mb && strcmp(ma, mb) == 0);
  }
  tsift_free(ma);
  tsift_free(mb);
  tsift_session_free(a);
  tsift_session_free(b);
  /* The snapshot fixes the catalog and the stopwords; it must be whole. */
  tsift_session *s = NULL;
  CHECK_EQ_INT(tsift_session_new_from_snapshot(with_catalog, strlen(with_catalog), blob, len, NULL, 0, NULL, 0,
                                               &s, &err),
               TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "config: catalog: not allowed with a snapshot");
  const char *stop = "{\"search\":{\"stopwords\":[]}}";
  CHECK_EQ_INT(tsift_session_new_from_snapshot(stop, strlen(stop), blob, len, NULL, 0, NULL, 0, &s, &err),
               TSIFT_E_CONFIG);
  CHECK_CONTAINS(err.message, "search.stopwords: fixed by the snapshot");
  CHECK_EQ_INT(tsift_session_new_from_snapshot(without, strlen(without), blob, len / 2, NULL, 0, NULL, 0, &s, &err),
               TSIFT_E_SNAPSHOT);
  CHECK(s == NULL);
  tsift_free(blob);
  blob = NULL;
  /* A strict-id snapshot backs a session as well as a default one. */
  CHECK_EQ_INT(tsift_index_build(catalog, cat_len, "{\"ids\":\"strict\"}", 16, &ix, &err), TSIFT_OK);
  tsift_index_snapshot(ix, &blob, &len, &err);
  tsift_index_free(ix);
  CHECK_EQ_INT(tsift_session_new_from_snapshot(without, strlen(without), blob, len, NULL, 0, NULL, 0, &s, &err),
               TSIFT_OK);
  tsift_session_free(s);
  tsift_free(blob);
  free(with_catalog);
}

/* A catalog of more than 2^14 distinct terms, so the load checks the
 * fields' tokens eight bytes a step (snapshot.c, check_ranks): a round
 * trip gives the same documents and answers, and crafted blobs (a byte's
 * bit 0, 6 or 7 flipped, resealed) are refused, caught by verify or rank
 * as the original (and, under the sanitizers, never read out of bounds). */
static void test_many_terms(void) {
  enum { TOOLS = 1500, WORDS = 14 };
  static char words[TOOLS][WORDS][10];
  uint32_t seed = 12345;
  tsift_buf cat;
  tsift_buf_init(&cat);
  tsift_buf_append(&cat, "[", 1);
  for (int t = 0; t < TOOLS; t++) {
    char head[64];
    int hn = snprintf(head, sizeof head, "%s{\"name\":\"tool_%d\",\"description\":\"", t ? "," : "", t);
    tsift_buf_append(&cat, head, (size_t)hn);
    for (int w = 0; w < WORDS; w++) {
      int wl = 6 + w % 3;
      for (int i = 0; i < wl; i++) {
        seed = seed * 1103515245u + 12345u;
        words[t][w][i] = (char)('a' + (seed >> 16) % 26);
      }
      words[t][w][wl] = 0;
      if (w) tsift_buf_append(&cat, " ", 1);
      tsift_buf_append(&cat, words[t][w], (size_t)wl);
    }
    tsift_buf_append(&cat, "\"}", 2);
  }
  tsift_buf_append(&cat, "]", 1);
  CHECK(!cat.failed);
  static char queries[6][64];
  const char *qs[6];
  for (int i = 0; i < 6; i++) {
    int t = (i * 277) % TOOLS;
    snprintf(queries[i], sizeof queries[i], "%.9s %.9s", words[t][i], words[(t + 1) % TOOLS][WORDS - 1 - i]);
    qs[i] = queries[i];
  }
  tsift_index *ix = NULL, *back = NULL;
  tsift_error err;
  CHECK_EQ_INT(tsift_index_build(cat.data, cat.len, NULL, 0, &ix, &err), TSIFT_OK);
  tsift_buf_free(&cat);
  if (!ix) return;
  CHECK(ix->nterms >= 1u << 14); /* or this test checks nothing new */
  char *blob = NULL, *docs = NULL, *docs2 = NULL;
  size_t len = 0, n = 0;
  CHECK_EQ_INT(tsift_index_snapshot(ix, &blob, &len, &err), TSIFT_OK);
  CHECK_EQ_INT(tsift_index_from_snapshot(blob, len, &back, &err), TSIFT_OK);
  tsift_index_documents_json(ix, &docs, &n, &err);
  tsift_index_documents_json(back, &docs2, &n, &err);
  CHECK(docs && docs2 && strcmp(docs, docs2) == 0);
  CHECK(same_answers_to(ix, back, qs, 6));
  tsift_hit hits[20];
  size_t nh = 0;
  CHECK_EQ_INT(tsift_index_search(back, qs[0], strlen(qs[0]), 20, hits, &nh, &err), TSIFT_OK);
  CHECK(nh > 0); /* the queries find their tools */
  tsift_free(docs2);
  tsift_index_free(back);
  char *copy = malloc(len);
  int loaded = 0, rejected = 0, unverified = 0, same = 0, other = 0;
  for (size_t pos = 12; copy && pos < len - 8; pos += len / 700) {
    for (int bit = 0; bit < 3; bit++) { /* +1, a varint split or joined, and +2^20 in a rank's third byte */
      memcpy(copy, blob, len);
      copy[pos] ^= (char)(bit == 0 ? 0x01 : bit == 1 ? 0x80 : 0x40);
      reseal(copy, len);
      tsift_index *crafted = NULL;
      tsift_status st = tsift_index_from_snapshot(copy, len, &crafted, &err);
      if (st == TSIFT_E_SNAPSHOT) {
        rejected++;
      } else if (st != TSIFT_OK) {
        other++;
      } else if (loaded++, tsift_index_verify(crafted, &err) != TSIFT_OK) {
        unverified++;
      } else {
        tsift_index_documents_json(crafted, &docs2, &n, &err);
        if (docs2 && strcmp(docs2, docs) == 0 && same_answers_to(ix, crafted, qs, 6)) same++;
        tsift_free(docs2);
      }
      tsift_index_free(crafted);
    }
  }
  printf("many terms (%zu): crafted blobs %d rejected, %d loaded (%d caught by verify, %d as the original)\n",
         ix->nterms, rejected, loaded, unverified, same);
  CHECK_EQ_INT(other, 0);
  CHECK(rejected > 0);
  CHECK_EQ_INT(same, loaded - unverified);
  free(copy);
  tsift_free(docs);
  tsift_free(blob);
  tsift_index_free(ix);
}

int main(void) {
  size_t cat_len = 0;
  char *catalog = read_all("corpus/catalog.json", &cat_len);
  CHECK(catalog != NULL);
  if (!catalog) return harness_finish("test_snapshot");
  tsift_index *ix = NULL;
  tsift_error err;
  const char *opts = "{\"stopwords\":[\"please\",\"the\"],\"weights\":{\"params\":2}}";
  CHECK_EQ_INT(tsift_index_build(catalog, cat_len, opts, strlen(opts), &ix, &err), TSIFT_OK);
  char *blob = NULL;
  size_t len = 0;
  CHECK_EQ_INT(tsift_index_snapshot(ix, &blob, &len, &err), TSIFT_OK);
  CHECK(len > 1000);

  /* Round trip: identical results, facts and documents. */
  tsift_index *back = NULL;
  CHECK_EQ_INT(tsift_index_from_snapshot(blob, len, &back, &err), TSIFT_OK);
  static char a[1 << 20], b[1 << 20];
  search_all(ix, a, sizeof a);
  search_all(back, b, sizeof b);
  CHECK(strlen(a) > 1000);
  CHECK(strcmp(a, b) == 0);
  char *ia = NULL, *ib = NULL, *da = NULL, *db = NULL;
  size_t n;
  tsift_index_info_json(ix, &ia, &n, &err);
  tsift_index_info_json(back, &ib, &n, &err);
  CHECK_EQ_STR(ib, ia);
  tsift_index_documents_json(ix, &da, &n, &err);
  tsift_index_documents_json(back, &db, &n, &err);
  CHECK(da && db && strcmp(da, db) == 0);
  tsift_free(ia);
  tsift_free(ib);
  tsift_free(da);
  tsift_free(db);
  /* A snapshot of the loaded index is the same bytes. */
  char *blob2 = NULL;
  size_t len2 = 0;
  tsift_index_snapshot(back, &blob2, &len2, &err);
  CHECK(len2 == len && memcmp(blob, blob2, len) == 0);
  tsift_free(blob2);
  tsift_index_free(back);

  /* The taking variant (the wasm binding's): the same index without a
   * copy; a bad blob is refused and freed (the sanitizer stage checks that
   * nothing leaks). */
  char *owned = tsift_alloc_bytes(len);
  memcpy(owned, blob, len);
  tsift_index *taken = NULL;
  CHECK_EQ_INT(tsift_index_from_snapshot_take(owned, len, &taken, &err), TSIFT_OK);
  search_all(taken, b, sizeof b);
  CHECK(strcmp(a, b) == 0);
  tsift_index_free(taken);
  owned = tsift_alloc_bytes(len);
  memcpy(owned, blob, len);
  owned[len / 2] ^= 1;
  taken = (tsift_index *)1;
  CHECK_EQ_INT(tsift_index_from_snapshot_take(owned, len, &taken, &err), TSIFT_E_SNAPSHOT);
  CHECK(taken == NULL);
  CHECK_CONTAINS(err.message, "checksum");
  owned = tsift_alloc_bytes(len);
  memcpy(owned, blob, len);
  owned[len - 9] ^= 0x80; /* the last postings byte (a tfs high byte or padding), resealed:
                             bits 12..15 of tfs and padding must be zero */
  reseal(owned, len);
  CHECK_EQ_INT(tsift_index_from_snapshot_take(owned, len, &taken, &err), TSIFT_E_SNAPSHOT);

  /* More tools than a posting's 20-bit doc number holds (index.h): refused
   * by name, as the build refuses such a catalog. */
  owned = tsift_alloc_bytes(len);
  memcpy(owned, blob, len);
  size_t at = tools_count_at(owned);
  CHECK_EQ_INT((unsigned char)owned[at] | (unsigned char)owned[at + 1] << 8, (int)tsift_index_size(ix));
  owned[at + 2] = 0x10; /* 2^20 + the corpus's count */
  reseal(owned, len);
  CHECK_EQ_INT(tsift_index_from_snapshot_take(owned, len, &taken, &err), TSIFT_E_SNAPSHOT);
  CHECK_CONTAINS(err.message, "an index holds at most 1048576");

  /* Wrong magic, empty, header only. */
  char *copy = malloc(len);
  memcpy(copy, blob, len);
  copy[0] = 'X';
  CHECK_EQ_INT(load(copy, len, &err), TSIFT_E_SNAPSHOT);
  CHECK_CONTAINS(err.message, "wrong magic");
  CHECK_EQ_INT(load("", 0, &err), TSIFT_E_SNAPSHOT);
  CHECK_EQ_INT(load(blob, 12, &err), TSIFT_E_SNAPSHOT);

  /* Another format version. */
  memcpy(copy, blob, len);
  copy[8] = 1; /* the sha256-sealed format that re-parsed the catalog */
  CHECK_EQ_INT(load(copy, len, &err), TSIFT_E_SNAPSHOT);
  CHECK_CONTAINS(err.message, "format version 1, this build reads version 7");
  copy[8] = 3; /* the uncompressed format (6-byte postings, schemas as JSON text) */
  CHECK_EQ_INT(load(copy, len, &err), TSIFT_E_SNAPSHOT);
  CHECK_CONTAINS(err.message, "format version 3, this build reads version 7");

  /* Every truncation length in the header, then a sample through the body. */
  int bad = 0;
  for (size_t cut = 0; cut < len; cut += cut < 512 ? 1 : 997)
    if (load(blob, cut, &err) != TSIFT_E_SNAPSHOT) bad++;
  CHECK_EQ_INT(bad, 0);

  /* A flipped byte anywhere: the checksum catches it. */
  bad = 0;
  for (size_t pos = 0; pos < len; pos += pos < 512 ? 1 : 1499) {
    memcpy(copy, blob, len);
    copy[pos] ^= 0x5a;
    if (load(copy, len, &err) != TSIFT_E_SNAPSHOT) bad++;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_CONTAINS(err.message, "checksum");

  /* A flipped byte with a valid checksum (a crafted blob): never a crash;
   * one that loads is a sound index, and when its stated fingerprint and
   * stored postings still verify, the documents it searches are the
   * original ones and it ranks as the original does (a change to what is
   * indexed is caught by the structure checks or by verify). */
  char *docs = NULL;
  tsift_index_documents_json(ix, &docs, &n, &err);
  CHECK_EQ_INT(tsift_index_verify(ix, &err), TSIFT_OK);
  int loaded = 0, rejected = 0, unverified = 0, same_docs = 0;
  for (size_t pos = 12; pos < len - 8; pos += len / 300) {
    memcpy(copy, blob, len);
    copy[pos] ^= 0x01;
    reseal(copy, len);
    tsift_status st = load(copy, len, &err);
    if (st == TSIFT_OK) {
      loaded++;
      tsift_index *crafted = NULL;
      tsift_index_from_snapshot(copy, len, &crafted, &err);
      if (tsift_index_verify(crafted, &err) != TSIFT_OK) {
        CHECK(strstr(err.message, "fingerprint does not match") || strstr(err.message, "postings do not match"));
        unverified++;
      } else {
        char *d2 = NULL;
        tsift_index_documents_json(crafted, &d2, &n, &err);
        if (d2 && strcmp(d2, docs) == 0 && same_answers(ix, crafted)) same_docs++;
        tsift_free(d2);
      }
      tsift_index_free(crafted);
    } else if (st == TSIFT_E_SNAPSHOT) {
      rejected++;
    } else {
      bad++;
    }
  }
  printf("crafted blobs: %d rejected, %d loaded (%d caught by verify, %d with the original documents)\n", rejected,
         loaded, unverified, same_docs);
  CHECK_EQ_INT(bad, 0);
  CHECK(rejected > 0);
  CHECK_EQ_INT(same_docs, loaded - unverified);
  tsift_free(docs);

  /* Descriptions' and schemas' codes are checked when read, not at load
   * (issue 37): a crafted blob whose fault is in such a code loads, and the
   * first read of that text is a snapshot error naming the tool; a search
   * or a session's search_tools that shows the tool answers the error and
   * records nothing. 1,500 bytes flipped across the blob, resealed: never a
   * crash, and some faults are found only when read. */
  int found_late = 0, search_late = 0, session_late = 0;
  for (size_t pos = 12; pos < len - 8; pos += len / 1500) {
    memcpy(copy, blob, len);
    copy[pos] ^= 0x40;
    reseal(copy, len);
    tsift_index *crafted = NULL;
    if (tsift_index_from_snapshot(copy, len, &crafted, &err) != TSIFT_OK) continue;
    long bad_tool = -1;
    for (size_t d = 0; d < crafted->n && bad_tool < 0; d++) {
      const tsift_tool *t = &crafted->catalog.tools[d];
      const char *text;
      size_t tl;
      char *owned = NULL;
      const cJSON *schema = NULL;
      cJSON *sowned = NULL;
      tsift_status st = tsift_tool_description(t, &text, &tl, &owned, &err);
      if (!st) st = tsift_tool_schema(t, &schema, &sowned, &err);
      tsift_free(owned);
      cJSON_Delete(sowned);
      if (st) {
        CHECK_EQ_INT(st, TSIFT_E_SNAPSHOT);
        /* a valid code whose text is not JSON: the schema reader's own error */
        if (!strstr(err.message, "snapshot schema")) CHECK_CONTAINS(err.message, "bad tool ");
        if (strstr(err.message, "bad tool description")) bad_tool = (long)d;
      }
    }
    if (bad_tool >= 0) {
      found_late++;
      /* its id as the query: the tool is a hit, its description is shown */
      const char *id = crafted->catalog.tools[bad_tool].id;
      char *out = NULL;
      size_t out_len = 0;
      if (tsift_index_search_json(crafted, id, strlen(id), NULL, 0, &out, &out_len, &err) == TSIFT_E_SNAPSHOT) {
        CHECK(out == NULL);
        CHECK_CONTAINS(err.message, "bad tool text while writing search results");
        search_late++;
      }
      tsift_free(out);
      out = NULL;
      tsift_session *sess = NULL;
      static const char CFG[] = "{\"search\":{\"auto\":false}}";
      if (tsift_session_new_from_snapshot(CFG, strlen(CFG), copy, len, NULL, 0, NULL, 0, &sess, &err) == TSIFT_OK) {
        char args[200];
        snprintf(args, sizeof args, "{\"query\":\"%.100s\"}", id);
        if (tsift_session_call(sess, 1, 0, "search_tools", 12, args, strlen(args), &out, &out_len, &err) ==
            TSIFT_E_SNAPSHOT) {
          CHECK(out == NULL);
          CHECK_CONTAINS(err.message, "bad tool text while writing a search result");
          session_late++;
        }
        tsift_free(out);
        tsift_session_free(sess);
      }
    }
    tsift_index_free(crafted);
  }
  printf("codes checked when read: %d crafted blobs loaded and failed when a description was read (%d searches, %d "
         "sessions)\n",
         found_late, search_late, session_late);
  CHECK(found_late > 0);
  CHECK(search_late > 0);
  CHECK(session_late > 0);

  /* The stated fingerprint is trusted at load; verify re-derives it. */
  memcpy(copy, blob, len);
  char *info = NULL, *fp_at = NULL;
  tsift_index_info_json(ix, &info, &n, &err);
  const char *fp = info ? strstr(info, "\"fingerprint\":\"") : NULL;
  CHECK(fp != NULL);
  for (size_t i = 0; fp && i + 64 <= len && !fp_at; i++)
    if (memcmp(copy + i, fp + 15, 64) == 0) fp_at = copy + i;
  tsift_free(info);
  CHECK(fp_at != NULL);
  if (fp_at) {
    fp_at[0] = fp_at[0] == '0' ? '1' : '0';
    reseal(copy, len);
    tsift_index *edited = NULL;
    CHECK_EQ_INT(tsift_index_from_snapshot(copy, len, &edited, &err), TSIFT_OK);
    CHECK_EQ_INT(tsift_index_verify(edited, &err), TSIFT_E_SNAPSHOT);
    CHECK_CONTAINS(err.message, "fingerprint does not match the contents");
    tsift_index_free(edited);
  }

  free(copy);
  tsift_free(blob);
  tsift_index_free(ix);
  test_session_over_snapshot(catalog, cat_len);
  test_many_terms();
  /* The fuzzer's seed snapshots must load with this build, or fuzz_snapshot
   * only ever sees the header check. */
  static const char *const SEEDS[] = {"tests/fuzz/corpus/snapshot/annotations.tsi",
                                      "tests/fuzz/corpus/snapshot/lenient.tsi",
                                      "tests/fuzz/corpus/snapshot/mcp_options.tsi"};
  for (size_t i = 0; i < sizeof SEEDS / sizeof *SEEDS; i++) {
    size_t seed_len = 0;
    char *seed = read_all(SEEDS[i], &seed_len);
    tsift_index *six = NULL;
    tsift_status st = seed ? tsift_index_from_snapshot(seed, seed_len, &six, &err) : TSIFT_E_ARG;
    if (st != TSIFT_OK)
      fprintf(stderr, "%s: %s — regenerate the seeds: node tests/fuzz/snapshot-seeds.mjs\n", SEEDS[i],
              seed ? err.message : "cannot read");
    CHECK_EQ_INT(st, TSIFT_OK);
    tsift_index_free(six);
    free(seed);
  }
  free(catalog);
  return harness_finish("test_snapshot");
}
