/* The compiler pompcc runs, never pompcc itself (compiler_path.h). */
#include "compiler_path.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* Whether file (a path) is an executable that is self. */
static int is_self(const char *file, const char *self)
{
    char real[PATH_MAX];
    return access(file, X_OK) == 0 && realpath(file, real) && strcmp(real, self) == 0;
}

char *compiler_not_self(const char *words, const char *self, char **self_at)
{
    *self_at = NULL;
    size_t skip = strspn(words, " "), len = strcspn(words + skip, " ");
    char *first = xasprintf("%.*s", (int)len, words + skip);
    const char *rest = words + skip + len;
    char *found = NULL;
    if (strchr(first, '/')) { /* a path: it is what runs */
        if (is_self(first, self))
            *self_at = first;
        else
            free(first);
        return NULL;
    }
    const char *path = getenv("PATH");
    char *dirs = xstrdup(path ? path : "/usr/bin:/bin"), *save = NULL;
    int as_it_is = 0; /* a compiler found before any link to pompcc */
    for (char *d = strtok_r(dirs, ":", &save); d && !as_it_is && !found;
         d = strtok_r(NULL, ":", &save)) {
        char *file = xasprintf("%s/%s", *d ? d : ".", first);
        if (is_self(file, self)) {
            if (!*self_at)
                *self_at = xstrdup(file);
        } else if (access(file, X_OK) == 0) {
            if (*self_at)
                found = xasprintf("%s%s", file, rest); /* the one after pompcc's links */
            else
                as_it_is = 1;
        }
        free(file);
    }
    if (found) {
        free(*self_at);
        *self_at = NULL;
    } /* neither found nor *self_at: not on PATH, the compile's own error says so */
    free(dirs);
    free(first);
    return found;
}
