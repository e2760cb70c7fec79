/* skills.h — skills (SPEC S8): the catalog's skills and the session's
 * `skills` configuration, the system-prompt index, and the small BM25F index
 * over skills that discovery searches. The activate_skill meta-tool and its
 * replay live in session_skill.c. */
#ifndef TSIFT_SKILLS_H
#define TSIFT_SKILLS_H

#include <stddef.h>
#include <stdint.h>

#include "index/index.h"
#include "toolsift.h"

struct cJSON;

#define SKILLS_MAX_ACTIVE_DEFAULT 5
#define SKILLS_MAX_ACTIVE_CEILING 50
#define SKILLS_MAX_INDEX_DEFAULT 50
#define SKILLS_MAX_INDEX_CEILING 500
#define SKILLS_MAX_INDEX_BYTES_DEFAULT 8192
#define SKILLS_MAX_INDEX_BYTES_CEILING 131072
#define SKILLS_MAX_INSTRUCTION_BYTES_DEFAULT 32768
#define SKILLS_MAX_INSTRUCTION_BYTES_CEILING 1048576
/* An index line's description is cut at this many characters. */
#define SKILLS_INDEX_DESCRIPTION_CHARS 160
/* Ids longer than this are left out of the index (a model could not name them). */
#define SKILLS_INDEX_ID_BYTES 128

enum { DISCOVERY_INDEX = 1, DISCOVERY_SEARCH = 2, DISCOVERY_BOTH = 3 };

/* One skill of the catalog. Strings are owned copies. */
typedef struct tsift_skill {
  char *id;
  char *description;  /* or NULL */
  char *instructions; /* or NULL: no text (delivered as "", pinned as "") */
  size_t instructions_len;
  char **tags, **aliases, **tools;
  size_t ntags, naliases, ntools;
  uint8_t tainted;
  char digest[65];     /* sha256 of the instructions */
  size_t bytes;        /* UTF-8 length of the instructions as a JSON string body */
} tsift_skill;

/* The skills of one session: the available skills (sorted by id) and what
 * the configuration says about them. */
typedef struct tsift_skills {
  tsift_skill *items;
  size_t n;
  char *tool_name; /* the activation meta-tool */
  unsigned max_active, max_index, max_index_bytes, max_instruction_bytes;
  int discovery; /* DISCOVERY_* bits */
  uint8_t *selected; /* per skill: selected up front */
  uint8_t *active;   /* per skill: selected or activated */
  char (*pinned)[65]; /* per active skill: the digest this run delivers */
  uint8_t *warned;    /* per skill: instructions_changed already warned */
  size_t nactive;
  tsift_index *index; /* the skills as documents (discovery on), doc d = skill d */
  /* A host skill ranker (NULL kind: BM25F over `index`). */
  char *ranker_kind;
  tsift_rank_fn rank_fn;
  void *rank_user;
  size_t activations;
} tsift_skills;

/*
 * Read the session's skills: `section` is the configuration's "skills"
 * object and `catalog_skills` the catalog's "skills" array (may be NULL).
 * On failure everything is freed and err names the key.
 */
tsift_status tsift_skills_read(const struct cJSON *section, const struct cJSON *catalog_skills,
                               tsift_skills **out, tsift_error *err);
void tsift_skills_free(tsift_skills *sk);

/* Skill with this id, or -1. */
long tsift_skills_find(const tsift_skills *sk, const char *id);

/* The system-prompt text (SPEC S8): the index lines, or the fixed line in
 * "search" mode. `search_tool` is the search meta-tool's name. */
tsift_status tsift_skills_prompt(const tsift_skills *sk, const char *search_tool, char **out,
                                 size_t *out_len, tsift_error *err);



/* 1 when search may return skill k: not active and not tainted. */
static inline int tsift_skills_searchable(const tsift_skills *sk, size_t k) {
  return !sk->active[k] && !sk->items[k].tainted;
}

#endif
