/* CTC strings: the compile-time context of a POMP region (seed 002, section 3.2).
 *
 *   "<len>*key=value*key=value*...**"
 *
 * <len> counts the characters from the first '*' to the last one, both included.
 * A '*' or '\' inside a value is written as "\*" or "\\" (see docs/ctc.md).
 * One library serves the instrumenter (building) and libpomp (parsing). */
#ifndef POMP_CTC_H
#define POMP_CTC_H

#include <stddef.h>

/* Keys pomp understands; any other key is kept as an "extra" attribute. */
#define CTC_MAX_ATTRS 32

enum ctc_error {
    CTC_OK = 0,
    CTC_ERR_EMPTY,          /* NULL or empty string */
    CTC_ERR_LENGTH_SYNTAX,  /* no decimal length before the first '*' */
    CTC_ERR_LENGTH_MISMATCH,/* length field differs from the real length */
    CTC_ERR_NO_TERMINATOR,  /* string does not end with "**" */
    CTC_ERR_FIELD_SYNTAX,   /* a field without '=' or with an empty key */
    CTC_ERR_BAD_ESCAPE,     /* '\' not followed by '*' or '\' */
    CTC_ERR_DUPLICATE_KEY,  /* the same key twice */
    CTC_ERR_BAD_LINES,      /* slines/elines not "<int>,<int>" with first <= second */
    CTC_ERR_TOO_MANY,       /* more than CTC_MAX_ATTRS fields */
    CTC_ERR_NO_MEMORY
};

struct ctc_attr {
    char *key;
    char *value;   /* unescaped */
};

struct ctc {
    const char *type;          /* region type, e.g. "parallel", "for", "critical" */
    const char *file;          /* source file */
    const char *name;          /* critical name, user region name; NULL if none */
    int start_line_first, start_line_last;  /* slines: lines of the opening directive */
    int end_line_first, end_line_last;      /* elines: lines of the end of the block */
    size_t nattrs;             /* every field, known keys included, in order */
    struct ctc_attr attrs[CTC_MAX_ATTRS];
    char *storage;             /* the keys and values, one block (ctc_free frees it) */
};

/* Parses s into out (which owns copies of every string; release with ctc_free).
 * Returns CTC_OK or an error code; *err_offset is the byte offset in s where the
 * problem was found. out is left empty on error. */
enum ctc_error ctc_parse(const char *s, struct ctc *out, size_t *err_offset);
void ctc_free(struct ctc *c);
const char *ctc_error_string(enum ctc_error e);
/* The value of key in c, or NULL. */
const char *ctc_get(const struct ctc *c, const char *key);

/* Building. A builder collects fields, then ctc_builder_finish returns the whole
 * string with its length prefix (malloc'ed, caller frees). */
struct ctc_builder {
    char *buf;
    size_t len, cap;
    int failed;
};
void ctc_builder_init(struct ctc_builder *b);
/* Starts a builder with the fields of a finished string (as ctc_builder_finish
 * returned it), to add more to: 0, or -1 if ctc is not "<len>*...**" (the
 * builder is then empty, to be finished or freed by ctc_builder_finish). */
int ctc_builder_init_from(struct ctc_builder *b, const char *ctc);
void ctc_builder_add(struct ctc_builder *b, const char *key, const char *value);
void ctc_builder_add_int(struct ctc_builder *b, const char *key, long value);
void ctc_builder_add_lines(struct ctc_builder *b, const char *key, int first, int last);
char *ctc_builder_finish(struct ctc_builder *b);

/* A region's source file: "file", and where it was named from ("dir", the
 * instrumenter's working directory) when the name is relative to it. */
void ctc_builder_add_file(struct ctc_builder *b, const char *file, const char *dir);
/* The region's file as a program running in cwd names it: below cwd relative
 * to it, else absolute ("dir" and "file" joined, "." and "x/.." taken out),
 * the way the runtime's regions are named (malloc'ed); an absolute name the
 * same way (normalized, relative below cwd); NULL if a relative name has no
 * "dir" (one from an older instrumenter). */
char *ctc_file_seen_from(const struct ctc *c, const char *cwd);
/* The same rule for any path (an absolute one from debug information): below
 * cwd relative to it, else absolute, "." and "x/.." taken out; a relative
 * path as it is (malloc'ed; NULL if out of memory). */
char *ctc_path_seen_from(const char *path, const char *cwd);
/* "dir" and "file" joined ("." and "x/.." taken out; malloc'ed); NULL without "dir". */
char *ctc_file_absolute(const struct ctc *c);

#endif
