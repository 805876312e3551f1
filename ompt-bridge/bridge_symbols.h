/* Naming the bridge's regions after the run by their code addresses. */
#ifndef POMP_BRIDGE_SYMBOLS_H
#define POMP_BRIDGE_SYMBOLS_H

#include <stdint.h>

/* Resolves the code address (codeptr_ra) of every region the bridge created to
 * function and file:line, and rewrites the region's CTC string with them.
 * Runs at finalization, never during the measurement. */
void bridge_symbols_resolve(void);

/* The names of the criticals whose code is in [lo, hi), found now and kept
 * for the relabelling after the run: an object about to be unloaded
 * (dlclose), whose symbols are gone then or another object's are there; all
 * of them (0, UINTPTR_MAX) before LLVM libomp shuts down and frees the
 * records that lead from its locks to their constructs' objects. */
void bridge_symbols_keep_critical_names(uintptr_t lo, uintptr_t hi);

#endif
