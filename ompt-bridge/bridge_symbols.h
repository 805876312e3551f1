/* Naming the bridge's regions after the run by their code addresses. */
#ifndef POMP_BRIDGE_SYMBOLS_H
#define POMP_BRIDGE_SYMBOLS_H

#include <stdint.h>

/* Resolves the code address (codeptr_ra) of every region the bridge created to
 * function and file:line, and rewrites the region's CTC string with them.
 * Runs at finalization, never during the measurement. */
void bridge_symbols_resolve(void);

/* Where a named critical's lock is one LLVM libomp allocated (found through
 * the construct's object, which its record holds), the region keeps the
 * object's address instead, while the runtime's memory still leads to it: its
 * shutdown frees the record. Before the runtime ends, at the program's exit. */
void bridge_symbols_pin_critical_locks(void);

/* The names of the criticals whose code is in [lo, hi), an object about to
 * be unloaded (dlclose), found now and kept for the relabelling after the
 * run, when the object's symbols are gone or another object's are there. */
void bridge_symbols_keep_critical_names(uintptr_t lo, uintptr_t hi);

#endif
