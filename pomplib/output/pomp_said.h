#ifndef POMP_SAID_H
#define POMP_SAID_H
/* pomp's messages at the end of a run (the summary, the losses, the trace's
 * files), gathered and written to stderr at once: written line by line, in
 * pieces (stderr is unbuffered), they interleaved with what the program's
 * other threads still printed. */
#include <stdio.h>

struct pomp_said {
    FILE *f;     /* where the messages go: a memory stream, or stderr if none could be made */
    char *text;
    size_t len;
};

FILE *pomp_said_open(struct pomp_said *s);
/* Writes what was said to stderr, after the program's own standard output
 * where both go to one file (a log of `prog > log 2>&1`: stdout's block not
 * yet written, the summary landed in the middle of one of its lines). */
void pomp_said_close(struct pomp_said *s);

#endif
