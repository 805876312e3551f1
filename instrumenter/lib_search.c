#include "lib_search.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_symbols.h"
#include "util.h"

int lib_search_is_shared(const char *a)
{
    size_t n = strlen(a);
    return (n > 3 && strcmp(a + n - 3, ".so") == 0) || strstr(a, ".so.") != NULL;
}

int lib_search_is_input(const char *a)
{
    size_t n = strlen(a);
    if ((n > 2 && strcmp(a + n - 2, ".o") == 0) || (n > 2 && strcmp(a + n - 2, ".a") == 0) ||
        lib_search_is_shared(a))
        return 1;
    return a[0] != '-' && elf_is_link_input(a); /* (no source begins as one) */
}

/* ---- the linker's words ---- */

/* The linker words of one gcc argument (and, for -Xlinker, the next): a -Wl,
 * list's items, -Xlinker's value, or the argument itself. Returns how many
 * arguments it took. */
static size_t linker_words(char *const *args, size_t n, size_t i, struct argv_list *words)
{
    const char *a = args[i];
    if (lib_search_wl_words(a, words))
        return 1;
    if (strcmp(a, "-Xlinker") == 0 && i + 1 < n) {
        argv_add(words, args[i + 1]);
        return 2;
    }
    argv_add(words, a);
    return 1;
}

int lib_search_wl_words(const char *a, struct argv_list *words)
{
    if (strncmp(a, "-Wl,", 4) != 0)
        return 0;
    argv_add_split(words, a + 4, ',', NULL);
    return 1;
}

/* The value of the option at words[*k] if it is `flag VALUE`, `flagVALUE` or
 * (long) `--long=VALUE` / `--long VALUE`; NULL otherwise. */
static const char *option_value(const struct argv_list *words, size_t *k, const char *flag,
                                const char *long_flag)
{
    const char *w = words->v[*k];
    size_t fl = strlen(flag), ll = strlen(long_flag);
    if (strcmp(w, flag) == 0 || strcmp(w, long_flag) == 0)
        return *k + 1 < words->n ? words->v[++*k] : NULL;
    if (strncmp(w, long_flag, ll) == 0 && w[ll] == '=')
        return w + ll + 1;
    if (strncmp(w, flag, fl) == 0 && w[fl])
        return w + fl;
    return NULL;
}

static int is_any(const char *w, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(w, *list) == 0)
            return 1;
    return 0;
}

int lib_search_static_word(const char *w)
{
    static const char *const static_words[] = {"-Bstatic", "-dn", "-non_shared", "-static", NULL};
    static const char *const dynamic_words[] = {"-Bdynamic", "-dy", "-call_shared", NULL};
    return is_any(w, static_words) ? 1 : is_any(w, dynamic_words) ? -1 : 0;
}

void lib_search_init(struct lib_search *ls, char *const *args, size_t n)
{
    memset(ls, 0, sizeof *ls);
    for (size_t i = 0; i < n;) {
        struct argv_list words = {0};
        size_t at = i;
        ls->all_static |= strcmp(args[at], "-static") == 0;
        i += linker_words(args, n, i, &words);
        for (size_t k = 0; k < words.n; k++) {
            const char *dir = option_value(&words, &k, "-L", "--library-path");
            /* (a gcc-level "-L dir" has its dir in the next argument) */
            if (!dir && strcmp(args[at], "-L") == 0 && i < n)
                dir = args[i++];
            if (dir)
                argv_add(&ls->dirs, dir);
        }
        argv_free(&words);
    }
    const char *list = getenv("LIBRARY_PATH");
    if (list && *list)
        argv_add_split(&ls->dirs, list, ':', ".");
}

void lib_search_free(struct lib_search *ls) { argv_free(&ls->dirs); }

char *lib_search_find(const struct lib_search *ls, const char *name, char **shared)
{
    *shared = NULL;
    int archives_only = ls->all_static || ls->link_static;
    for (size_t d = 0; d < ls->dirs.n; d++) {
        const char *dir = ls->dirs.v[d];
        char *path = name[0] == ':' ? xasprintf("%s/%s", dir, name + 1)
                                    : xasprintf("%s/lib%s.so", dir, name);
        if (name[0] != ':' && !archives_only && access(path, R_OK) == 0) {
            *shared = path;
            return NULL;
        }
        if (name[0] != ':') {
            free(path);
            path = xasprintf("%s/lib%s.a", dir, name);
        }
        if (access(path, R_OK) == 0 && lib_search_is_input(path) && !strstr(path, ".so"))
            return path;
        free(path);
    }
    return NULL;
}

int lib_search_option(struct lib_search *ls, char *const *args, size_t n, size_t *i,
                      struct argv_list *archives, struct argv_list *shared)
{
    struct argv_list words = {0};
    size_t took = linker_words(args, n, *i, &words);
    /* a gcc-level separate value: "-L dir", "-l name" */
    if ((strcmp(args[*i], "-L") == 0 || strcmp(args[*i], "-l") == 0) && *i + 1 < n) {
        argv_add(&words, args[*i + 1]);
        took = 2;
    }
    int found = 0;
    for (size_t k = 0; k < words.n; k++) {
        const char *name;
        int state = lib_search_static_word(words.v[k]);
        if (option_value(&words, &k, "-L", "--library-path")) {
            found = 1; /* (read by lib_search_init) */
        } else if (state) {
            ls->link_static = state > 0, found = 1;
        } else if ((name = option_value(&words, &k, "-l", "--library")) != NULL) {
            char *so, *archive = lib_search_find(ls, name, &so);
            if (archive)
                argv_add(archives, archive);
            if (so)
                argv_add(shared, so);
            free(archive), free(so);
            found = 1;
        }
    }
    argv_free(&words);
    if (found)
        *i += took - 1;
    return found;
}

void lib_search_libraries(char *const *args, size_t n, struct argv_list *out)
{
    struct lib_search ls;
    lib_search_init(&ls, args, n);
    for (size_t i = 0; i < n; i++)
        lib_search_option(&ls, args, n, &i, out, out);
    lib_search_free(&ls);
}
