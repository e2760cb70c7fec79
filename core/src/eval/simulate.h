/* simulate.h — an agent's run over one graded request, played through a
 * real session, for measuring learning without real traffic (simulate.c,
 * docs/learning.md "Measured by simulation"). */
#ifndef TSIFT_SIMULATE_H
#define TSIFT_SIMULATE_H

#include "cJSON.h"
#include "index/index.h"
#include "json/json_out.h"

#define SIM_WRONG_NONE (-1)
#define SIM_WRONG_LISTED (-2)

typedef struct sim_run {
  const char *config; /* the session configuration (over `ix`) */
  const char *client; /* the session option "client" */
  const char *query;
  const cJSON *relevance; /* {"<tool id>": grade} */
  /* A noisy run calls `wrong` (a catalog doc) instead of the request's
   * tools (an abusive client's repeated run), or with SIM_WRONG_LISTED the
   * first tool its search listed that the request does not grade (an
   * agent's mistake). SIM_WRONG_NONE: the right tools. */
  long wrong;
} sim_run;

/* Play the run over ix (borrowed) and hand out its journal (JSON Lines,
 * caller frees *journal): search the request; for each tool of its top
 * grade (or the wrong one), select: it when the search listed it unloaded,
 * else search again with the tool's name words and select: it if that did
 * not load it; then call each. A request whose relevance is empty searches
 * and calls nothing more. */
tsift_status tsift_simulate_run(tsift_index *ix, const sim_run *run, char **journal, size_t *len, tsift_error *err);

/* The arguments of a search_tools call, {"query": query}, written into *b
 * (initialised here), as a simulated run and the loop evaluation send them:
 * TSIFT_OK, or tsift_nomem(err, what) with *b freed. */
tsift_status tsift_sim_search_args(tsift_buf *b, const char *query, const char *what, tsift_error *err);

#endif
