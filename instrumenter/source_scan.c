#include "source_scan.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static int is_ident_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether word occurs in text as a whole identifier. */
static int has_word(const char *text, size_t size, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; (p = memmem(p, size - (size_t)(p - text), word, n)) != NULL; p++) {
        int starts = p == text || !is_ident_char(p[-1]);
        int ends = (size_t)(p - text) + n == size || !is_ident_char(p[n]);
        if (starts && ends)
            return 1;
    }
    return 0;
}

int source_may_need_instrumentation(const char *text, size_t size)
{
    return memmem(text, size, "pragma", 6) != NULL || memmem(text, size, "Pragma", 6) != NULL ||
           memmem(text, size, "omp_", 4) != NULL || has_word(text, size, "main");
}

int source_file_may_need_instrumentation(const char *path)
{
    char *text;
    size_t size;
    if (read_file(path, &text, &size) != 0)
        return 1;
    int may = source_may_need_instrumentation(text, size);
    free(text);
    return may;
}
