/* --pomp-functions rules (see function_filter.h). */
#include "function_filter.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int add_rule(struct function_filter *f, const char *rule, size_t len, char *err,
                    size_t errsize)
{
    struct function_filter_rule r = {.include = 1};
    const char *p = rule, *end = rule + len;
    if ((size_t)(end - p) >= 8 && strncmp(p, "include:", 8) == 0) {
        p += 8;
    } else if ((size_t)(end - p) >= 8 && strncmp(p, "exclude:", 8) == 0) {
        r.include = 0;
        p += 8;
    }
    if ((size_t)(end - p) >= 5 && strncmp(p, "file:", 5) == 0) {
        r.by_file = 1;
        p += 5;
    }
    if (p == end) {
        snprintf(err, errsize, "'%.*s' has no pattern (rules: include:PATTERN, exclude:PATTERN, "
                               "include:file:PATTERN, exclude:file:PATTERN)", (int)len, rule);
        return -1;
    }
    /* a word and one ':' before the pattern: a kind of rule misspelled
     * ("exlude:tiny_*" was a pattern that matched no function, and no function
     * got a region, without a word; a probe), not a C++ name's "ns::" */
    size_t word = 0;
    while (p + word < end && (isalpha((unsigned char)p[word]) || p[word] == '_'))
        word++;
    if (word && p + word + 1 < end && p[word] == ':' && p[word + 1] != ':') {
        snprintf(err, errsize, "'%.*s': no kind of rule '%.*s:' (rules: include:PATTERN, "
                               "exclude:PATTERN, include:file:PATTERN, exclude:file:PATTERN)",
                 (int)len, rule, (int)word, p);
        return -1;
    }
    r.pattern = xasprintf("%.*s", (int)(end - p), p);
    f->rules = xrealloc(f->rules, (f->n + 1) * sizeof *f->rules);
    f->rules[f->n++] = r;
    return 0;
}

int function_filter_parse(struct function_filter *f, const char *spec, char *err, size_t errsize)
{
    const char *p = spec;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0) {
            snprintf(err, errsize, "empty rule in '%s'", spec);
            return -1;
        }
        if (add_rule(f, p, len, err, errsize) != 0)
            return -1;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

static int name_matches(const char *pattern, const char *name)
{
    if (fnmatch(pattern, name, 0) == 0)
        return 1;
    const char *last = NULL;
    for (const char *s = strstr(name, "::"); s; s = strstr(s + 2, "::"))
        last = s + 2;
    return last && fnmatch(pattern, last, 0) == 0;
}

static int file_matches(const char *pattern, const char *file)
{
    if (strchr(pattern, '/'))
        return fnmatch(pattern, file, 0) == 0;
    const char *base = strrchr(file, '/');
    return fnmatch(pattern, base ? base + 1 : file, 0) == 0;
}

int function_filter_matches(const struct function_filter *f, const char *name, const char *file)
{
    int name_includes = 0, name_ok = 0, file_includes = 0, file_ok = 0;
    for (size_t i = 0; i < f->n; i++) {
        const struct function_filter_rule *r = &f->rules[i];
        int m = r->by_file ? file_matches(r->pattern, file) : name_matches(r->pattern, name);
        if (!r->include && m)
            return 0;
        if (r->include && r->by_file) {
            file_includes = 1;
            file_ok |= m;
        } else if (r->include) {
            name_includes = 1;
            name_ok |= m;
        }
    }
    return (!name_includes || name_ok) && (!file_includes || file_ok);
}

void function_filter_free(struct function_filter *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->rules[i].pattern);
    free(f->rules);
    f->rules = NULL;
    f->n = 0;
}
