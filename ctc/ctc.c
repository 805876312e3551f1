/* CTC string building and parsing; format in docs/ctc.md. */
#include "ctc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ctc_error_string(enum ctc_error e)
{
    switch (e) {
    case CTC_OK: return "no error";
    case CTC_ERR_EMPTY: return "empty CTC string";
    case CTC_ERR_LENGTH_SYNTAX: return "missing decimal length before the first '*'";
    case CTC_ERR_LENGTH_MISMATCH: return "length field does not match the string";
    case CTC_ERR_NO_TERMINATOR: return "missing '**' terminator";
    case CTC_ERR_FIELD_SYNTAX: return "field is not key=value";
    case CTC_ERR_BAD_ESCAPE: return "'\\' must be followed by '*' or '\\'";
    case CTC_ERR_DUPLICATE_KEY: return "duplicate key";
    case CTC_ERR_BAD_LINES: return "line range is not <first>,<last> with first <= last";
    case CTC_ERR_TOO_MANY: return "too many fields";
    case CTC_ERR_NO_MEMORY: return "out of memory";
    }
    return "unknown CTC error";
}

void ctc_free(struct ctc *c)
{
    free(c->storage);
    memset(c, 0, sizeof *c);
}

const char *ctc_get(const struct ctc *c, const char *key)
{
    for (size_t i = 0; i < c->nattrs; i++)
        if (strcmp(c->attrs[i].key, key) == 0)
            return c->attrs[i].value;
    return NULL;
}

/* "a,b" with 1 <= a <= b */
static int parse_lines(const char *v, int *first, int *last)
{
    char *end;
    long a = strtol(v, &end, 10);
    if (end == v || *end != ',')
        return 0;
    const char *second = end + 1;
    long b = strtol(second, &end, 10);
    if (end == second || *end != '\0' || a < 1 || b < a || b > 1000000000L)
        return 0;
    *first = (int)a;
    *last = (int)b;
    return 1;
}

/* Copies the escaped text s[from,to) to *at, unescaped and terminated;
 * returns the copy and moves *at past it. (One block for every field's key
 * and value, ctc.storage: a malloc each was a third of a parse, and a parse
 * is made per region at the start and again at the end, 2026-12-04.) */
static char *unescape(const char *s, size_t from, size_t to, char **at)
{
    char *out = *at, *n = out;
    while (from < to) {
        const char *escape = memchr(s + from, '\\', to - from);
        size_t run = escape ? (size_t)(escape - (s + from)) : to - from;
        memcpy(n, s + from, run);
        n += run;
        from += run;
        if (escape) { /* the escaped character itself */
            *n++ = s[from + 1];
            from += 2;
        }
    }
    *n = '\0';
    *at = n + 1;
    return out;
}

static enum ctc_error fail(struct ctc *out, size_t *err_offset, size_t at, enum ctc_error e)
{
    ctc_free(out);
    if (err_offset)
        *err_offset = at;
    return e;
}

/* Interprets the known keys once every field is in. */
static enum ctc_error bind_known_keys(struct ctc *out, size_t *key_offsets, size_t *err_offset)
{
    for (size_t i = 0; i < out->nattrs; i++) {
        const char *k = out->attrs[i].key, *v = out->attrs[i].value;
        int ok = 1;
        if (strcmp(k, "type") == 0)
            out->type = v;
        else if (strcmp(k, "file") == 0)
            out->file = v;
        else if (strcmp(k, "name") == 0)
            out->name = v;
        else if (strcmp(k, "slines") == 0)
            ok = parse_lines(v, &out->start_line_first, &out->start_line_last);
        else if (strcmp(k, "elines") == 0)
            ok = parse_lines(v, &out->end_line_first, &out->end_line_last);
        if (!ok)
            return fail(out, err_offset, key_offsets[i], CTC_ERR_BAD_LINES);
    }
    return CTC_OK;
}

enum ctc_error ctc_parse(const char *s, struct ctc *out, size_t *err_offset)
{
    memset(out, 0, sizeof *out);
    if (err_offset)
        *err_offset = 0;
    if (!s || !*s)
        return CTC_ERR_EMPTY;

    size_t i = 0;
    unsigned long declared = 0;
    while (isdigit((unsigned char)s[i])) {
        declared = declared * 10 + (unsigned long)(s[i] - '0');
        if (declared > 100000000UL)
            return fail(out, err_offset, i, CTC_ERR_LENGTH_SYNTAX);
        i++;
    }
    if (i == 0 || s[i] != '*')
        return fail(out, err_offset, i, CTC_ERR_LENGTH_SYNTAX);
    const size_t first_star = i;

    size_t key_offsets[CTC_MAX_ATTRS];
    /* each field "k=v*" unescaped is "k\0v\0": no longer than it was */
    char *next = out->storage = malloc(strlen(s + i) + 1);
    if (!next)
        return fail(out, err_offset, 0, CTC_ERR_NO_MEMORY);
    i++; /* past the first '*' */
    for (;;) {
        if (s[i] == '\0')
            return fail(out, err_offset, i, CTC_ERR_NO_TERMINATOR);
        if (s[i] == '*') { /* empty field: the terminator */
            if (s[i + 1] != '\0')
                return fail(out, err_offset, i + 1, CTC_ERR_NO_TERMINATOR);
            size_t real = i - first_star + 1;
            if (real != declared)
                return fail(out, err_offset, 0, CTC_ERR_LENGTH_MISMATCH);
            return bind_known_keys(out, key_offsets, err_offset);
        }
        const size_t field = i;
        size_t eq = 0;
        while (s[i] != '*' && s[i] != '\0') {
            if (s[i] == '\\') {
                if (s[i + 1] != '*' && s[i + 1] != '\\')
                    return fail(out, err_offset, i, CTC_ERR_BAD_ESCAPE);
                i += 2;
                continue;
            }
            if (s[i] == '=' && eq == 0)
                eq = i;
            i++;
        }
        if (s[i] == '\0')
            return fail(out, err_offset, i, CTC_ERR_NO_TERMINATOR);
        if (eq == 0 || eq == field)
            return fail(out, err_offset, field, CTC_ERR_FIELD_SYNTAX);
        if (out->nattrs == CTC_MAX_ATTRS)
            return fail(out, err_offset, field, CTC_ERR_TOO_MANY);
        char *key = unescape(s, field, eq, &next);
        char *value = unescape(s, eq + 1, i, &next);
        if (ctc_get(out, key))
            return fail(out, err_offset, field, CTC_ERR_DUPLICATE_KEY);
        key_offsets[out->nattrs] = field;
        out->attrs[out->nattrs].key = key;
        out->attrs[out->nattrs].value = value;
        out->nattrs++;
        i++; /* past the field's closing '*' */
    }
}

/* ---- building ---- */

static void put(struct ctc_builder *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *nb = realloc(b->buf, cap);
        if (!nb) {
            b->failed = 1;
            return;
        }
        b->buf = nb;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

static void put_escaped(struct ctc_builder *b, const char *s)
{
    for (;;) { /* a run at a time (a put a byte was most of a relabelling's cost) */
        size_t run = strcspn(s, "*\\");
        put(b, s, run);
        if (!s[run])
            return;
        put(b, "\\", 1);
        put(b, s + run, 1);
        s += run + 1;
    }
}

void ctc_builder_init(struct ctc_builder *b)
{
    memset(b, 0, sizeof *b);
    put(b, "*", 1);
}

int ctc_builder_init_from(struct ctc_builder *b, const char *ctc)
{
    memset(b, 0, sizeof *b);
    size_t digits = strspn(ctc, "0123456789"), len = strlen(ctc);
    /* "<len>*...**": the fields, from the first '*', without the closing one */
    if (digits == 0 || len < digits + 2 || ctc[digits] != '*' || strcmp(ctc + len - 2, "**") != 0)
        return -1;
    put(b, ctc + digits, len - digits - 1);
    return b->failed ? -1 : 0;
}

void ctc_builder_add(struct ctc_builder *b, const char *key, const char *value)
{
    put_escaped(b, key);
    put(b, "=", 1);
    put_escaped(b, value);
    put(b, "*", 1);
}

void ctc_builder_add_int(struct ctc_builder *b, const char *key, long value)
{
    char num[32];
    snprintf(num, sizeof num, "%ld", value);
    ctc_builder_add(b, key, num);
}

void ctc_builder_add_lines(struct ctc_builder *b, const char *key, int first, int last)
{
    char num[48];
    snprintf(num, sizeof num, "%d,%d", first, last);
    ctc_builder_add(b, key, num);
}

char *ctc_builder_finish(struct ctc_builder *b)
{
    put(b, "*", 1);
    if (b->failed) {
        free(b->buf);
        return NULL;
    }
    char prefix[24];
    int plen = snprintf(prefix, sizeof prefix, "%zu", b->len);
    char *out = malloc((size_t)plen + b->len + 1);
    if (out) {
        memcpy(out, prefix, (size_t)plen);
        memcpy(out + plen, b->buf, b->len + 1);
    }
    free(b->buf);
    memset(b, 0, sizeof *b);
    return out;
}

/* ---- where a region's file is, seen from where the program runs ---- */

void ctc_builder_add_file(struct ctc_builder *b, const char *file, const char *dir)
{
    ctc_builder_add(b, "file", file);
    if (file[0] && file[0] != '/' && dir && dir[0] == '/')
        ctc_builder_add(b, "dir", dir);
}

/* An absolute path without "." and "" components, and with "name/.." taken
 * out (by the text: the instrumenter kept a "dir/.." whose shorter form is
 * another file); ".." at the root is the root. */
static char *normalized(const char *path)
{
    size_t n = strlen(path);
    char *out = malloc(n + 2), *copy = malloc(n + 1);
    size_t *starts = malloc((n / 2 + 2) * sizeof *starts), depth = 0, len = 0;
    if (!out || !copy || !starts) {
        free(out), free(copy), free(starts);
        return NULL;
    }
    memcpy(copy, path, n + 1);
    for (char *save = NULL, *part = strtok_r(copy, "/", &save); part;
         part = strtok_r(NULL, "/", &save)) {
        if (strcmp(part, ".") == 0)
            continue;
        if (strcmp(part, "..") == 0) {
            if (depth > 0)
                len = starts[--depth];
            out[len] = '\0';
            continue;
        }
        starts[depth++] = len;
        len += (size_t)sprintf(out + len, "/%s", part);
    }
    if (len == 0)
        strcpy(out, "/");
    free(copy);
    free(starts);
    return out;
}

char *ctc_file_absolute(const struct ctc *c)
{
    const char *dir = ctc_get(c, "dir");
    if (!c->file || !c->file[0] || c->file[0] == '/' || !dir || dir[0] != '/')
        return NULL;
    size_t dlen = strlen(dir), flen = strlen(c->file);
    char *joined = malloc(dlen + flen + 2);
    if (!joined)
        return NULL;
    snprintf(joined, dlen + flen + 2, "%s/%s", dir, c->file);
    char *abs = normalized(joined);
    free(joined);
    return abs;
}

char *ctc_file_seen_from(const struct ctc *c, const char *cwd)
{
    /* an absolute name (CMake compiles /src/build/../main.c): normalized, and
     * relative where it lies below cwd, as a relative one is */
    if (cwd && c->file && c->file[0] == '/')
        return ctc_path_seen_from(c->file, cwd);
    char *abs = cwd ? ctc_file_absolute(c) : NULL;
    char *seen = abs ? ctc_path_seen_from(abs, cwd) : NULL;
    free(abs);
    return seen;
}

char *ctc_path_seen_from(const char *path, const char *cwd)
{
    if (path[0] != '/' || !cwd || cwd[0] != '/')
        return strdup(path);
    char *abs = normalized(path), *where = normalized(cwd);
    if (!abs || !where) {
        free(abs), free(where);
        return NULL;
    }
    size_t wlen = strlen(where);
    char *seen = NULL;
    if (strcmp(where, "/") == 0)
        seen = strdup(abs + 1);
    else if (strncmp(abs, where, wlen) == 0 && abs[wlen] == '/')
        seen = strdup(abs + wlen + 1); /* below where the program runs: relative to it */
    else
        seen = strdup(abs);
    free(abs);
    free(where);
    return seen;
}
