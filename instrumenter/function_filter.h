/* Which functions --pomp-functions instruments: a list of rules
 *
 *   include:PATTERN    exclude:PATTERN    include:file:PATTERN    exclude:file:PATTERN
 *
 * separated by commas (a rule without include:/exclude: is an include).
 * PATTERN is a shell glob (fnmatch). A function is instrumented when its name
 * matches one of the name includes (if there are any), its file matches one of
 * the file includes (if there are any), and no exclude matches it. Names are
 * matched whole ("ns::Class::method") and by their last part ("method"); a file
 * pattern without '/' is matched against the file's base name, one with '/'
 * against the path as the compiler got it. */
#ifndef POMP_FUNCTION_FILTER_H
#define POMP_FUNCTION_FILTER_H

#include <stddef.h>

struct function_filter_rule {
    int include;      /* else exclude */
    int by_file;      /* else by name */
    char *pattern;
};

struct function_filter {
    struct function_filter_rule *rules;
    size_t n;
};

/* Adds the rules of spec to f. Returns 0, or -1 with a message in err. */
int function_filter_parse(struct function_filter *f, const char *spec, char *err, size_t errsize);
int function_filter_matches(const struct function_filter *f, const char *name, const char *file);
void function_filter_free(struct function_filter *f);

#endif
