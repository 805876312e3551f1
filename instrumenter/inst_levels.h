/* Compile-time instrumentation control (seed 002 §3.8):
 *   #pragma pomp inst <group> <level> [file]
 * sets, for one event group, which POMP calls the instrumenter writes, for the
 * construct, statement or function that follows (or, with "file", for the rest
 * of the file). The levels mean what they mean at run time (POMP_<GROUP>): a
 * call is written if its routine records at that level. OPARI2's
 * "#pragma pomp noinstrument" / "instrument" switch every group off and on
 * again for the rest of the file. */
#ifndef POMP_INST_LEVELS_H
#define POMP_INST_LEVELS_H

#include "util.h"

struct rewriter;
struct pragma;
struct directive;
struct inst_levels;

enum inst_group {
    INST_PARALLEL, INST_LOOP, INST_WORKSHARE, INST_SYNC, INST_USER, INST_RUNTIME, INST_TASK,
    INST_TARGET, INST_GROUPS
};

/* The levels of a file are the state of inst_levels_module (modules.h):
 * rw_module_state(w, &inst_levels_module). */

/* "#pragma pomp inst <group> <level> [file]" with the group at d->items[1].
 * Returns 0, or -1 after printing a file:line:col error. */
int inst_levels_directive(struct inst_levels *l, const struct rewriter *w, const struct pragma *p,
                          const struct directive *d);
/* "#pragma pomp noinstrument" (on = 0) and "#pragma pomp instrument" (on = 1). */
void inst_levels_switch(struct inst_levels *l, const struct pragma *p, int on, size_t file_size);

/* Is the group name (case-insensitive) a group? Sets *g. */
int inst_group_parse(const char *name, enum inst_group *g);

/* Does the compile-time level at anchor keep the calls of routine ("User_event",
 * without POMP_)? Routines of no group are always kept. */
int inst_levels_keeps(const struct inst_levels *l, unsigned anchor, const char *routine);

#endif
