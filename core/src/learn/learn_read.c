/* learn_read.c — recorded runs and labelled examples into evidence for
 * learning (docs/learning.md, "Evidence"; learn.h).
 *
 * A journal is one run (one session: a CLI journal, or a gateway client
 * session's file of segments). Read strictly, line by line: every line a
 * JSON object with a string "id" and "source"; the core's records (the
 * chain header, decisions, call records) are verified against the hash
 * chain as the session would (journal_mac.h), the gateway's segment lines
 * are passed over, any other source is an error. A journal whose chain is
 * broken, or that cannot be verified (unchained, or keyed without the key),
 * is refused as evidence unless the host says to skip or accept it.
 *
 * What a run teaches, per tool T the model called (a call the host did not
 * report failed), at T's first such call:
 *   - the search that loaded T (a search whose tool the model then called);
 *   - when a select: loaded it, the latest search that listed T (a select:
 *     after a search);
 *   - the searches since the run's previous call (failed or not) that did
 *     not list T (a search that failed, followed by another whose tool was
 *     called);
 * their learnable words and phrases (learn.c, tsift_learn_request), less
 * those T's own text has and those another tool the model called (failed
 * or not) has (that tool explains them). Against T: the words of every
 * search that loaded T when the run never called it successfully. */
#include <string.h>

#include "base/alloc.h"
#include "cJSON.h"
#include "base/fmt.h"
#include "json/json_check.h"
#include "json/jsonl.h"
#include "learn/learn.h"
#include "json/json_read.h"

#define SEGMENT_SOURCE "toolsift-mcp-segment" /* the gateway's line before each segment (js/mcp) */

enum { RE_SEARCH, RE_SELECT, RE_CALL, RE_FAILED };

typedef struct run_event {
  uint8_t type;
  uint8_t failed; /* RE_CALL: the host reported it failed */
  uint32_t turn, call, tool;          /* RE_CALL, RE_FAILED */
  size_t words, nwords;               /* RE_SEARCH: its words in run.words */
  size_t results, nresults;           /* RE_SEARCH: the page's tools in run.tools */
  size_t loaded, nloaded;             /* RE_SEARCH, RE_SELECT: the tools it loaded */
} run_event;

typedef struct run {
  run_event *ev;
  size_t n, cap;
  uint32_t *words, *surfaces;
  size_t nwords, words_cap, surfaces_cap;
  uint32_t *tools;
  size_t ntools, tools_cap;
} run;

static void run_free(run *r) {
  TSIFT_FREE_ALL(r->ev, r->words, r->surfaces, r->tools);
  memset(r, 0, sizeof *r);
}

static int push_event(run *r, const run_event *e) {
  if (r->n == r->cap && tsift_grow((void **)&r->ev, &r->cap, r->n + 1, sizeof *r->ev)) return -1;
  r->ev[r->n++] = *e;
  return 0;
}

static int push_tool(run *r, uint32_t d) {
  if (r->ntools == r->tools_cap && tsift_grow((void **)&r->tools, &r->tools_cap, r->ntools + 1, sizeof *r->tools))
    return -1;
  r->tools[r->ntools++] = d;
  return 0;
}

static int has_tool(const run *r, size_t at, size_t n, uint32_t d) {
  for (size_t i = 0; i < n; i++)
    if (r->tools[at + i] == d) return 1;
  return 0;
}

/* ---- reading a journal ------------------------------------------------- */

typedef struct reader {
  tsift_learner *l;
  const char *name;
  size_t line;
  run r;
  /* the chain */
  int have_header;
  uint8_t head[32];
  int unverifiable;
  char problem[240]; /* the first problem, "" when none */
  char client[72];   /* "\x01" + the header's client, or "" */
} reader;

static tsift_status bad(reader *rd, tsift_error *err, const char *what) {
  size_t n = tsift_utf8_cut(rd->name, strlen(rd->name), 120);
  return tsift_fail(err, TSIFT_E_CONFIG, "journal %.*s line %zu: %s", (int)n, rd->name, rd->line, what);
}

static void note_problem(reader *rd, const char *fmt, const char *a) {
  if (rd->problem[0]) return;
  char msg[200];
  tsift_snprintf(msg, sizeof msg, fmt, a ? a : "");
  tsift_snprintf(rd->problem, sizeof rd->problem, "line %zu: %s", rd->line, msg);
}

static const char *str_member(const cJSON *v, const char *key) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, key);
  return cJSON_IsString(m) ? m->valuestring : NULL;
}

/* The header: its key, its link to the segment before, its digest. */
static tsift_status read_header(reader *rd, const cJSON *rec, tsift_error *err) {
  const tsift_learner *l = rd->l;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, "value");
  if (!cJSON_IsObject(v)) return bad(rd, err, "a journal header needs a \"value\" object");
  const char *mac = str_member(v, "mac"), *key_id = str_member(v, "keyId"), *parent = str_member(v, "parent");
  const char *chain = str_member(rec, "chain"), *client = str_member(v, "client");
  int comparable = 1;
  if (!mac || (strcmp(mac, "none") != 0 && strcmp(mac, "hmac-sha256") != 0)) {
    note_problem(rd, "header: mac: expected \"none\" or \"hmac-sha256\"%s", NULL);
    comparable = 0;
  } else if (strcmp(mac, "hmac-sha256") == 0 && !l->key.keyed) {
    rd->unverifiable = 1;
    comparable = 0;
  } else if (strcmp(mac, "none") == 0 && l->key.keyed) {
    rd->unverifiable = 1; /* the host keys its journals: an unkeyed one could be anyone's */
    comparable = 0;
  } else if (l->key.keyed && (!key_id || strcmp(key_id, l->key.key_id) != 0)) {
    note_problem(rd, "header: written with another key (key id %.20s)", key_id ? key_id : "missing");
    comparable = 0;
  }
  static const uint8_t zero[32];
  uint8_t prev[32];
  memcpy(prev, zero, 32);
  if (parent && !tsift_chain_unhex(parent, prev, 32)) note_problem(rd, "header: parent is not a digest%s", NULL);
  if (rd->have_header && (!parent || memcmp(prev, rd->head, 32) != 0))
    note_problem(rd, "header: this segment does not continue the one before it%s", NULL);
  uint8_t d[32], recorded[32];
  int r = tsift_chain_digest(&l->key, prev, rec, d);
  if (r < 0) return tsift_nomem(err, "learning");
  if (r == 0) return bad(rd, err, "not a record toolsift writes (nested too deep)");
  if (comparable && (!chain || !tsift_chain_unhex(chain, recorded, 32) || memcmp(recorded, d, 32) != 0))
    note_problem(rd, "header: its digest does not match its content%s", NULL);
  memcpy(rd->head, chain && tsift_chain_unhex(chain, recorded, 32) ? recorded : d, 32);
  rd->have_header = 1;
  if (client && !rd->client[0]) {
    size_t n = strlen(client);
    if (n > 64) n = tsift_utf8_cut(client, n, 64);
    rd->client[0] = 1;
    memcpy(rd->client + 1, client, n);
    rd->client[n + 1] = 0;
  }
  return TSIFT_OK;
}

/* A chained record: its digest from the line before. */
static tsift_status check_chain(reader *rd, const cJSON *rec, tsift_error *err) {
  const char *chain = str_member(rec, "chain");
  if (!rd->have_header) {
    rd->unverifiable = 1; /* no header: unchained, or cut at the front */
    return TSIFT_OK;
  }
  uint8_t d[32], recorded[32];
  int r = tsift_chain_digest(&rd->l->key, rd->head, rec, d);
  if (r < 0) return tsift_nomem(err, "learning");
  if (r == 0) return bad(rd, err, "not a record toolsift writes (nested too deep)");
  int ok = chain && tsift_chain_unhex(chain, recorded, 32) && memcmp(recorded, d, 32) == 0;
  if (!ok && !rd->unverifiable)
    note_problem(rd, "chain broken: the record's digest does not match its content and the line before it "
                     "(edited, inserted, moved, or a line before it removed)%s", NULL);
  memcpy(rd->head, chain && tsift_chain_unhex(chain, recorded, 32) ? recorded : d, 32);
  return TSIFT_OK;
}

/* An array of tool ids into run.tools (ids the catalog lacks are passed
 * over: a journal outlives tools). */
static tsift_status read_ids(reader *rd, const cJSON *arr, const char *key, size_t *at, size_t *n,
                             tsift_error *err) {
  *at = rd->r.ntools;
  *n = 0;
  if (!cJSON_IsArray(arr)) {
    char what[80];
    tsift_snprintf(what, sizeof what, "value.%s: expected an array of tool ids", key);
    return bad(rd, err, what);
  }
  const cJSON *item;
  cJSON_ArrayForEach(item, arr) {
    if (!cJSON_IsString(item)) {
      char what[80];
      tsift_snprintf(what, sizeof what, "value.%s: expected an array of tool ids", key);
      return bad(rd, err, what);
    }
    long d = tsift_learn_tool(rd->l, item->valuestring);
    if (d < 0) continue;
    if (push_tool(&rd->r, (uint32_t)d)) return tsift_nomem(err, "learning");
    (*n)++;
  }
  return TSIFT_OK;
}

static tsift_status read_search(reader *rd, const cJSON *rec, tsift_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, "value");
  const char *query = str_member(v, "query"), *ranker = str_member(v, "ranker");
  if (!query) return bad(rd, err, "value.query: expected a string (a search decision)");
  run_event e;
  memset(&e, 0, sizeof e);
  int select = ranker && strcmp(ranker, "select") == 0;
  e.type = select ? RE_SELECT : RE_SEARCH;
  tsift_status st = read_ids(rd, cJSON_GetObjectItemCaseSensitive(v, "results"), "results", &e.results, &e.nresults, err);
  if (!st) st = read_ids(rd, cJSON_GetObjectItemCaseSensitive(v, "loaded"), "loaded", &e.loaded, &e.nloaded, err);
  if (st) return st;
  if (!select) {
    uint32_t words[LEARN_REQUEST_MAX], surfaces[LEARN_REQUEST_MAX];
    int n = tsift_learn_request(rd->l, query, strlen(query), words, surfaces);
    if (n < 0) return tsift_nomem(err, "learning");
    run *r = &rd->r;
    size_t cap = r->words_cap;
    if (tsift_grow((void **)&r->words, &r->words_cap, r->nwords + (size_t)n + 1, sizeof *r->words) ||
        tsift_grow((void **)&r->surfaces, &cap, r->nwords + (size_t)n + 1, sizeof *r->surfaces))
      return tsift_nomem(err, "learning");
    r->surfaces_cap = cap;
    e.words = r->nwords;
    e.nwords = (size_t)n;
    memcpy(r->words + r->nwords, words, (size_t)n * sizeof *words);
    memcpy(r->surfaces + r->nwords, surfaces, (size_t)n * sizeof *surfaces);
    r->nwords += (size_t)n;
  }
  return push_event(&rd->r, &e) ? tsift_nomem(err, "learning") : TSIFT_OK;
}

/* "<loop>#turn:T:tool:C:call" → T, C. */
static int call_position(const char *id, uint32_t *turn, uint32_t *call) {
  const char *p = strstr(id, "#turn:");
  if (!p) return 0;
  p += 6;
  unsigned long long t = 0, c = 0;
  int digits = 0;
  for (; *p >= '0' && *p <= '9' && t <= 0xFFFFFFFFull; p++, digits++) t = t * 10 + (unsigned)(*p - '0');
  if (!digits || strncmp(p, ":tool:", 6) != 0) return 0;
  p += 6;
  digits = 0;
  for (; *p >= '0' && *p <= '9' && c <= 0xFFFFFFFFull; p++, digits++) c = c * 10 + (unsigned)(*p - '0');
  if (!digits || strcmp(p, ":call") != 0 || t > 0xFFFFFFFFull || c > 0xFFFFFFFFull) return 0;
  *turn = (uint32_t)t;
  *call = (uint32_t)c;
  return 1;
}

static tsift_status read_call(reader *rd, const cJSON *rec, int failed, tsift_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, "value");
  const char *tool = str_member(v, "tool"), *id = str_member(rec, "id");
  run_event e;
  memset(&e, 0, sizeof e);
  if (!tool) return bad(rd, err, "value.tool: expected a string (a call record)");
  if (!call_position(id, &e.turn, &e.call)) return bad(rd, err, "id: expected \"<loop>#turn:T:tool:C:call\" (a call record)");
  long d = tsift_learn_tool(rd->l, tool);
  if (d < 0) return TSIFT_OK; /* a tool the catalog no longer has */
  e.type = failed ? RE_FAILED : RE_CALL;
  e.tool = (uint32_t)d;
  return push_event(&rd->r, &e) ? tsift_nomem(err, "learning") : TSIFT_OK;
}

static tsift_status read_line(reader *rd, const char *line, size_t n, tsift_error *err) {
  cJSON *rec = NULL;
  char what[200];
  size_t nl = tsift_utf8_cut(rd->name, strlen(rd->name), 120);
  tsift_snprintf(what, sizeof what, "journal %.*s line %zu", (int)nl, rd->name, rd->line);
  tsift_status st = tsift_json_parse(line, n, what, &rec, err);
  if (st) return st;
  const char *source = str_member(rec, "source");
  if (!cJSON_IsObject(rec) || !str_member(rec, "id") || !source)
    st = bad(rd, err, "expected a journal record {\"id\": string, \"source\": string, \"value\": …}");
  else if (strcmp(source, SEGMENT_SOURCE) == 0)
    st = TSIFT_OK; /* the gateway's own line: not chained, not evidence */
  else if (strcmp(source, TSIFT_JOURNAL_HEADER_SOURCE) == 0)
    st = read_header(rd, rec, err);
  else if (strcmp(source, "agent-tool-search") == 0 || strcmp(source, "agent-skill-activation") == 0 ||
           strcmp(source, "agent-tool-call") == 0 || strcmp(source, "agent-tool-call-failed") == 0 ||
           strcmp(source, "host-pre-search") == 0) {
    st = check_chain(rd, rec, err);
    /* a pre-search is the user's own words searched: evidence as a search's */
    if (!st && (strcmp(source, "agent-tool-search") == 0 || strcmp(source, "host-pre-search") == 0))
      st = read_search(rd, rec, err);
    else if (!st && strcmp(source, "agent-tool-call") == 0) st = read_call(rd, rec, 0, err);
    else if (!st && strcmp(source, "agent-tool-call-failed") == 0) st = read_call(rd, rec, 1, err);
  } else {
    char msg[120];
    tsift_snprintf(msg, sizeof msg, "unknown record source \"%.60s\"", source);
    st = bad(rd, err, msg);
  }
  cJSON_Delete(rec);
  return st;
}

/* ---- what a run teaches ------------------------------------------------ */

/* Words of search event e for tool t: not t's own, not another called
 * tool's (called: the tools the run called, ncalled of them). */
static tsift_status teach(tsift_learner *l, const run *r, const run_event *e, uint32_t t, const uint32_t *called,
                          size_t ncalled, uint32_t client, uint32_t session, int kind, tsift_error *err) {
  for (size_t i = 0; i < e->nwords; i++) {
    uint32_t w = r->words[e->words + i];
    if (tsift_learn_owns(l, t, w)) continue;
    int explained = 0;
    for (size_t k = 0; k < ncalled && !explained; k++) explained = called[k] != t && tsift_learn_owns(l, called[k], w);
    if (explained) continue;
    if (tsift_learn_add(l, w, t, client, session, kind)) return tsift_nomem(err, "learning");
    if (kind != EV_AGAINST && r->surfaces[e->words + i] < UINT32_MAX - 1 &&
        tsift_learn_add_surface(l, w, r->surfaces[e->words + i]))
      return tsift_nomem(err, "learning");
  }
  return TSIFT_OK;
}

static tsift_status learn_run(tsift_learner *l, run *r, uint32_t client, tsift_error *err) {
  /* Calls the host reported failed do not count. */
  for (size_t i = 0; i < r->n; i++) {
    if (r->ev[i].type != RE_FAILED) continue;
    for (size_t k = 0; k < i; k++)
      if (r->ev[k].type == RE_CALL && r->ev[k].turn == r->ev[i].turn && r->ev[k].call == r->ev[i].call &&
          r->ev[k].tool == r->ev[i].tool)
        r->ev[k].failed = 1;
  }
  /* The tools the run called, each at its first call that did not fail;
   * tried: every tool the model called, failed or not (its words are its
   * own, not another tool's). */
  uint32_t *called = tsift_calloc_array(r->n + 1, sizeof *called), *tried = tsift_calloc_array(r->n + 1, sizeof *tried);
  size_t *first = tsift_calloc_array(r->n + 1, sizeof *first);
  if (!called || !first || !tried) {
    TSIFT_FREE_ALL(called, tried, first);
    return tsift_nomem(err, "learning");
  }
  size_t ncalled = 0, ntried = 0;
  for (size_t i = 0; i < r->n; i++) {
    if (r->ev[i].type != RE_CALL) continue;
    size_t k = 0;
    while (k < ntried && tried[k] != r->ev[i].tool) k++;
    if (k == ntried) tried[ntried++] = r->ev[i].tool;
    if (r->ev[i].failed) continue;
    k = 0;
    while (k < ncalled && called[k] != r->ev[i].tool) k++;
    if (k == ncalled) {
      called[ncalled] = r->ev[i].tool;
      first[ncalled++] = i;
    }
  }
  tsift_status st = TSIFT_OK;
  for (size_t c = 0; c < ncalled && !st; c++) {
    uint32_t t = called[c];
    /* D: the decision that put t on the menu. */
    size_t d = first[c];
    while (d-- > 0)
      if ((r->ev[d].type == RE_SEARCH || r->ev[d].type == RE_SELECT) && has_tool(r, r->ev[d].loaded, r->ev[d].nloaded, t))
        break;
    if (d == (size_t)-1) continue; /* on the menu from the start */
    /* The run's previous call before D (failed or not: a call ends what
     * the searches before it were for). */
    size_t prev = d;
    while (prev-- > 0)
      if (r->ev[prev].type == RE_CALL) break;
    if (r->ev[d].type == RE_SEARCH) st = teach(l, r, &r->ev[d], t, tried, ntried, client, (uint32_t)l->sessions, EV_FOR, err);
    else { /* a select: the latest search that listed t */
      size_t s = d;
      while (s-- > 0)
        if (r->ev[s].type == RE_SEARCH && has_tool(r, r->ev[s].results, r->ev[s].nresults, t)) break;
      if (s != (size_t)-1) st = teach(l, r, &r->ev[s], t, tried, ntried, client, (uint32_t)l->sessions, EV_FOR, err);
    }
    /* The searches since the previous call that missed t. */
    for (size_t s = prev == (size_t)-1 ? 0 : prev + 1; s < d && !st; s++)
      if (r->ev[s].type == RE_SEARCH && !has_tool(r, r->ev[s].results, r->ev[s].nresults, t))
        st = teach(l, r, &r->ev[s], t, tried, ntried, client, (uint32_t)l->sessions, EV_FOR, err);
  }
  /* Against: a tool a search loaded that the run never called. */
  for (size_t i = 0; i < r->n && !st; i++) {
    if (r->ev[i].type != RE_SEARCH) continue;
    for (size_t k = 0; k < r->ev[i].nloaded && !st; k++) {
      uint32_t t = r->tools[r->ev[i].loaded + k];
      int was_called = 0;
      for (size_t c = 0; c < ncalled && !was_called; c++) was_called = called[c] == t;
      if (!was_called) st = teach(l, r, &r->ev[i], t, NULL, 0, client, (uint32_t)l->sessions, EV_AGAINST, err);
    }
  }
  TSIFT_FREE_ALL(called, tried, first);
  return st;
}

/* Room for one more session's client (the run is numbered l->sessions
 * until it is counted). */
static tsift_status reserve_session(tsift_learner *l, tsift_error *err) {
  if (l->sessions == l->session_client_cap &&
      tsift_grow((void **)&l->session_client, &l->session_client_cap, l->sessions + 1, sizeof *l->session_client))
    return tsift_nomem(err, "learning");
  return TSIFT_OK;
}

tsift_status tsift_learn_read_journal(tsift_learner *l, const char *name, const char *text, size_t len,
                                      tsift_error *err) {
  reader rd;
  memset(&rd, 0, sizeof rd);
  rd.l = l;
  rd.name = name;
  tsift_jsonl it;
  tsift_jsonl_init(&it, text, len);
  const char *line;
  size_t n;
  tsift_status st = TSIFT_OK;
  size_t records = 0, nev = l->nev, nsurf = l->nsurf; /* an error adds nothing */
  while (!st && tsift_jsonl_next(&it, &line, &n)) {
    rd.line = it.line;
    st = read_line(&rd, line, n, err);
    records++;
  }
  if (!st) {
    const char *why = rd.problem[0] ? rd.problem
                      : rd.unverifiable ? "its chain cannot be verified (no chain, or keyed without the key here)"
                                        : NULL;
    size_t nl = tsift_utf8_cut(name, strlen(name), 120);
    if (why && l->unverified == UNVERIFIED_REFUSE) {
      st = tsift_fail(err, TSIFT_E_TAMPERED,
                      "journal %.*s: %s; refused as evidence (learn option unverified: \"skip\" or \"accept\")",
                      (int)nl, name, why);
    } else if (why && l->unverified == UNVERIFIED_SKIP) {
      l->journals++;
      l->skipped++;
    } else if (records) {
      uint32_t client = rd.client[0] ? tsift_learn_intern(&l->words, rd.client, strlen(rd.client)) : l->anonymous;
      if (client == UINT32_MAX) st = tsift_nomem(err, "learning");
      if (!st) st = reserve_session(l, err);
      if (!st) st = learn_run(l, &rd.r, client, err);
      if (!st) { /* counted only once all of it is in */
        l->session_client[l->sessions++] = client;
        l->journals++;
      }
    } else {
      l->journals++; /* an empty journal: a run that recorded nothing */
    }
  }
  run_free(&rd.r);
  if (st) {
    l->nev = nev;
    l->nsurf = nsurf;
  } else {
    tsift_ok(err);
  }
  return st;
}

/* ---- labelled examples -------------------------------------------------- */

static tsift_status read_example(tsift_learner *l, const char *line, size_t n, const char *name, size_t nl,
                                 size_t line_no, tsift_error *err);

tsift_status tsift_learn_read_examples(tsift_learner *l, const char *name, const char *text, size_t len,
                                       tsift_error *err) {
  tsift_jsonl it;
  tsift_jsonl_init(&it, text, len);
  const char *line;
  size_t n;
  size_t nl = tsift_utf8_cut(name, strlen(name), 120);
  size_t nev = l->nev, nsurf = l->nsurf, examples = l->examples; /* an error adds nothing */
  tsift_status st = TSIFT_OK;
  while (!st && tsift_jsonl_next(&it, &line, &n)) st = read_example(l, line, n, name, nl, it.line, err);
  if (st) {
    l->nev = nev;
    l->nsurf = nsurf;
    l->examples = examples;
    return st;
  }
  return tsift_ok(err);
}

/* One example line. */
static tsift_status read_example(tsift_learner *l, const char *line, size_t n, const char *name, size_t nl,
                               size_t line_no, tsift_error *err) {
  char what[200];
  tsift_snprintf(what, sizeof what, "examples %.*s line %zu", (int)nl, name, line_no);
  cJSON *q = NULL;
  tsift_status st = tsift_json_parse(line, n, what, &q, err);
  if (st) return st;
  const cJSON *query = cJSON_GetObjectItemCaseSensitive(q, "query");
  const cJSON *rel = cJSON_GetObjectItemCaseSensitive(q, "relevance");
  if (!rel) rel = cJSON_GetObjectItemCaseSensitive(q, "relevant");
  if (!cJSON_IsObject(q) || !cJSON_IsString(query) || !cJSON_IsObject(rel)) {
    cJSON_Delete(q);
    return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected {\"query\": string, \"relevance\": {\"<tool id>\": grade}}",
                      what);
  }
  /* The tools of the top grade are the example's. */
  double top = 0.0;
  const cJSON *g;
  cJSON_ArrayForEach(g, rel) {
    /* the message before the tree it quotes is freed */
    if (!cJSON_IsNumber(g) || !(g->valuedouble >= 0.0)) {
      size_t k = tsift_utf8_cut(g->string, strlen(g->string), 60);
      st = tsift_fail(err, TSIFT_E_CONFIG, "%s: relevance[\"%.*s\"]: expected a grade (a number, 0 or more)", what,
                      (int)k, g->string);
      cJSON_Delete(q);
      return st;
    }
    if (tsift_learn_tool(l, g->string) < 0) {
      size_t k = tsift_utf8_cut(g->string, strlen(g->string), 60);
      st = tsift_fail(err, TSIFT_E_CONFIG, "%s: relevance: no tool \"%.*s\" in the catalog", what, (int)k,
                      g->string);
      cJSON_Delete(q);
      return st;
    }
    if (g->valuedouble > top) top = g->valuedouble;
  }
  uint32_t targets[64];
  size_t nt = 0;
  cJSON_ArrayForEach(g, rel) if (top > 0.0 && g->valuedouble >= top && nt < 64) targets[nt++] =
      (uint32_t)tsift_learn_tool(l, g->string);
  uint32_t words[LEARN_REQUEST_MAX], surfaces[LEARN_REQUEST_MAX];
  int nw = nt ? tsift_learn_request(l, query->valuestring, strlen(query->valuestring), words, surfaces) : 0;
  cJSON_Delete(q);
  if (nw < 0) return tsift_nomem(err, "learning");
  l->examples++;
  if (!nt) return TSIFT_OK; /* a request nothing serves teaches no tool */
  run r;
  memset(&r, 0, sizeof r);
  r.words = words;
  r.surfaces = surfaces;
  run_event e;
  memset(&e, 0, sizeof e);
  e.nwords = (size_t)nw;
  st = TSIFT_OK;
  for (size_t k = 0; k < nt && !st; k++)
    st = teach(l, &r, &e, targets[k], targets, nt, 0, (uint32_t)(l->examples - 1), EV_EXAMPLE, err);
  return st;
}
