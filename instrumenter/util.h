/* Small helpers shared by the instrumenter's programs: allocation that exits on
 * failure (a command-line tool has nothing better to do), and whole-file I/O. */
#ifndef POMP_UTIL_H
#define POMP_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* "FILE: note: N of M OpenMP constructs instrumented (K left alone on purpose:
 * ...)", as pomp-instrument --verbose and pomp-prelink -v say a file's counts. */
void print_construct_counts(FILE *f, const char *file, unsigned instrumented, unsigned constructs,
                            unsigned on_purpose);

/* A character of a C identifier (ASCII; no locale). */
static inline int is_ident_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Files pomp names itself (include files, header copies) are included by
 * name from its copies: name_for_include replaces, in place, the characters
 * a quoted header name cannot hold as they are (a quote, a backslash, angle
 * brackets, control characters) with '_'; the <name> form would not search
 * the copy's directory. */
char *name_for_include(char *name);
/* The include file beside an instrumented file: "<path>.pomp.inc", its last
 * component through name_for_include. */
char *pomp_inc_path(const char *instrumented);

/* Is text the word, with nothing but blanks (spaces, tabs) around it? (A
 * clause's argument: `bind( teams )`, a metadirective variant `nothing`.) */
int text_is_word(const char *text, const char *word);
/* Directive names are leaf words split by one space.
 * Does the (possibly combined) directive name contain the leaf word? */
int has_leaf(const char *name, const char *leaf);
/* Is the leaf word the last of the directive name ("teams" of "target teams")? */
int last_leaf_is(const char *name, const char *leaf);

/* Whether a comment (C's or C++'s) starts at text[*i]: 0 if none does (*i
 * unchanged); 1 if one does, *i then just past it (past the end of a //
 * comment's line, at its newline); -1 if a block comment does not end before
 * size (*i = size). */
int skip_comment(const char *text, size_t size, size_t *i);
/* Whether text[from, to) holds only blanks, comments, line splices and,
 * where directive_lines, whole directive lines (#pragma, #if, ...). */
int text_only_blanks_between(const char *text, size_t size, size_t from, size_t to,
                             int directive_lines);

/* A file name as the compiler spells it: libclang's without leading "./"
 * (a header next to a source compiled in its own directory is "./x.h" to
 * libclang, "x.h" in the compiler's debug information and __FILE__). The
 * same path from the working directory. */
const char *compiler_file_name(const char *libclang_name);

/* The name a region's file goes by (allocated): compiler_file_name's, with
 * "dir/.." and "." components taken out where the shorter name is the same
 * file (not through a symbolic link), and relative to the working directory
 * when it is an absolute name below it: a header reached as "hdr/vec.h" from
 * one source, as "sub/../hdr/vec.h" or "$PWD/hdr/vec.h" from another, is one
 * file, whose constructs are one region each and one count at the link. */
char *region_file_name(const char *libclang_name);

/* Reads a whole file (NUL-terminated). Returns 0 or -1 with errno set. */
int read_file(const char *path, char **text, size_t *size);
/* Writes data to path through a temporary file and a rename. Returns 0 or -1. */
int write_file(const char *path, const char *data, size_t size);
/* Gives `to` the times of `from`: a copy compiled in the source's stead has
 * the source's __TIMESTAMP__ (it was the copy's, the time of the build). */
void copy_mtime(const char *from, const char *to);

/* FNV-1a over n bytes, continuing from h (start with FNV1A_START). */
#define FNV1A_START 1469598103934665603ull
uint64_t fnv1a(uint64_t h, const void *data, size_t n);

/* A growable string. */
struct strbuf {
    char *s;
    size_t len, cap;
};
void sb_add(struct strbuf *b, const char *s);
void sb_addn(struct strbuf *b, const char *s, size_t n);
void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s as the inside of a C string literal. */
void sb_add_c_escaped(struct strbuf *b, const char *s);
/* Appends path as the header name of an #include, which takes no escapes:
 * "path", or <path> where it holds a quote (for an absolute path both forms
 * open the file itself). Returns -1, appending nothing, for a path that
 * neither form can hold (a quote and a '>', a newline). */
int sb_add_header_name(struct strbuf *b, const char *path);

/* The name the running tool's messages start with: the one it was run by
 * (pompc++, pomp-gcc, pomprun, pomp-prelink), or pompcc / pompc++ where that
 * is a compiler's name, a link to pompcc (cc, c++: "cc: error: the compiler
 * is pompcc itself" would name the wrong program). */
const char *tool_name(void);

#endif
