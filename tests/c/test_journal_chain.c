/* test_journal_chain.c — the journal's hash chain (journal_chain.c): HMAC
 * against RFC 4231, the header and digests a live run writes, and a
 * property test over random tamperings of a recorded journal — every edit
 * is refused in "fail" mode (TSIFT_E_TAMPERED) or only narrows the menu
 * (decisions cut off the end); none widens silently. */
#include <stdint.h>
#include <stdlib.h>

#include "cJSON.h"
#include "harness.h"
#include "session_fixture.h"
#include "base/sha256.h"
#include "toolsift.h"

/* RFC 4231 test case 2 (a key shorter than the block) and 6 (longer). */
static void test_hmac_vectors(void) {
  const struct {
    const char *key, *msg, *mac;
  } v[] = {
      {"Jefe", "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
      {NULL, "Test Using Larger Than Block-Size Key - Hash Key First",
       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
  };
  for (int i = 0; i < 2; i++) {
    uint8_t key[131];
    size_t klen;
    if (v[i].key) {
      klen = strlen(v[i].key);
      memcpy(key, v[i].key, klen);
    } else {
      klen = 131;
      memset(key, 0xaa, klen);
    }
    tsift_hmac m;
    tsift_hmac_key(&m, key, klen);
    tsift_sha256 h;
    tsift_hmac_begin(&m, &h);
    tsift_sha256_update(&h, v[i].msg, strlen(v[i].msg));
    uint8_t d[32];
    tsift_hmac_end(&m, &h, d);
    char hex[65];
    tsift_sha256_hex(d, hex);
    CHECK_EQ_STR(hex, v[i].mac);
  }
}

static const char *QUERIES[] = {"create issue", "send message", "search jira issues", "list issues",
                                "close an issue", "send an email"};
#define NQ 6
#define SEARCH "{\"maxPerSearch\":3,\"maxLoaded\":12}"
#define KEY_A "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define KEY_B "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"

/* A live run's journal (caller frees), with `opts` (NULL: unkeyed). */
static char *live_journal(const char *opts, char *names, size_t cap) {
  tsift_session *s = open_session(SEARCH, NULL, opts);
  if (!s) return NULL;
  for (unsigned i = 0; i < NQ; i++) {
    char args[128];
    snprintf(args, sizeof args, "{\"query\":\"%s\"}", QUERIES[i]);
    tsift_status st;
    tsift_free(call(s, i, 0, "search_tools", args, &st));
  }
  char *j = journal(s);
  if (names) {
    char *m = menu(s);
    menu_names(m, names, cap);
    tsift_free(m);
  }
  tsift_session_free(s);
  return j;
}

/* Replay `j` to the end (apply_journal): the status of creating the
 * session, and the menu's names. */
static tsift_status replay_menu(const char *j, const char *opts, char *names, size_t cap) {
  names[0] = 0;
  const char *cfg = config(SEARCH);
  tsift_session *s = NULL;
  tsift_error err;
  tsift_status st = tsift_session_new(cfg, strlen(cfg), j, strlen(j), opts, opts ? strlen(opts) : 0, &s, &err);
  if (st) return st;
  st = tsift_session_apply_journal(s, &err);
  char *m = menu(s);
  menu_names(m, names, cap);
  tsift_free(m);
  tsift_session_free(s);
  return st;
}

/* Every name on `menu` is on `live`. */
static int subset(const char *menu, const char *live) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", menu);
  for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
    char w[256];
    snprintf(w, sizeof w, " %s ", t);
    char l[4096];
    snprintf(l, sizeof l, " %s ", live);
    if (!strstr(l, w)) return 0;
  }
  return 1;
}

static void test_live_journal(void) {
  char *j = live_journal(NULL, NULL, 0);
  CHECK(j != NULL);
  if (!j) return;
  /* The header first: catalog, ranker, session, mac; a chain digest on every line. */
  static const char head[] = "{\"id\":\"t#journal\",\"source\":\"toolsift-journal\",\"value\":{\"version\":1,"
                             "\"ranker\":\"" TSIFT_RANKER_VERSION "\",\"catalog\":\"";
  CHECK(strncmp(j, head, sizeof head - 1) == 0);
  CHECK_CONTAINS(j, "\"mac\":\"none\"},\"chain\":\"");
  size_t lines = 0, chains = 0;
  for (const char *p = j; *p; p++) lines += *p == '\n';
  for (const char *p = j; (p = strstr(p, ",\"chain\":\"")) != NULL; p++) chains++;
  CHECK_EQ_INT(lines, NQ + 1);
  CHECK_EQ_INT(chains, NQ + 1);
  /* Same run, same bytes; a keyed run differs in every digest. */
  char *again = live_journal(NULL, NULL, 0);
  CHECK_EQ_STR(again, j);
  char *keyed = live_journal("{\"journalKey\":\"" KEY_A "\"}", NULL, 0);
  CHECK(keyed && strstr(keyed, "\"mac\":\"hmac-sha256\",\"keyId\":\""));
  char names[4096];
  CHECK_EQ_INT(replay_menu(j, NULL, names, sizeof names), TSIFT_OK);
  CHECK_EQ_INT(replay_menu(keyed, "{\"journalKey\":\"" KEY_A "\"}", names, sizeof names), TSIFT_OK);
  /* A keyed journal needs its key; another key, or a key for an unkeyed journal, is refused. */
  CHECK_EQ_INT(replay_menu(keyed, NULL, names, sizeof names), TSIFT_E_TAMPERED);
  CHECK_EQ_INT(replay_menu(keyed, "{\"journalKey\":\"" KEY_B "\"}", names, sizeof names), TSIFT_E_TAMPERED);
  CHECK_EQ_INT(replay_menu(j, "{\"journalKey\":\"" KEY_A "\"}", names, sizeof names), TSIFT_E_TAMPERED);
  /* Bad keys and parents are configuration errors. */
  CHECK_EQ_INT(replay_menu(j, "{\"journalKey\":\"abc\"}", names, sizeof names), TSIFT_E_CONFIG);
  CHECK_EQ_INT(replay_menu(j, "{\"journalKey\":\"" KEY_A "ZZ\"}", names, sizeof names), TSIFT_E_CONFIG);
  CHECK_EQ_INT(replay_menu(j, "{\"journalParent\":\"00\"}", names, sizeof names), TSIFT_E_CONFIG);
  /* A parent binds the journal to the one before it. */
  const char *parent = "{\"journalParent\":\"" KEY_A "\"}";
  tsift_session *s = open_session(SEARCH, NULL, parent);
  tsift_status st;
  tsift_free(call(s, 0, 0, "search_tools", "{\"query\":\"create issue\"}", &st));
  char *child = journal(s);
  tsift_session_free(s);
  CHECK_CONTAINS(child, "\"parent\":\"" KEY_A "\"");
  CHECK_EQ_INT(replay_menu(child, parent, names, sizeof names), TSIFT_OK);
  CHECK_EQ_INT(replay_menu(child, "{\"journalParent\":\"" KEY_B "\"}", names, sizeof names), TSIFT_E_TAMPERED);
  tsift_free(child);
  tsift_free(keyed);
  tsift_free(again);
  tsift_free(j);
}

/* ---- random tamperings ------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned next(unsigned n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng % n);
}

typedef struct lines {
  char *v[32];
  size_t n;
} lines;

static void split(const char *j, lines *l) {
  l->n = 0;
  for (const char *p = j; *p && l->n < 32;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    l->v[l->n] = malloc(n + 1);
    memcpy(l->v[l->n], p, n);
    l->v[l->n++][n] = 0;
    p += n + (e ? 1 : 0);
  }
}

static char *join(const lines *l) {
  size_t total = 1;
  for (size_t i = 0; i < l->n; i++) total += strlen(l->v[i]) + 1;
  char *out = malloc(total), *o = out;
  for (size_t i = 0; i < l->n; i++) {
    size_t n = strlen(l->v[i]);
    memcpy(o, l->v[i], n);
    o += n;
    *o++ = '\n';
  }
  *o = 0;
  return out;
}

static void drop(lines *l, size_t i) {
  free(l->v[i]);
  memmove(l->v + i, l->v + i + 1, (l->n - i - 1) * sizeof *l->v);
  l->n--;
}

static void set_line(lines *l, size_t i, cJSON *rec) {
  free(l->v[i]);
  char *t = cJSON_PrintUnformatted(rec);
  l->v[i] = strdup(t);
  cJSON_free(t);
  cJSON_Delete(rec);
}

/* Ids of the universe, to swap into a decision. */
static const char *IDS[] = {"gh__create_issue", "gh__list_issues", "gh__close_issue", "jira__create_issue",
                            "jira__search", "slack__send", "mail__send"};

/* One tampering of class c; 1 when it can only narrow (cut off the end). */
static int tamper(lines *l, unsigned c) {
  size_t d = 1 + next((unsigned)l->n - 1); /* a decision */
  cJSON *rec = cJSON_Parse(l->v[d]);
  switch (c) {
    case 0: { /* substitution inside the universe */
      cJSON *v = cJSON_GetObjectItem(rec, "value");
      cJSON *ids = cJSON_CreateArray();
      for (int k = 0; k < 2; k++) cJSON_AddItemToArray(ids, cJSON_CreateString(IDS[next(7)]));
      cJSON_ReplaceItemInObject(v, next(2) ? "loaded" : "results", ids);
      set_line(l, d, rec);
      return 0;
    }
    case 1: { /* reorder two decisions */
      size_t e = 1 + next((unsigned)l->n - 1);
      if (e == d) e = d == 1 ? 2 : d - 1;
      char *t = l->v[d];
      l->v[d] = l->v[e];
      l->v[e] = t;
      break;
    }
    case 2: /* duplicate a decision right after itself */
      for (size_t i = l->n; i > d; i--) l->v[i] = l->v[i - 1];
      l->v[d + 1] = strdup(l->v[d]);
      l->n++;
      break;
    case 3: /* delete a decision before the last */
      drop(l, d == l->n - 1 ? d - 1 : d);
      break;
    case 4: { /* a header field edited */
      cJSON_Delete(rec);
      rec = cJSON_Parse(l->v[0]);
      cJSON *v = cJSON_GetObjectItem(rec, "value");
      const char *keys[] = {"catalog", "session", "ranker", "mac"};
      const char *k = keys[next(4)];
      const char *mac = cJSON_GetObjectItem(v, "mac")->valuestring;
      cJSON_ReplaceItemInObject(v, k, cJSON_CreateString(strcmp(k, "mac") != 0 ? "bm25f-0"
                                                         : strcmp(mac, "none") == 0 ? "hmac-sha256" : "none"));
      if (next(2)) cJSON_ReplaceItemInObject(v, "version", cJSON_CreateNumber(2));
      set_line(l, 0, rec);
      return 0;
    }
    case 5: { /* type confusion in a decision's value */
      cJSON *v = cJSON_GetObjectItem(rec, "value");
      const char *keys[] = {"results", "loaded", "query", "grades"};
      cJSON *repl = next(3) == 0 ? cJSON_CreateNumber(42) : next(2) ? cJSON_CreateObject() : cJSON_CreateNull();
      cJSON_ReplaceItemInObject(v, keys[next(4)], repl);
      set_line(l, d, rec);
      return 0;
    }
    case 6: /* the header removed */
      drop(l, 0);
      break;
    case 7: { /* a chain digest replaced by another line's */
      size_t e = next((unsigned)l->n);
      cJSON *other = cJSON_Parse(l->v[e == d ? 0 : e]);
      cJSON_ReplaceItemInObject(rec, "chain", cJSON_Duplicate(cJSON_GetObjectItem(other, "chain"), 1));
      cJSON_Delete(other);
      set_line(l, d, rec);
      return 0;
    }
    default: /* cut off the end: the only edit a chain cannot see */
      while (l->n > d) drop(l, l->n - 1);
      cJSON_Delete(rec);
      return 1;
  }
  cJSON_Delete(rec);
  return 0;
}

static void test_random_tamperings(void) {
  char live[4096];
  char *j = live_journal(NULL, live, sizeof live);
  char *jk = live_journal("{\"journalKey\":\"" KEY_A "\"}", NULL, 0);
  if (!j || !jk) return;
  unsigned detected = 0, narrowed = 0, classes[9] = {0};
  for (unsigned round = 0; round < 450; round++) {
    unsigned c = round % 9;
    int keyed = (round / 9) % 2;
    lines l;
    split(keyed ? jk : j, &l);
    int only_narrows = tamper(&l, c);
    char *t = join(&l);
    for (size_t i = 0; i < l.n; i++) free(l.v[i]);
    const char *opts = keyed ? "{\"journalKey\":\"" KEY_A "\"}" : NULL;
    char names[4096];
    tsift_status st = replay_menu(t, opts, names, sizeof names);
    if (st == TSIFT_E_TAMPERED) {
      detected++;
      classes[c]++;
      CHECK(!only_narrows);
    } else {
      /* Not refused: a cut-off end, or an edit that left the bytes as they were. */
      CHECK(st == TSIFT_OK || st == TSIFT_E_DIVERGED);
      CHECK(subset(names, live));
      if (!subset(names, live)) fprintf(stderr, "round %u class %u widened: %s\n", round, c, t);
      narrowed++;
      /* Only the end cut, an unchanged substitution or a header removed
       * from an unkeyed journal that then has no chain either get here. */
      if (!only_narrows && c != 0 && c != 1) fprintf(stderr, "round %u class %u not detected\n", round, c);
    }
    free(t);
  }
  /* Every class but the cut end is detected (each class ran 50 times). */
  for (unsigned c = 0; c < 8; c++) CHECK(classes[c] >= 45);
  CHECK_EQ_INT(classes[8], 0);
  printf("tamperings: %u detected, %u narrowed or unchanged\n", detected, narrowed);
  tsift_free(jk);
  tsift_free(j);
}

int main(void) {
  test_hmac_vectors();
  test_live_journal();
  test_random_tamperings();
  return harness_finish("test_journal_chain");
}
