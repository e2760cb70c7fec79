/* session_skill.c — the activate_skill meta-tool (SPEC S8, S9): typed
 * refusals that record nothing, activation (instructions delivered, the
 * skill's tools appended to the menu), refusals of tainted or oversized
 * instructions (recorded with their verdict), re-delivery, and the replay
 * of recorded activations pinned by digest. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fmt.h"
#include "session/session_internal.h"
#include "json/json_read.h"

/* The verdict on delivering skill k's current text, or NULL when it may be
 * delivered. */
static const char *verdict_of(const tsift_skills *sk, size_t k) {
  if (sk->items[k].tainted) return "tainted";
  if (sk->items[k].instructions_len > sk->max_instruction_bytes) return "oversized";
  return NULL;
}

/* Append skill k's tools to the menu: catalog tools that are not on it yet,
 * in the skill's order (agent tools are always there). */
static void add_tools(tsift_session *s, size_t k) {
  const tsift_skill *sk = &s->skills->items[k];
  for (size_t i = 0; i < sk->ntools; i++) {
    long d = tsift_session_find_doc(s, sk->tools[i]);
    if (d >= 0) tsift_session_menu_add(s, (uint32_t)d);
  }
}

static void write_tools(tsift_buf *b, const tsift_skill *k) {
  tsift_json_key(b, "tools");
  tsift_json_begin_array(b);
  for (size_t i = 0; i < k->ntools; i++) tsift_json_cstr(b, k->tools[i]);
  tsift_json_end_array(b);
}

/* The result object: the instructions when the pinned digest is the current
 * one, otherwise instructions_changed / instructions_unavailable. */
static void write_result(tsift_buf *b, const tsift_skill *k, const char *pinned) {
  tsift_json_begin_object(b);
  if (strcmp(pinned, k->digest) == 0) {
    tsift_json_key_cstr(b, "skill", k->id);
    tsift_json_key_str(b, "instructions", k->instructions ? k->instructions : "", k->instructions_len);
  } else {
    int gone = !k->instructions;
    tsift_json_key_cstr(b, "error", gone ? "instructions_unavailable" : "instructions_changed");
    tsift_json_key_cstr(b, "message",
                        gone ? "the instructions this run was recorded with are no longer available"
                             : "the instructions changed since this run was recorded; they are not delivered");
    tsift_json_key_cstr(b, "skill", k->id);
  }
  write_tools(b, k);
  tsift_json_end_object(b);
}

static void warn_changed(tsift_session *s, size_t k, const char *pinned, warnings *w) {
  tsift_skills *sk = s->skills;
  if (strcmp(pinned, sk->items[k].digest) == 0 || sk->warned[k]) return;
  char id[NAME_ECHO_BYTES + 1];
  size_t n = tsift_utf8_cut(sk->items[k].id, strlen(sk->items[k].id), NAME_ECHO_BYTES);
  memcpy(id, sk->items[k].id, n);
  id[n] = 0;
  tsift_warn(w, "replay: skill \"%s\": %s", id,
             sk->items[k].instructions ? "instructions changed since the run was recorded"
                                       : "instructions no longer available");
}

/* Write {"call", "result", "decision", "resultBytes"[, "warnings"]}; the
 * decision (NULL: none) is recorded. Commits nothing else. */
static tsift_status write_output(tsift_session *s, const call_ref *c, const tsift_buf *result,
                                 const tsift_buf *decision, size_t result_bytes, const warnings *w, char **out,
                                 size_t *out_len, tsift_error *err) {
  tsift_buf b;
  tsift_buf_init(&b);
  tsift_session_begin_output(&b, c);
  tsift_json_key(&b, "result");
  tsift_json_raw(&b, result->data, result->len);
  tsift_json_key(&b, "decision");
  if (decision) tsift_json_raw(&b, decision->data, decision->len);
  else tsift_json_null(&b);
  tsift_json_key_int(&b, "resultBytes", (long long)result_bytes);
  tsift_write_warnings(&b, w);
  tsift_json_end_object(&b);
  if (b.failed || result->failed || (decision && decision->failed) || w->nomem ||
      (decision && !tsift_session_record(s, decision->data, decision->len))) {
    /* a tool's stored text can be a bad code (a crafted snapshot) */
    tsift_status st = result->failed || b.failed ? tsift_buf_error(result->failed ? result : &b, "activating a skill", err)
                                                 : tsift_nomem(err, "activating a skill");
    tsift_buf_free(&b);
    return st;
  }
  *out = tsift_buf_take(&b, out_len);
  if (decision) {
    s->ndecisions++;
    s->last_turn = c->turn;
    s->last_call = c->call;
    s->last_pre = 0;
  }
  return tsift_ok(err);
}

static void begin_decision(tsift_buf *d, const char *did, const tsift_skill *k) {
  tsift_json_begin_object(d);
  tsift_json_key_cstr(d, "id", did);
  tsift_json_key_cstr(d, "source", "agent-skill-activation");
  tsift_json_key(d, "value");
  tsift_json_begin_object(d);
  tsift_json_key_cstr(d, "skill", k->id);
}

static void end_decision(tsift_buf *d) {
  tsift_json_end_object(d);
  tsift_json_end_object(d);
}

/* Refuse skill k's instructions with `verdict`: recorded, nothing loaded. */
static tsift_status refuse_instructions(tsift_session *s, const call_ref *c, const char *did, size_t k,
                                        const char *verdict, warnings *w, char **out, size_t *out_len,
                                        tsift_error *err) {
  const tsift_skill *sk = &s->skills->items[k];
  tsift_buf r, d;
  tsift_buf_init(&r);
  tsift_buf_init(&d);
  tsift_json_begin_object(&r);
  tsift_json_key_cstr(&r, "error", "instructions_refused");
  tsift_json_key_cstr(&r, "message",
                      strcmp(verdict, "tainted") == 0 ? "this skill's instructions are tainted and are not delivered"
                                                      : "this skill's instructions are over the size limit");
  tsift_json_key_cstr(&r, "skill", sk->id);
  tsift_json_key_cstr(&r, "verdict", verdict);
  tsift_json_end_object(&r);
  begin_decision(&d, did, sk);
  tsift_json_key_cstr(&d, "verdict", verdict);
  end_decision(&d);
  tsift_status st = write_output(s, c, &r, &d, r.len, w, out, out_len, err);
  if (!st) s->metrics.refusals++;
  tsift_buf_free(&r);
  tsift_buf_free(&d);
  return st;
}

/* Activate skill k, pinned to `pinned` (the current digest when live, the
 * recorded one on replay). `recorded` (replay) holds the sizes to report and
 * to record again; NULL records the current ones. */
typedef struct recorded_sizes {
  size_t bytes, result_bytes;
} recorded_sizes;

static tsift_status activate(tsift_session *s, const call_ref *c, const char *did, size_t k, const char *pinned,
                             const recorded_sizes *recorded, warnings *w, char **out, size_t *out_len,
                             tsift_error *err) {
  tsift_skills *sk = s->skills;
  const tsift_skill *skill = &sk->items[k];
  tsift_buf r, d;
  tsift_buf_init(&r);
  tsift_buf_init(&d);
  warn_changed(s, k, pinned, w);
  write_result(&r, skill, pinned);
  size_t result_bytes = recorded ? recorded->result_bytes : r.len;
  begin_decision(&d, did, skill);
  tsift_json_key_cstr(&d, "digest", pinned);
  tsift_json_key_int(&d, "bytes", (long long)(recorded ? recorded->bytes : skill->bytes));
  tsift_json_key_int(&d, "resultBytes", (long long)result_bytes);
  end_decision(&d);
  size_t menu_before = s->nmenu;
  tsift_status st = write_output(s, c, &r, &d, result_bytes, w, out, out_len, err);
  if (!st) {
    sk->active[k] = 1;
    memcpy(sk->pinned[k], pinned, 65);
    sk->warned[k] |= strcmp(pinned, skill->digest) != 0;
    sk->nactive++;
    sk->activations++;
    add_tools(s, k);
    s->metrics.loaded += s->nmenu - menu_before;
  }
  tsift_buf_free(&r);
  tsift_buf_free(&d);
  return st;
}

/* A typed refusal that records nothing; `name` (may be NULL) is echoed
 * capped as "skill". */
static tsift_status refuse(tsift_session *s, const call_ref *c, const char *code, const char *message,
                           const char *name, char **out, size_t *out_len, tsift_error *err) {
  return tsift_session_refuse_echo(s, c, code, message, "skill", name, out, out_len, err);
}

/* 1 when v is a 64-digit lowercase hex string. */
static int is_digest(const cJSON *v) {
  if (!cJSON_IsString(v) || strlen(v->valuestring) != 64) return 0;
  for (const char *p = v->valuestring; *p; p++)
    if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return 0;
  return 1;
}

/* Serve a recorded activation (SPEC S8/S9): re-admitted against the live
 * session, so a tampered record can only narrow. */
static tsift_status serve_recorded(tsift_session *s, const call_ref *c, const char *did, const cJSON *rec,
                                   warnings *w, char **out, size_t *out_len, tsift_error *err) {
  tsift_skills *sk = s->skills;
  const cJSON *value = cJSON_GetObjectItemCaseSensitive(rec, "value");
  const cJSON *skill = cJSON_GetObjectItemCaseSensitive(value, "skill");
  const cJSON *verdict = cJSON_GetObjectItemCaseSensitive(value, "verdict");
  const cJSON *rb = cJSON_GetObjectItemCaseSensitive(value, "resultBytes");
  const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(value, "bytes");
  long k = cJSON_IsString(skill) ? tsift_skills_find(sk, skill->valuestring) : -1;
  const char *why = !cJSON_IsObject(value)   ? "the value is not an object"
                    : !cJSON_IsString(skill) ? "value.skill is not a string"
                    : k < 0                  ? "unknown"
                    : sk->active[k]          ? "already active"
                    : sk->nactive >= sk->max_active ? "over maxActive"
                    : (verdict && !(cJSON_IsString(verdict) && (strcmp(verdict->valuestring, "tainted") == 0 ||
                                                                strcmp(verdict->valuestring, "oversized") == 0)))
                        ? "an unknown verdict"
                        : NULL;
  if (why) {
    /* Dropped: nothing is activated or recorded; the model is told the text
     * is unavailable, with the recorded size when there is one. */
    char name[NAME_ECHO_BYTES + 1] = "";
    if (cJSON_IsString(skill)) {
      size_t n = tsift_utf8_cut(skill->valuestring, strlen(skill->valuestring), NAME_ECHO_BYTES);
      memcpy(name, skill->valuestring, n);
      name[n] = 0;
    }
    char msg[200];
    tsift_snprintf(msg, sizeof msg, "replay: dropped skill decision \"%%s\": %s%%s", why);
    tsift_warn(w, msg, did, NULL);
    tsift_buf r;
    tsift_buf_init(&r);
    tsift_json_begin_object(&r);
    tsift_json_key_cstr(&r, "error", "instructions_unavailable");
    tsift_json_key_cstr(&r, "message", "the recorded skill activation cannot be served in this session");
    tsift_json_key_cstr(&r, "skill", name);
    tsift_json_key(&r, "tools");
    tsift_json_begin_array(&r);
    tsift_json_end_array(&r);
    tsift_json_end_object(&r);
    size_t reported = tsift_json_integral(rb, 0, 1e12) ? (size_t)rb->valuedouble : r.len;
    tsift_status st = write_output(s, c, &r, NULL, reported, w, out, out_len, err);
    if (!st) s->metrics.refusals++;
    tsift_buf_free(&r);
    return st;
  }
  if (verdict) /* a recorded refusal is reproduced, whatever the text is now */
    return refuse_instructions(s, c, did, (size_t)k, verdict->valuestring, w, out, out_len, err);
  const char *now = verdict_of(sk, (size_t)k);
  if (now) { /* narrowed: the text may no longer be delivered */
    tsift_warn(w, "replay: skill decision \"%s\": refused now (%s)", did, now);
    return refuse_instructions(s, c, did, (size_t)k, now, w, out, out_len, err);
  }
  recorded_sizes sizes = {
      tsift_json_integral(bytes, 0, 1e12) ? (size_t)bytes->valuedouble : sk->items[k].bytes,
      0,
  };
  char pinned[65] = "-"; /* an unreadable digest never matches a text */
  const cJSON *digest = cJSON_GetObjectItemCaseSensitive(value, "digest");
  if (is_digest(digest)) memcpy(pinned, digest->valuestring, 65);
  if (tsift_json_integral(rb, 0, 1e12)) {
    sizes.result_bytes = (size_t)rb->valuedouble;
  } else { /* the size this result has */
    tsift_buf r;
    tsift_buf_init(&r);
    write_result(&r, &sk->items[k], pinned);
    if (r.failed) {
      tsift_buf_free(&r);
      return tsift_nomem(err, "activating a skill");
    }
    sizes.result_bytes = r.len;
    tsift_buf_free(&r);
  }
  return activate(s, c, did, (size_t)k, pinned, &sizes, w, out, out_len, err);
}

tsift_status tsift_session_activate(tsift_session *s, const call_ref *c, const cJSON *args, char **out,
                                    size_t *out_len, tsift_error *err) {
  tsift_skills *sk = s->skills;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(args, "name");
  if (!cJSON_IsObject(args) || !cJSON_IsString(name) || !name->valuestring[0])
    return refuse(s, c, "invalid_input", "name must be a non-empty string (a skill id)", NULL, out, out_len, err);
  char did[200];
  tsift_snprintf(did, sizeof did, "%s#turn:%u:tool:%u:skill", s->loop, c->turn, c->call);
  warnings w = {{0}, 0, 0};
  tsift_status st;

  /* A recorded activation at this position is served (by its own skill). */
  tsift_replay_skip_records(s, &w);
  const cJSON *rec = s->replay && s->replay_pos < s->nreplay ? s->replay_items[s->replay_pos] : NULL;
  const cJSON *rid = cJSON_GetObjectItemCaseSensitive(rec, "id");
  if (rec && cJSON_IsString(rid) && strcmp(rid->valuestring, did) == 0) {
    if ((st = tsift_session_check_advance(s, c, "activation", err))) return st;
    tsift_chain_warn(s, s->replay_pos, &w);
    st = serve_recorded(s, c, did, rec, &w, out, out_len, err);
    if (st == TSIFT_OK) {
      s->replay_pos++;
      s->metrics.replayed++;
    }
    tsift_warnings_free(&w);
    return st;
  }

  long k = tsift_skills_find(sk, name->valuestring);
  if (k < 0)
    return refuse(s, c, "unknown_skill", "no skill with this name; check the skill index or search for it",
                  name->valuestring, out, out_len, err);
  if (sk->active[k]) {
    /* Re-delivery: nothing recorded, no tools added. */
    warn_changed(s, (size_t)k, sk->pinned[k], &w);
    tsift_buf r;
    tsift_buf_init(&r);
    write_result(&r, &sk->items[k], sk->pinned[k]);
    st = write_output(s, c, &r, NULL, r.len, &w, out, out_len, err);
    if (!st && strcmp(sk->pinned[k], sk->items[k].digest) != 0) sk->warned[k] = 1;
    tsift_buf_free(&r);
    tsift_warnings_free(&w);
    return st;
  }
  if (sk->nactive >= sk->max_active)
    return refuse(s, c, "skill_limit_reached", "no more skills can be active in this run", NULL, out, out_len,
                  err);

  /* This call records a decision. */
  if ((st = tsift_session_check_advance(s, c, "activation", err))) return st;
  if (s->replay) {
    tsift_chain_warn(s, SIZE_MAX, &w);
    if (s->divergence == DIVERGE_FAIL)
      return tsift_fail(err, TSIFT_E_DIVERGED, "replay: the journal has no decision \"%s\" at position %zu", did,
                        s->replay_pos + 1);
    if (s->divergence == DIVERGE_WARN)
      tsift_warn(&w, "replay: the journal has no decision \"%s\" here; handled live%s", did, NULL);
  }
  const char *verdict = verdict_of(sk, (size_t)k);
  if (verdict) st = refuse_instructions(s, c, did, (size_t)k, verdict, &w, out, out_len, err);
  else st = activate(s, c, did, (size_t)k, sk->items[k].digest, NULL, &w, out, out_len, err);
  tsift_warnings_free(&w);
  return st;
}
