/* journal_chain.c — the journal: its append and its hash chain, what makes
 * an edited journal visible (docs/reliability.md, "Tamper-evident journals").
 *
 * Owns: the header line a journal starts with, the `chain` digest sealed
 * into every decision as it is written, and the verification of a recorded
 * journal before a replay serves anything from it.
 *
 * The chain: the header's digest is MAC(parent ‖ canonical(header)), each
 * decision's MAC(previous digest ‖ canonical(decision)), where canonical()
 * is the decision as the core's JSON writer prints it without its `chain`
 * member, and MAC is HMAC-SHA-256 — keyed with the host's journal key in
 * keyed mode, with the empty key otherwise. Unkeyed, the chain detects an
 * edit by anyone who does not recompute it (a hand edit, a tool that swaps
 * an id); keyed, by anyone who does not hold the key. A chain cannot see
 * decisions cut off the end of a journal: a shorter journal only narrows.
 *
 * The header binds the decisions to what produced them: the catalog's
 * fingerprint, the built-in ranker's version and the session's fingerprint
 * (caps, alwaysLoaded, namespaces, the loop's options, agent tools,
 * skills). `parent` (a host option) chains a journal to the one before it
 * (the gateway's segments). */
#include <string.h>

#include "base/alloc.h"
#include "catalog/catalog.h"
#include "base/fmt.h"
#include "json/json_canonical.h"
#include "session/session_internal.h"

#define HEADER_SOURCE TSIFT_JOURNAL_HEADER_SOURCE
#define CHAIN_KEY "chain"
#define CANONICAL_MAX_DEPTH 16

int tsift_chain_digest(const tsift_chain_mac *m, const uint8_t prev[32], const cJSON *v, uint8_t out[32]) {
  tsift_buf b;
  tsift_buf_init(&b);
  /* canonical(): the core's writer over the parsed record, so a journal
   * re-serialised by a host (an array of decisions, other white space or
   * escapes) hashes the same. */
  int ok = tsift_json_canonical(&b, v, CANONICAL_MAX_DEPTH, CHAIN_KEY);
  if (b.failed) ok = -1;
  if (ok > 0) {
    tsift_sha256 h;
    tsift_hmac_begin(&m->mac, &h);
    tsift_sha256_update(&h, prev, 32);
    tsift_sha256_update(&h, b.data, b.len);
    tsift_hmac_end(&m->mac, &h, out);
  }
  tsift_buf_free(&b);
  return ok;
}

static int digest_of(const tsift_session *s, const uint8_t prev[32], const cJSON *v, uint8_t out[32]) {
  return tsift_chain_digest(&s->chain.key, prev, v, out);
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1; /* lowercase only: the core writes lowercase */
}

int tsift_chain_unhex(const char *hex, uint8_t *out, size_t n) {
  if (strlen(hex) != 2 * n) return 0;
  for (size_t i = 0; i < n; i++) {
    int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return 0;
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  return 1;
}
#define unhex tsift_chain_unhex

/* The one reader of a journal key's text: 32-128 lowercase hex digits,
 * nothing else (not empty, not white space, no NUL byte, no newline) —
 * into raw[64], its byte count in *n. */
static tsift_status read_key(const char *text, size_t len, const char *where, uint8_t raw[64], size_t *n,
                             tsift_error *err) {
  *n = len / 2;
  int ok = text && len % 2 == 0 && *n >= 16 && *n <= 64;
  for (size_t i = 0; ok && i < *n; i++) {
    int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
    ok = hi >= 0 && lo >= 0;
    if (ok) raw[i] = (uint8_t)(hi << 4 | lo);
  }
  if (ok) return TSIFT_OK;
  *n = 0;
  /* what is wrong, in words (the key itself is never echoed) */
  const char *what = len ? "it has the wrong length" : "it is empty";
  for (size_t i = 0; text && i < len; i++) {
    char c = text[i];
    if (hex_value(c) >= 0) continue;
    what = c == 0                                               ? "it holds a NUL byte"
           : c == ' ' || c == '\t' || c == '\n' || c == '\r' ? "it holds white space"
           : c >= 'A' && c <= 'F'                               ? "it has uppercase hex digits"
                                                                : "it is not hex";
    break;
  }
  return tsift_fail(err, TSIFT_E_CONFIG,
                    "%s: expected 32 to 128 lowercase hex digits (a key of 16 to 64 bytes); %s (%zu byte%s)", where, what,
                    len, len == 1 ? "" : "s");
}

tsift_status tsift_journal_key_check(const char *text, size_t len, const char *where, tsift_error *err) {
  uint8_t raw[64];
  size_t n = 0;
  tsift_status st = read_key(text, len, where ? where : "journal key", raw, &n, err);
  memset(raw, 0, sizeof raw);
  if (!st) tsift_ok(err);
  return st;
}

tsift_status tsift_chain_mac_key(tsift_chain_mac *m, const cJSON *key, const char *where, tsift_error *err) {
  uint8_t raw[64];
  size_t n = 0;
  if (key && !cJSON_IsNull(key)) {
    if (!cJSON_IsString(key))
      return tsift_fail(err, TSIFT_E_CONFIG, "%s: expected 32 to 128 lowercase hex digits (a key of 16 to 64 bytes)",
                        where);
    tsift_status st = read_key(key->valuestring, strlen(key->valuestring), where, raw, &n, err);
    if (st) return st;
  }
  tsift_hmac_key(&m->mac, raw, n);
  m->keyed = n > 0;
  m->key_id[0] = 0;
  if (n) {
    /* An id for the key that reveals nothing of it: which key wrote a
     * journal, so "another key" is told apart from "edited". */
    uint8_t id[32];
    tsift_sha256 h;
    tsift_hmac_begin(&m->mac, &h);
    tsift_sha256_update(&h, "toolsift-journal-key-id", 23);
    tsift_hmac_end(&m->mac, &h, id);
    char hex[65];
    tsift_sha256_hex(id, hex);
    memcpy(m->key_id, hex, 16);
    m->key_id[16] = 0;
  }
  memset(raw, 0, sizeof raw);
  return TSIFT_OK;
}

tsift_status tsift_chain_options(tsift_session *s, const cJSON *key, const cJSON *parent, tsift_error *err) {
  tsift_status st = tsift_chain_mac_key(&s->chain.key, key, "session options: journalKey", err);
  if (st) return st;
  if (parent && !cJSON_IsNull(parent)) {
    if (!cJSON_IsString(parent) || !unhex(parent->valuestring, s->chain.parent, 32))
      return tsift_fail(err, TSIFT_E_CONFIG, "session options: journalParent: expected 64 lowercase hex digits");
    s->chain.has_parent = 1;
  }
  return TSIFT_OK;
}

/* The header line, and its digest as the chain's head. */
static int write_header(tsift_session *s) {
  tsift_buf b;
  tsift_buf_init(&b);
  char id[200], hex[65];
  tsift_snprintf(id, sizeof id, "%s#journal", s->loop);
  tsift_json_begin_object(&b);
  tsift_json_key_cstr(&b, "id", id);
  tsift_json_key_cstr(&b, "source", HEADER_SOURCE);
  tsift_json_key(&b, "value");
  tsift_json_begin_object(&b);
  tsift_json_key_int(&b, "version", 1);
  tsift_json_key_cstr(&b, "ranker", TSIFT_RANKER_VERSION);
  tsift_json_key_cstr(&b, "catalog", s->index->fingerprint);
  tsift_json_key_cstr(&b, "session", s->fingerprint);
  tsift_json_key_cstr(&b, "mac", s->chain.key.keyed ? "hmac-sha256" : "none");
  if (s->chain.key.keyed) tsift_json_key_cstr(&b, "keyId", s->chain.key.key_id);
  if (s->index->vocabulary[0]) { /* the vocabulary the run searched under (docs/learning.md) */
    tsift_json_key_cstr(&b, "vocabulary", s->index->vocabulary);
  }
  if (s->menu_all) { /* every tool on the menu, no search_tools (search.auto, session_auto.c) */
    tsift_json_key_cstr(&b, "mode", "all");
  }
  if (s->client) { /* who the run served: learning counts evidence per client (learn.c) */
    tsift_json_key_cstr(&b, "client", s->client);
  }
  if (s->chain.has_parent) {
    tsift_sha256_hex(s->chain.parent, hex);
    tsift_json_key_cstr(&b, "parent", hex);
  }
  tsift_json_end_object(&b);
  tsift_json_end_object(&b);
  static const uint8_t zero[32];
  if (!tsift_chain_seal(s, &b, 0, s->chain.has_parent ? s->chain.parent : zero)) {
    tsift_buf_free(&b);
    return 0;
  }
  memcpy(s->chain.head, s->chain.next, 32);
  s->chain.header = tsift_buf_take(&b, &s->chain.header_len);
  return s->chain.header != NULL;
}

tsift_status tsift_chain_open(tsift_session *s, tsift_error *err) {
  if (!s->chain.has_parent) return TSIFT_OK;
  /* A journal that continues another starts with its header at once, so
   * the link (and the configuration it binds) is recorded even if this
   * part decides nothing (the gateway's segments). */
  if (!write_header(s)) return tsift_nomem(err, "writing the journal header");
  tsift_buf_append(&s->journal, s->chain.header, s->chain.header_len);
  tsift_buf_putc(&s->journal, '\n');
  return s->journal.failed ? tsift_nomem(err, "writing the journal header") : TSIFT_OK;
}

int tsift_chain_seal(tsift_session *s, tsift_buf *b, size_t start, const uint8_t *prev) {
  if (b->failed || b->len <= start || b->data[b->len - 1] != '}') return 0;
  if (!prev) {
    if (!s->chain.header && !write_header(s)) return 0;
    prev = s->chain.head;
  }
  cJSON *v = cJSON_ParseWithLength(b->data + start, b->len - start);
  int ok = v && digest_of(s, prev, v, s->chain.next) > 0;
  cJSON_Delete(v);
  if (!ok) return 0;
  char hex[65];
  tsift_sha256_hex(s->chain.next, hex);
  b->len--; /* reopen the object: its last member is the chain */
  tsift_buf_append(b, ",\"" CHAIN_KEY "\":\"", sizeof CHAIN_KEY + 4);
  tsift_buf_append(b, hex, 64);
  tsift_buf_append(b, "\"}", 2);
  return !b->failed;
}

/* ---- the journal's append ---------------------------------------------- */
int tsift_session_record(tsift_session *s, const char *decision, size_t len) {
  /* The journal's line is the decision sealed into the hash chain
   * (journal_chain.c); the call's output shows the decision alone. */
  tsift_buf line;
  tsift_buf_init(&line);
  tsift_buf_append(&line, decision, len);
  int sealed = tsift_chain_seal(s, &line, 0, NULL);
  size_t before = s->journal.len;
  if (sealed && before == 0) { /* the chain's header opens the journal */
    tsift_buf_append(&s->journal, s->chain.header, s->chain.header_len);
    tsift_buf_putc(&s->journal, '\n');
  }
  if (sealed) tsift_buf_append(&s->journal, line.data, line.len);
  tsift_buf_free(&line);
  tsift_buf_putc(&s->journal, '\n');
  if (!sealed || s->journal.failed) {
    /* roll the journal back to its last complete line */
    s->journal.failed = 0;
    s->journal.len = before;
    if (s->journal.data) s->journal.data[before] = 0;
    return 0;
  }
  memcpy(s->chain.head, s->chain.next, sizeof s->chain.head);
  return 1;
}

/* ---- verification ------------------------------------------------------ */

/* Record a problem: at 0 the journal as a whole, else decision `at`. */
static int problem(tsift_session *s, size_t at, const char *fmt, const char *a, const char *b) {
  char msg[320];
  tsift_snprintf(msg, sizeof msg, fmt, a, b);
  char *m = tsift_strndup(msg, tsift_utf8_cut(msg, strlen(msg), sizeof msg - 1));
  if (!m) return 0;
  if (at == 0) {
    if (s->chain.nheader_problems < CHAIN_MAX_HEADER_PROBLEMS) s->chain.header_problems[s->chain.nheader_problems++] = m;
    else tsift_free(m);
  } else {
    tsift_free(s->chain.problem[at - 1]);
    s->chain.problem[at - 1] = m;
  }
  return 1;
}

static const char *str_member(const cJSON *v, const char *key) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, key);
  return cJSON_IsString(m) ? m->valuestring : NULL;
}

static const char *id_of(const cJSON *rec) {
  const char *id = str_member(rec, "id");
  return id ? id : "";
}

/* The header against the live session; its digest into head, and *comparable
 * 0 when the digests cannot be checked (another key, or none). 0 when out of
 * memory. */
static int check_header(tsift_session *s, const cJSON *h, uint8_t head[32], int *comparable) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(h, "value");
  const char *mac = str_member(v, "mac"), *key_id = str_member(v, "keyId"), *parent = str_member(v, "parent");
  const char *chain = str_member(h, CHAIN_KEY);
  static const uint8_t zero[32];
  uint8_t prev[32];
  memcpy(prev, zero, 32);
  int ok = 1;
  if (parent && !unhex(parent, prev, 32))
    ok &= problem(s, 0, "journal header: parent \"%.70s\" is not a digest%s", parent, "");
  if (s->chain.has_parent && (!parent || memcmp(prev, s->chain.parent, 32) != 0))
    ok &= problem(s, 0, "journal header: it does not continue the journal before it (parent%s%s)",
                  parent ? " " : " missing", parent ? parent : "");
  size_t before = s->chain.nheader_problems;
  if (!mac || (strcmp(mac, "none") != 0 && strcmp(mac, "hmac-sha256") != 0))
    ok &= problem(s, 0, "journal header: mac: expected \"none\" or \"hmac-sha256\"%s%s", "", "");
  else if (strcmp(mac, "hmac-sha256") == 0 && !s->chain.key.keyed)
    ok &= problem(s, 0, "journal header: the journal is keyed (HMAC-SHA-256): pass its key to verify it%s%s", "", "");
  else if (strcmp(mac, "none") == 0 && s->chain.key.keyed)
    ok &= problem(s, 0, "journal header: the journal is not keyed, but a journal key was given%s%s", "", "");
  else if (s->chain.key.keyed && (!key_id || strcmp(key_id, s->chain.key.key_id) != 0))
    ok &= problem(s, 0, "journal header: written with another key (key id %.20s, this key's %s)",
                  key_id ? key_id : "missing", s->chain.key.key_id);
  /* Under another key (or none) every digest differs: the key problem is
   * the one to report, not a break at every line. */
  *comparable = s->chain.nheader_problems == before;
  uint8_t d[32];
  int r = digest_of(s, prev, h, d);
  if (r < 0) return 0;
  if (r == 0) return ok & problem(s, 0, "journal header: not a header toolsift writes (nested too deep)%s%s", "", "");
  uint8_t recorded[32];
  if (!*comparable) memcpy(d, prev, 32);
  else if (!chain || !unhex(chain, recorded, 32) || memcmp(recorded, d, 32) != 0)
    ok &= problem(s, 0, "journal header: its digest does not match its content (%s)%s",
                  s->chain.key.keyed ? "edited, or written with another key" : "edited", "");
  else memcpy(d, recorded, 32);
  memcpy(head, d, 32);
  const char *ranker = str_member(v, "ranker"), *catalog = str_member(v, "catalog"), *session = str_member(v, "session");
  if (!ranker || strcmp(ranker, TSIFT_RANKER_VERSION) != 0)
    ok &= problem(s, 0, "journal header: recorded by ranker %.40s, this is " TSIFT_RANKER_VERSION "%s",
                  ranker ? ranker : "(missing)", "");
  /* Another vocabulary is a divergence, not an edit: the run searched under
   * other words (its catalog and session fingerprints differ because of it,
   * so they are not compared). */
  const char *vocab = str_member(v, "vocabulary"), *live = s->index->vocabulary;
  if (strcmp(vocab ? vocab : "", live) != 0) {
    char rec[80], now[80];
    tsift_snprintf(rec, sizeof rec, vocab ? "vocabulary %.12s…" : "no vocabulary", vocab);
    tsift_snprintf(now, sizeof now, live[0] ? "vocabulary %.12s…" : "no vocabulary", live);
    s->chain.vocabulary_differs = 1;
    return ok & problem(s, 0, "journal header: recorded under %s, the live index has %s (learned vocabularies: "
                        "docs/learning.md)", rec, now);
  }
  if (!catalog || strcmp(catalog, s->index->fingerprint) != 0)
    ok &= problem(s, 0, "journal header: recorded over catalog %.12s…, the live catalog is %.12s…",
                  catalog ? catalog : "(missing)", s->index->fingerprint);
  /* The client is part of the record (learning counts evidence by it): a
   * replay for another one would write another journal. */
  const char *client = str_member(v, "client");
  if (client && !s->client) {
    /* A replay that names no client continues the recorded one's run (its
     * journal is written again as it was). */
    size_t n = strlen(client);
    if (!(s->client = tsift_strndup(client, n > 64 ? tsift_utf8_cut(client, n, 64) : n))) return 0;
  } else if (strcmp(client ? client : "", s->client ? s->client : "") != 0) {
    ok &= problem(s, 0, "journal header: recorded for client \"%.64s\", the live session's is \"%.64s\"",
                  client ? client : "(none)", s->client);
  }
  /* The menu's mode (search.auto) is decided when the session is created:
   * a run with every tool on the menu is not one that searched. */
  const char *mode = str_member(v, "mode");
  if (strcmp(mode ? mode : "search", s->menu_all ? "all" : "search") != 0)
    ok &= problem(s, 0, "journal header: recorded in mode \"%.16s\", the live session's is \"%s\" (search.auto)",
                  mode, s->menu_all ? "all" : "search");
  if (!session || strcmp(session, s->fingerprint) != 0)
    ok &= problem(s, 0,
                  "journal header: recorded under another session configuration (caps, alwaysLoaded, "
                  "namespaces, loop options, tools or skills): fingerprint %.12s…, the live one %.12s…",
                  session ? session : "(missing)", s->fingerprint);
  return ok;
}

int tsift_chain_is_header(const cJSON *rec) {
  const char *src = str_member(rec, "source");
  return src && strcmp(src, HEADER_SOURCE) == 0;
}

tsift_status tsift_chain_verify(tsift_session *s, const cJSON *header, tsift_error *err) {
  s->chain.problem = tsift_calloc_array(s->nreplay + 1, sizeof *s->chain.problem);
  if (!s->chain.problem) return tsift_nomem(err, "verifying the journal");
  int chained = 0;
  for (size_t k = 0; k < s->nreplay; k++) chained |= cJSON_GetObjectItemCaseSensitive(s->replay_items[k], CHAIN_KEY) != NULL;
  int ok = 1;
  if (!header) {
    if (chained) ok = problem(s, 0, "journal: its decisions are chained but the header line is missing%s%s", "", "");
    else if (s->chain.key.keyed && s->nreplay)
      ok = problem(s, 0, "journal: no hash chain, but a journal key was given: an unchained journal cannot be "
                   "verified%s%s", "", "");
    else s->chain.unverifiable = s->nreplay > 0;
  } else {
    uint8_t head[32];
    int comparable = 1;
    ok = check_header(s, header, head, &comparable);
    for (size_t k = 0; ok && comparable && k < s->nreplay; k++) {
      const cJSON *rec = s->replay_items[k];
      const char *chain = str_member(rec, CHAIN_KEY);
      char num[40]; /* "decision N", or "call record N" (N counts every line after the header) */
      tsift_snprintf(num, sizeof num, "%s %zu", tsift_journal_is_call_record(rec) ? "call record" : "decision", k + 1);
      uint8_t d[32], recorded[32];
      int r = digest_of(s, head, rec, d);
      if (r <= 0) {
        ok = r == 0 && problem(s, k + 1, "journal %s: not a record toolsift writes (nested too deep)%s", num, "");
        continue;
      }
      if (!chain) ok = problem(s, k + 1, "journal %s (\"%.80s\"): no chain digest", num, id_of(rec));
      else if (!unhex(chain, recorded, 32) || memcmp(recorded, d, 32) != 0)
        ok = problem(s, k + 1,
                     "journal %s (\"%.80s\"): chain broken: its digest does not match its content and the "
                     "line before it (edited, inserted, moved, or one before it removed)",
                     num, id_of(rec));
      /* Go on from the recorded digest: a break is reported where it is,
       * not again for every decision after it. */
      memcpy(head, chain && unhex(chain, recorded, 32) ? recorded : d, 32);
    }
  }
  if (!ok) return tsift_nomem(err, "verifying the journal");
  if (s->divergence == DIVERGE_FAIL && s->chain.vocabulary_differs) {
    /* the vocabulary's problem is the header's last */
    return tsift_fail(err, TSIFT_E_DIVERGED, "%s", s->chain.header_problems[s->chain.nheader_problems - 1]);
  }
  if (s->divergence == DIVERGE_FAIL) {
    const char *first = s->chain.nheader_problems ? s->chain.header_problems[0] : NULL;
    for (size_t k = 0; !first && k < s->nreplay; k++) first = s->chain.problem[k];
    if (first) return tsift_fail(err, TSIFT_E_TAMPERED, "%s", first);
  }
  return TSIFT_OK;
}

void tsift_chain_warn(tsift_session *s, size_t k, warnings *w) {
  if (s->divergence == DIVERGE_OFF) return;
  if (!s->chain.warned) {
    s->chain.warned = 1;
    for (size_t i = 0; i < s->chain.nheader_problems; i++) tsift_warn(w, "replay: %s%s", s->chain.header_problems[i], NULL);
    if (s->chain.unverifiable)
      tsift_warn(w, "replay: the journal has no hash chain (written before toolsift chained journals): edits to it "
                 "cannot be detected%s%s", NULL, NULL);
  }
  if (k < s->nreplay && s->chain.problem && s->chain.problem[k]) tsift_warn(w, "replay: %s%s", s->chain.problem[k], NULL);
}

void tsift_chain_free(tsift_session *s) {
  tsift_free(s->chain.header);
  for (size_t i = 0; i < s->chain.nheader_problems; i++) tsift_free(s->chain.header_problems[i]);
  if (s->chain.problem)
    for (size_t k = 0; k < s->nreplay; k++) tsift_free(s->chain.problem[k]);
  tsift_free(s->chain.problem);
  memset(&s->chain.key.mac, 0, sizeof s->chain.key.mac);
}

/* {"verified", "chained", "keyed", "decisions", "problems": [{"at", "problem"}]} */
tsift_status tsift_session_verify_json(const tsift_session *s, char **out, size_t *out_len, tsift_error *err) {
  if (!s || !out) return tsift_fail(err, TSIFT_E_ARG, "tsift_session_verify_json: NULL argument");
  size_t bad = s->chain.nheader_problems;
  for (size_t k = 0; s->chain.problem && k < s->nreplay; k++) bad += s->chain.problem[k] != NULL;
  tsift_buf b;
  tsift_json_open_object(&b);
  tsift_json_key_bool(&b, "verified", s->replay && bad == 0 && !s->chain.unverifiable);
  tsift_json_key_bool(&b, "chained", s->replay && !s->chain.unverifiable);
  tsift_json_key_bool(&b, "keyed", s->chain.key.keyed);
  tsift_json_key_int(&b, "decisions", (long long)tsift_replay_decisions(s));
  tsift_json_key(&b, "problems");
  tsift_json_begin_array(&b);
  for (size_t i = 0; i < s->chain.nheader_problems + s->nreplay; i++) {
    size_t at = i < s->chain.nheader_problems ? 0 : i - s->chain.nheader_problems + 1;
    const char *p = at ? (s->chain.problem ? s->chain.problem[at - 1] : NULL) : s->chain.header_problems[i];
    if (!p) continue;
    tsift_json_begin_object(&b);
    tsift_json_key_int(&b, "at", (long long)at);
    tsift_json_key_cstr(&b, "problem", p);
    tsift_json_end_object(&b);
  }
  tsift_json_end_array(&b);
  tsift_json_end_object(&b);
  return tsift_buf_finish(&b, out, out_len, "verifying the journal", err);
}

/* ---- call records in a recorded journal ------------------------------- */

int tsift_journal_is_call_record(const cJSON *rec) {
  const cJSON *src = cJSON_GetObjectItemCaseSensitive(rec, "source");
  return cJSON_IsString(src) &&
         (strcmp(src->valuestring, CALL_SOURCE) == 0 || strcmp(src->valuestring, CALL_FAILED_SOURCE) == 0);
}

/* A replayed run makes its calls again and records them live, so the
 * recorded ones are only passed over (their chain was verified with the
 * rest). */
void tsift_replay_skip_records(tsift_session *s, warnings *w) {
  while (s->replay && s->replay_pos < s->nreplay && tsift_journal_is_call_record(s->replay_items[s->replay_pos])) {
    if (w) tsift_chain_warn(s, s->replay_pos, w);
    s->replay_pos++;
  }
}

size_t tsift_replay_decisions(const tsift_session *s) {
  size_t n = 0;
  for (size_t k = 0; s->replay && k < s->nreplay; k++) n += !tsift_journal_is_call_record(s->replay_items[k]);
  return n;
}
