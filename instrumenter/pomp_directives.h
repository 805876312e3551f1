/* #pragma pomp directives (seed 002 §3.6-3.9, OPARI2's C syntax):
 *   inst begin(name) / inst end(name) / inst altend(name)   user region
 *   inst init / inst finalize / inst on / inst off           POMP_Init, ... (§3.6)
 *   inst <group> <level> [file]                              instrumentation levels (§3.8)
 *   userregion start(name [: values]) / stop(...) / event(...) user regions and
 *                                                            events with values (§3.9)
 *   noinstrument / instrument                                OPARI2's switch
 * Each is replaced by its POMP calls on the pragma's own line. */
#ifndef POMP_POMP_DIRECTIVES_H
#define POMP_POMP_DIRECTIVES_H

struct rewriter;
struct pragma;
struct directive;
struct inst_levels;
struct pomp_directives;

struct pomp_directives *pomp_directives_new(struct rewriter *w, struct inst_levels *levels);
/* Returns 0, or -1 after printing a file:line:col error. */
int pomp_directives_handle(struct pomp_directives *pd, const struct pragma *p,
                           const struct directive *d);
/* After the last pragma: user regions left open are errors. */
int pomp_directives_finish(struct pomp_directives *pd);
void pomp_directives_free(struct pomp_directives *pd);

#endif
