/* What GCC needs to know before it drops the barrier of a worksharing
 * construct that ends a parallel region (addressable.c): whether the region's
 * statement has variables whose address may be taken. */
#ifndef POMP_ADDRESSABLE_H
#define POMP_ADDRESSABLE_H

#include <clang-c/Index.h>

/* Whether the statement stmt (a parallel construct's) may address a local
 * of the region's outlined function: it declares a variable other than a for
 * loop's scalar one, takes the address of a variable not at file scope, or
 * uses one as an array. Conservative: what it cannot make out counts. */
int may_address_locals(CXCursor stmt);

#endif
