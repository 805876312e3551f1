/* The output directory of the run: $POMP_OUTPUT_DIR, or pomp-<program>-<stamp>-<pid>. */
#ifndef POMP_OUTDIR_H
#define POMP_OUTDIR_H

/* Created on the first call (a trace flush while the program runs, or the
 * finalizer); *err is the errno of a failed mkdir, else 0. */
const char *pomp_output_dir(int *err);

#endif
