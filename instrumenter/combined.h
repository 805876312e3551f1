/* Combined constructs split into an outer leaf and the rest ("parallel for" ->
 * "parallel" + "for"), with each clause given to the leaf or leaves it applies
 * to (OpenMP 5.2 §17.2), so the split form means what the combined one did. */
#ifndef POMP_COMBINED_H
#define POMP_COMBINED_H

#include "directive.h"
#include "util.h"

/* The outer leaf and the rest of a combined directive name that pomp splits,
 * or 0 for a name it keeps whole (a leaf, a composite, a target construct). */
int combined_split(const char *name, const char **outer, const char **inner);

/* Distributes d's clauses over outer and inner. The items of od and id are
 * copies (release them with combined_free). With a default clause on the outer
 * leaf, the variables the inner leaf lists in data-sharing clauses are added to
 * shared(...) on the outer one, as the combined construct implies them; with
 * default(none) and a loop-associated inner leaf, the variables of loop_vars
 * (comma-separated, or NULL: the associated loops' variables declared before
 * them) that the outer leaf does not list yet are added to private(...) on it
 * (OpenMP 5.2 §5.1.1: private in the innermost enclosing parallel, teams or
 * task generating construct). */
void combined_distribute(const struct directive *d, const char *outer, const char *inner,
                         const char *loop_vars, struct directive *od, struct directive *id);
void combined_free(struct directive *d);

/* Adds the variables of a list clause ("+: a, b[0:n]" gives a, b) to vars,
 * comma-separated: after the last top-level ':' for reduction-like clauses and
 * allocate, before it for linear and aligned. */
void combined_list_vars(struct strbuf *vars, const struct directive_item *c);
/* Is c a clause whose argument is a list of variables? */
int combined_is_list_clause(const char *word);

/* Appends a clause to a directive built by the caller (word and arg copied). */
void combined_add_clause(struct directive *d, const char *word, const char *arg);

#endif
