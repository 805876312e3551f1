/* The pre-linker's logic (seed 002, Appendix B): find the POMP_Init_* functions
 * that nm lists for the objects and archives of a link, and write the C file
 * whose POMP_Init_Handles calls them all. */
#ifndef POMP_PRELINK_H
#define POMP_PRELINK_H

#include <stddef.h>
#include <stdio.h>

struct prelink_names {
    char **names;
    size_t count;
};

/* Adds the POMP_Init_* symbols defined in the text of `nm -P` output (unique). */
void prelink_collect(struct prelink_names *n, const char *nm_output);
/* Writes the C file with POMP_Init_Handles. Returns 0, or -1 on write error. */
int prelink_write(const struct prelink_names *n, FILE *f);
void prelink_free(struct prelink_names *n);

#endif
