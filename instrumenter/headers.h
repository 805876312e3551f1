/* The program's own headers (pomp-instrument --headers): every header of the
 * translation unit that is not a system header and holds an omp or pomp
 * pragma or a call of a lock routine gets an instrumented copy next to the
 * output, and so does every
 * project header on the way to one (its #include must lead to the copy). The
 * #include directives that reach a copy, in the file and in the copies, are
 * pointed at it; a copy's quoted includes are pointed at the absolute path
 * they found, so they still find their neighbours from the copy's directory.
 * A header pomp cannot instrument is copied as it is (its constructs are left
 * to the runtime, with a warning): it never costs the file. */
#ifndef POMP_HEADERS_H
#define POMP_HEADERS_H

#include <stddef.h>

#include "instrument.h"
#include "source.h"

struct header_copies {
    /* the edits of the main file's #include directives that reach a copy */
    struct text_replacement *main_replacements;
    size_t nmain_replacements;
    char **paths;   /* the copies written (absolute), and their include files */
    size_t npaths;
    /* the construct counts of the headers that stay as they are (#include_next,
     * __has_include), for the main file's copy to carry to the link step */
    struct strbuf left_counts;
    /* the headers whose copies settle their own API calls (instrumented
     * there, or left alone and counted there), by libclang's name
     * (region_file_name, as a call's other_real): the main file leaves their
     * calls to the copy */
    char **instrumented;
    size_t ninstrumented;
    /* a header without a copy may make a task a final task does not include
     * (its text names detach, or target and nowait): the main file's include
     * file says so (instrument.c, POMP_Final_waits_may_wait) */
    int final_waits_may_wait;
};

/* Writes the copies for the unit's headers as <out>.h<N>.<header name>.
 * base gives the options of the main file. Returns 0, or -1 if a copy cannot
 * be written (then none is used). */
int headers_instrument(const struct source_unit *u, const struct instrument_options *base,
                       const char *out, struct header_copies *hc);
void header_copies_free(struct header_copies *hc);

#endif
