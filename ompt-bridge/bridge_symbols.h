/* Naming the bridge's regions after the run by their code addresses. */
#ifndef POMP_BRIDGE_SYMBOLS_H
#define POMP_BRIDGE_SYMBOLS_H

/* Resolves the code address (codeptr_ra) of every region the bridge created to
 * function and file:line, and rewrites the region's CTC string with them.
 * Runs at finalization, never during the measurement. */
void bridge_symbols_resolve(void);

#endif
