/* A pragma's text split into its parts: the sentinel ("omp" or "pomp"), the
 * directive name ("parallel for"), and the clauses with their raw arguments.
 * The flex scanner (directive_lexer.l) and bison grammar (directive_parser.y)
 * produce the items; directive.c finds the directive name among them. */
#ifndef POMP_DIRECTIVE_H
#define POMP_DIRECTIVE_H

#include <stddef.h>

#define DIRECTIVE_MAX_ITEMS 64

struct directive_item {
    char *word;   /* identifier: a directive word or a clause name */
    char *arg;    /* text between the parentheses that follow it, or NULL */
    int column;   /* 0-based offset of the word in the pragma text */
};

struct directive {
    char *sentinel;                 /* "omp", "pomp" */
    char *name;                     /* "parallel for", "critical", ... */
    char *name_arg;                 /* argument of the directive itself: critical(name) */
    size_t nclauses;
    struct directive_item clauses[DIRECTIVE_MAX_ITEMS];
    /* filled by the parser */
    size_t nitems;
    struct directive_item items[DIRECTIVE_MAX_ITEMS];
    int unknown_directive;          /* well-formed, but not an OpenMP 5.2 directive name */
    int error_column;               /* where parsing failed, -1 if it did not */
    char error[160];
};

/* Parses text (the pragma after "#pragma", continuation lines joined) into d.
 * Returns 0, or -1 with d->error and d->error_column set. */
int directive_parse(const char *text, struct directive *d);
void directive_free(struct directive *d);

/* The clause named name, or NULL. */
const struct directive_item *directive_clause(const struct directive *d, const char *name);

/* Internal: called by the bison grammar. */
int directive_add_item(struct directive *d, char *word, char *arg, int column);

#endif
