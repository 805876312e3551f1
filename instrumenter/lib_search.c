#include "lib_search.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

int lib_search_is_shared(const char *a)
{
    size_t n = strlen(a);
    return (n > 3 && strcmp(a + n - 3, ".so") == 0) || strstr(a, ".so.") != NULL;
}

int lib_search_is_input(const char *a)
{
    size_t n = strlen(a);
    return (n > 2 && strcmp(a + n - 2, ".o") == 0) || (n > 2 && strcmp(a + n - 2, ".a") == 0) ||
           lib_search_is_shared(a);
}

char *lib_search_find(const struct lib_search *ls, const char *name, char **shared)
{
    *shared = NULL;
    for (int d = 0; d < ls->ndirs; d++) {
        char *path = name[0] == ':' ? xasprintf("%s/%s", ls->dirs[d], name + 1)
                                    : xasprintf("%s/lib%s.so", ls->dirs[d], name);
        if (name[0] != ':' && !ls->link_static && access(path, R_OK) == 0) {
            *shared = path;
            return NULL;
        }
        if (name[0] != ':') {
            free(path);
            path = xasprintf("%s/lib%s.a", ls->dirs[d], name);
        }
        if (access(path, R_OK) == 0 && lib_search_is_input(path) && !strstr(path, ".so"))
            return path;
        free(path);
    }
    return NULL;
}

int lib_search_option(struct lib_search *ls, char *const *args, size_t n, size_t *i,
                      char **archive, char **shared)
{
    const char *a = args[*i];
    int separate = a[0] == '-' && a[1] && a[2] == '\0' && *i + 1 < n;
    *archive = *shared = NULL;
    if (strncmp(a, "-L", 2) == 0 && (a[2] || separate))
        ls->dirs[ls->ndirs++] = separate ? args[++*i] : (char *)a + 2;
    else if (strcmp(a, "-static") == 0 || strcmp(a, "-Wl,-Bstatic") == 0)
        ls->link_static = 1;
    else if (strcmp(a, "-Wl,-Bdynamic") == 0)
        ls->link_static = 0;
    else if (strncmp(a, "-l", 2) == 0 && (a[2] || separate))
        *archive = lib_search_find(ls, separate ? args[++*i] : a + 2, shared);
    else
        return 0;
    return 1;
}

void lib_search_libraries(char *const *args, size_t n, struct argv_list *out)
{
    struct lib_search ls = {xmalloc((n + 1) * sizeof *ls.dirs), 0, 0};
    for (size_t i = 0; i < n; i++) {
        char *archive, *so;
        if (lib_search_option(&ls, args, n, &i, &archive, &so) && (archive || so))
            argv_add(out, archive ? archive : so);
        free(archive);
        free(so);
    }
    free(ls.dirs);
}
