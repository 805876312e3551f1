#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void out_of_memory(void)
{
    fputs("pomp: fatal: out of memory\n", stderr);
    exit(70);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

const char *compiler_file_name(const char *libclang_name)
{
    while (libclang_name[0] == '.' && libclang_name[1] == '/')
        libclang_name += 2;
    return libclang_name;
}

/* name with "." and "dir/.." components taken out, lexically; "" for none. */
static char *lexically_normal(const char *name)
{
    size_t n = strlen(name);
    char *out = xmalloc(n + 1);
    size_t len = 0, kept = 0; /* kept: the components of out that ".." may take back */
    int absolute = name[0] == '/';
    if (absolute)
        out[len++] = '/';
    for (const char *p = name; *p;) {
        const char *end = strchr(p, '/');
        size_t c = end ? (size_t)(end - p) : strlen(p);
        if (c == 0 || (c == 1 && p[0] == '.')) {
            /* nothing */
        } else if (c == 2 && p[0] == '.' && p[1] == '.' && kept > 0) {
            len--; /* the '/' after the last component */
            while (len > (size_t)absolute && out[len - 1] != '/')
                len--;
            kept--;
        } else if (!(c == 2 && p[0] == '.' && p[1] == '.' && absolute && len == 1)) {
            memcpy(out + len, p, c);
            len += c;
            out[len++] = '/';
            kept += !(c == 2 && p[0] == '.' && p[1] == '.');
        }
        p += c + (end != NULL);
    }
    if (len > (size_t)absolute && out[len - 1] == '/')
        len--;
    out[len] = '\0';
    return out;
}

static int same_file(const char *x, const char *y)
{
    struct stat a, b;
    return stat(x, &a) == 0 && stat(y, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* An absolute name below the working directory, relative to it (allocated),
 * where that is the same file; else NULL. */
static char *below_working_directory(const char *name)
{
    char cwd[PATH_MAX];
    if (name[0] != '/' || !getcwd(cwd, sizeof cwd))
        return NULL;
    size_t n = strlen(cwd);
    if (strncmp(name, cwd, n) != 0 || name[n] != '/' || !name[n + 1] || n == 1)
        return NULL;
    return same_file(name, name + n + 1) ? xstrdup(name + n + 1) : NULL;
}

char *region_file_name(const char *libclang_name)
{
    const char *name = compiler_file_name(libclang_name);
    char *normal = strstr(name, "/.") || strncmp(name, "../", 3) == 0 ? lexically_normal(name)
                                                                       : NULL;
    if (normal && !(*normal && strcmp(normal, name) != 0 && same_file(name, normal))) {
        free(normal);
        normal = NULL;
    }
    const char *best = normal ? normal : name;
    char *relative = below_working_directory(best);
    if (relative) {
        free(normal);
        return relative;
    }
    return normal ? normal : xstrdup(name);
}

char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        out_of_memory();
    return d;
}

static char *xvasprintf(const char *fmt, va_list ap, int *len)
{
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    if (n < 0)
        out_of_memory();
    if (len)
        *len = n;
    return s;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap, NULL);
    va_end(ap);
    return s;
}

int read_file(const char *path, char **text, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    struct strbuf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_addn(&b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b.s);
        errno = EIO;
        return -1;
    }
    if (!b.s)
        sb_add(&b, "");
    *text = b.s;
    *size = b.len;
    return 0;
}

void copy_mtime(const char *from, const char *to)
{
    struct stat st;
    if (stat(from, &st) != 0)
        return;
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    (void)utimensat(AT_FDCWD, to, times, 0); /* at worst __TIMESTAMP__ is the copy's */
}

int write_file(const char *path, const char *data, size_t size)
{
    char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        free(tmp);
        return -1;
    }
    size_t w = fwrite(data, 1, size, f);
    int bad = w != size || ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        errno = e;
        return -1;
    }
    free(tmp);
    return 0;
}

void sb_addn(struct strbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap)
            cap *= 2;
        b->s = xrealloc(b->s, cap);
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_add(struct strbuf *b, const char *s) { sb_addn(b, s, strlen(s)); }

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n;
    char *s = xvasprintf(fmt, ap, &n);
    va_end(ap);
    sb_addn(b, s, (size_t)n);
    free(s);
}

char *name_for_include(char *name)
{
    for (unsigned char *c = (unsigned char *)name; *c; c++)
        if (*c == '"' || *c == '\\' || *c == '<' || *c == '>' || *c < 0x20 || *c == 0x7f)
            *c = '_';
    return name;
}

int text_is_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    text += strspn(text, " \t");
    return strncmp(text, word, n) == 0 && text[n + strspn(text + n, " \t")] == '\0';
}

int skip_comment(const char *text, size_t size, size_t *i)
{
    size_t at = *i;
    if (at + 1 >= size || text[at] != '/' || (text[at + 1] != '/' && text[at + 1] != '*'))
        return 0;
    if (text[at + 1] == '/') {
        const char *nl = memchr(text + at, '\n', size - at);
        *i = nl ? (size_t)(nl - text) : size;
        return 1;
    }
    const char *e = memmem(text + at + 2, size - at - 2, "*/", 2);
    *i = e ? (size_t)(e - text) + 2 : size;
    return e ? 1 : -1;
}

/* Whether text[from, to) holds only blanks, comments, line splices and,
 * where directive_lines, whole directive lines (#pragma, #if, ...). */
int text_only_blanks_between(const char *t, size_t size, size_t from, size_t to,
                             int directive_lines)
{
    for (size_t i = from; i < to && i < size;) {
        if (strchr(" \t\n\r\f\v", t[i]) && t[i]) {
            i++;
        } else if (t[i] == '\\' && i + 1 < to && (t[i + 1] == '\n' || t[i + 1] == '\r')) {
            i++; /* a line splice */
        } else if (t[i] == '#' && directive_lines) {
            while (i < to && !(t[i] == '\n' && t[i - 1] != '\\'))
                i++;
        } else if (skip_comment(t, to, &i) != 1) {
            return 0;
        }
    }
    return 1;
}

char *pomp_inc_path(const char *instrumented)
{
    char *inc = xasprintf("%s.pomp.inc", instrumented);
    char *last = strrchr(inc, '/');
    name_for_include(last ? last + 1 : inc);
    return inc;
}

void sb_add_c_escaped(struct strbuf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            sb_addn(b, e, 2);
        } else if (c == '\n') {
            sb_add(b, "\\n");
        } else if (c < 0x20 || c == 0x7f) {
            sb_printf(b, "\\%03o", c);
        } else {
            sb_addn(b, (const char *)&c, 1);
        }
    }
}

int sb_add_header_name(struct strbuf *b, const char *path)
{
    if (strchr(path, '\n') || (strchr(path, '"') && strchr(path, '>')))
        return -1;
    int quoted = !strchr(path, '"');
    sb_add(b, quoted ? "\"" : "<");
    sb_add(b, path);
    sb_add(b, quoted ? "\"" : ">");
    return 0;
}

uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

const char *tool_name(void)
{
    const char *me = program_invocation_short_name; /* glibc's, from argv[0] */
    if (strncmp(me, "pomp", 4) == 0)
        return me;
    size_t n = strlen(me);
    return n >= 2 && strcmp(me + n - 2, "++") == 0 ? "pompc++" : "pompcc";
}

void print_construct_counts(FILE *f, const char *file, unsigned instrumented, unsigned constructs,
                            unsigned on_purpose)
{
    fprintf(f, "%s: note: %u of %u OpenMP constructs instrumented", file, instrumented, constructs);
    if (on_purpose)
        fprintf(f, " (%u left alone on purpose: device code, simd bodies, taskwaits of untied "
                   "tasks, constructs at a '#pragma pomp inst' level that writes none of their calls)",
                on_purpose);
    fputc('\n', f);
}

int has_leaf(const char *name, const char *leaf)
{
    size_t n = strlen(leaf);
    for (const char *p = name; (p = strstr(p, leaf)) != NULL; p += n)
        if ((p == name || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    return 0;
}

int last_leaf_is(const char *name, const char *leaf)
{
    size_t len = strlen(name), n = strlen(leaf);
    return len >= n && strcmp(name + len - n, leaf) == 0 && (len == n || name[len - n - 1] == ' ');
}
