#include "pomp_env_names.h"
#include "pomp_levels.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Every variable pomp reads (docs/environment.md), but the groups' levels,
 * which come from pomp_levels (POMP_PARALLEL, POMP_LOOP, ...). */
static const char *const fixed_names[] = {
    "POMP_ENABLE",         "POMP_PROFILE",        "POMP_SUMMARY",       "POMP_TRACE",
    "POMP_OUTPUT_DIR",     "POMP_THROTTLE",       "POMP_BUFFER_SIZE",   "POMP_PROFILE_NODES",
    "POMP_PROFILE_DEPTH",  "POMP_FILTER_INCLUDE", "POMP_FILTER_EXCLUDE", "POMP_DEVICE_TRACING",
    "POMP_OMPT",           "POMP_SAMPLING",       "POMP_SAMPLING_TIMER", "POMP_CC",
    "POMP_CXX",
    "POMP_RUN_PID", /* pomprun's, to the program it runs */
};
/* Prefixes of variables of pomp's own benchmarks (bench/). */
static const char bench_prefix[] = "POMP_BENCH_";

enum { NAME_MAX_LEN = 64 };

/* Known name number i (fixed ones, then one per group), in buf; NULL past the last. */
static const char *known_name(size_t i, char *buf, size_t size)
{
    size_t fixed = sizeof fixed_names / sizeof *fixed_names;
    if (i < fixed)
        return fixed_names[i];
    if (i - fixed >= POMP_GROUP_COUNT)
        return NULL;
    snprintf(buf, size, "POMP_%s", pomp_group_name((enum pomp_group)(i - fixed)));
    return buf;
}

int pomp_env_name_known(const char *name, size_t len)
{
    char buf[NAME_MAX_LEN];
    const char *k;
    if (len >= sizeof bench_prefix - 1 && strncmp(name, bench_prefix, sizeof bench_prefix - 1) == 0)
        return 1;
    for (size_t i = 0; (k = known_name(i, buf, sizeof buf)); i++)
        if (strlen(k) == len && strncmp(k, name, len) == 0)
            return 1;
    return 0;
}

/* Levenshtein distance of a (alen) and b, both under NAME_MAX_LEN, letters
 * compared in any case (POMP_summary meant POMP_SUMMARY). */
static size_t edits(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b), row[NAME_MAX_LEN + 1];
    if (alen >= NAME_MAX_LEN || blen >= NAME_MAX_LEN)
        return NAME_MAX_LEN;
    for (size_t j = 0; j <= blen; j++)
        row[j] = j;
    for (size_t i = 1; i <= alen; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= blen; j++) {
            size_t above = row[j];
            size_t best = diagonal + (toupper((unsigned char)a[i - 1]) != toupper((unsigned char)b[j - 1]));
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[blen];
}

const char *pomp_env_name_closest(const char *name, size_t len, char *buf, size_t size)
{
    const char *k;
    /* edits allowed: a third of what follows POMP_, at least 1, at most 2 (a
     * probe: POMP_X was taken for POMP_CC, two edits of a one-letter name) */
    size_t suffix = len > 5 ? len - 5 : 0;
    size_t allowed = suffix / 3 < 1 ? 1 : suffix / 3 > 2 ? 2 : suffix / 3;
    size_t best = (size_t)-1, best_edits = allowed + 1;
    for (size_t i = 0; (k = known_name(i, buf, size)); i++) {
        size_t e = edits(name, len, k);
        if (e < best_edits) {
            best_edits = e;
            best = i;
        }
    }
    return best == (size_t)-1 ? NULL : known_name(best, buf, size);
}

void pomp_env_names_check(char *const *envp)
{
    for (size_t i = 0; envp && envp[i]; i++) {
        const char *e = envp[i], *eq = strchr(e, '=');
        size_t len = eq ? (size_t)(eq - e) : strlen(e);
        if (len < 5 || strncmp(e, "POMP_", 5) != 0 || pomp_env_name_known(e, len))
            continue;
        char buf[NAME_MAX_LEN];
        /* POMP_ alone is said too (it was passed over), with no name to guess */
        const char *close = len > 5 ? pomp_env_name_closest(e, len, buf, sizeof buf) : NULL;
        if (close)
            fprintf(stderr, "pomp: %.*s is not a variable pomp reads (did you mean %s?); ignored\n",
                    (int)len, e, close);
        else
            fprintf(stderr, "pomp: %.*s is not a variable pomp reads; ignored (docs/environment.md "
                            "lists them)\n",
                    (int)len, e);
    }
}
