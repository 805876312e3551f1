/* What GCC needs to know before it drops the barrier of a worksharing
 * construct that ends a parallel region (addressable.c): whether the region's
 * statement has variables whose address may be taken. */
#ifndef POMP_ADDRESSABLE_H
#define POMP_ADDRESSABLE_H

#include <clang-c/Index.h>

struct pinned_variables {
    int locals; /* declares a variable other than a for loop's scalar one, or takes the
                   address of a variable not at file scope, or uses one as an array */
};

/* Works out the pinned variables of the statement stmt (a parallel
 * construct's). Conservative: what it cannot make out counts as a local. */
void pinned_variables_of(CXCursor stmt, struct pinned_variables *out);

#endif
