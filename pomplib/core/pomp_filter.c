#include "pomp_filter.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Whether a shell pattern is whole: every '[' closed by a ']' (a ']' right after
 * the '[' or "[!" is a member, as fnmatch reads it) and no '\\' at the end.
 * fnmatch takes an unclosed '[' for a plain character, so "name:[ab" would
 * match nothing the user meant, silently; and since the list is split at
 * commas, "name:[a,b]" arrives here as "name:[a" and "b]". */
static int glob_is_whole(const char *glob, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (glob[i] == '\\') {
            if (++i == len)
                return 0;
        } else if (glob[i] == '[') {
            size_t j = i + 1;
            if (j < len && (glob[j] == '!' || glob[j] == '^'))
                j++;
            if (j < len && glob[j] == ']')
                j++;
            while (j < len && glob[j] != ']')
                j++;
            if (j == len)
                return 0;
            i = j;
        }
    }
    return 1;
}

/* Each key's prefix as a rule writes it ("" for a rule without one). */
static const char *const key_prefixes[] = {[POMP_FILTER_ANY] = "", [POMP_FILTER_TYPE] = "type:",
                                           [POMP_FILTER_NAME] = "name:", [POMP_FILTER_FILE] = "file:"};

const char *pomp_filter_key_prefix(enum pomp_filter_key key)
{
    return key_prefixes[key];
}

static int add_rule(struct pomp_filter *f, const char *entry, size_t len)
{
    enum pomp_filter_key key = POMP_FILTER_ANY;
    for (enum pomp_filter_key k = POMP_FILTER_TYPE; k <= POMP_FILTER_FILE; k++) {
        size_t n = strlen(key_prefixes[k]);
        if (len >= n && strncmp(entry, key_prefixes[k], n) == 0) {
            key = k;
            entry += n;
            len -= n;
            break;
        }
    }
    if (len == 0 || (key == POMP_FILTER_ANY && memchr(entry, ':', len)) || !glob_is_whole(entry, len))
        return -1; /* empty, an unknown "key:", or a broken pattern */
    struct pomp_filter_rule *r = realloc(f->rules, (f->count + 1) * sizeof *r);
    if (!r)
        return -1;
    f->rules = r;
    r[f->count].key = key;
    r[f->count].glob = strndup(entry, len);
    if (!r[f->count].glob)
        return -1;
    f->count++;
    return 0;
}

void pomp_filter_free(struct pomp_filter *f)
{
    for (size_t i = 0; i < f->count; i++)
        free(f->rules[i].glob);
    free(f->rules);
    f->rules = NULL;
    f->count = 0;
}

int pomp_filter_parse(const char *s, struct pomp_filter *f)
{
    f->rules = NULL;
    f->count = 0;
    if (!*s)
        return 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        if (add_rule(f, s, len) != 0) {
            pomp_filter_free(f);
            return -1;
        }
        if (!s[len])
            return 0;
        s += len + 1;
    }
}

static int match(const char *glob, const char *text) { return fnmatch(glob, text, 0) == 0; }

static int rule_matches(const struct pomp_filter_rule *r, const struct ctc *c)
{
    const char *type = c->type ? c->type : "unknown", *name = c->name ? c->name : "";
    const char *file = c->file ? c->file : "";
    switch (r->key) {
    case POMP_FILTER_TYPE: return match(r->glob, type);
    case POMP_FILTER_NAME: return match(r->glob, name);
    case POMP_FILTER_FILE: {
        const char *base = strrchr(file, '/');
        if (match(r->glob, file) || (base && !strchr(r->glob, '/') && match(r->glob, base + 1)))
            return 1;
        /* a name relative to the compile's directory: its absolute path too
         * (a pattern "any directory, then solver/" finds solver/util.c
         * compiled in its own directory, named util.c) */
        char *path = strchr(r->glob, '/') ? ctc_file_absolute(c) : NULL;
        int matched = path && match(r->glob, path);
        free(path);
        return matched;
    }
    default: return match(r->glob, type) || match(r->glob, name);
    }
}

int pomp_filter_matches(const struct pomp_filter *f, const struct ctc *c)
{
    for (size_t i = 0; i < f->count; i++)
        if (rule_matches(&f->rules[i], c))
            return 1;
    return 0;
}

int pomp_filter_records(const struct pomp_filter *include, const struct pomp_filter *exclude,
                        const struct ctc *c)
{
    return (include->count == 0 || pomp_filter_matches(include, c)) &&
           !pomp_filter_matches(exclude, c);
}
