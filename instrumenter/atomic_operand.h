/* The size of an atomic construct's x (atomic_operand.c). */
#ifndef POMP_ATOMIC_OPERAND_H
#define POMP_ATOMIC_OPERAND_H

#include <clang-c/Index.h>

/* The size in bytes of the x of the atomic construct whose statement is stmt
 * (read: the construct has the read clause, where x is the right side), or -1
 * where it cannot be made out (a form not recognised, a type a template
 * parameter decides). */
long long atomic_operand_size(CXCursor stmt, int read);

/* Whether an x of that size is updated under a lock rather than by one
 * instruction: more than 8 bytes or a size no instruction has; unknown (-1)
 * is not. */
int atomic_operand_locked(long long size);

#endif
