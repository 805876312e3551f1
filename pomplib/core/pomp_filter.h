/* Region filters (POMP_FILTER_INCLUDE, POMP_FILTER_EXCLUDE; docs/environment.md):
 * decided once per region, when its record is made, and kept as a flag in the
 * region, so an event of a filtered region costs one branch. */
#ifndef POMP_FILTER_H
#define POMP_FILTER_H

#include <stddef.h>

#include "ctc.h"

enum pomp_filter_key { POMP_FILTER_ANY, POMP_FILTER_TYPE, POMP_FILTER_NAME, POMP_FILTER_FILE };

struct pomp_filter_rule {
    enum pomp_filter_key key;
    char *glob;
};

struct pomp_filter {
    struct pomp_filter_rule *rules;   /* NULL when there are none */
    size_t count;
};

/* Parses "type:atomic,name:init*,file:vendor/x.c,solve" into f (allocated once,
 * kept for the life of the process). Returns 0, or -1 (f left empty) for a bad
 * list: an empty entry, an unknown key, an empty pattern. */
int pomp_filter_parse(const char *s, struct pomp_filter *f);

/* A key's prefix as a rule writes it: "type:", "name:", "file:", "" for none. */
const char *pomp_filter_key_prefix(enum pomp_filter_key key);

/* Releases the rules of f (it is left empty). */
void pomp_filter_free(struct pomp_filter *f);

/* Does a rule of f match the region of this CTC? (type: the CTC type or
 * "unknown"; name: the CTC name or ""; file: the CTC file, or its base name for
 * a pattern without '/'; a rule without key matches the type or the name.) */
int pomp_filter_matches(const struct pomp_filter *f, const struct ctc *c);

/* Is a region recorded under include and exclude? Recorded if include is empty
 * or matches, and exclude does not match. */
int pomp_filter_records(const struct pomp_filter *include, const struct pomp_filter *exclude,
                        const struct ctc *c);

#endif
