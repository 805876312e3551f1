/* Where pomp's messages at exit go: the standard error the program started
 * with. A program that closed its fd 2 and opened a file that took that
 * number had pomp's summary written into its data file (a probe). */
#ifndef POMP_STDERR_H
#define POMP_STDERR_H

/* At load: notes what fd 2 is (or that it is closed), and keeps a duplicate
 * of it where that costs the program nothing (a terminal or a regular file:
 * not a pipe or a socket, whose reader would wait for the end of a stream the
 * program closed). */
void pomp_stderr_note_load(void);

/* Around the output at exit: where fd 2 is no longer what it was at load, it
 * is pointed at the duplicate (or at /dev/null: pomp's messages are then not
 * written, the program's file is left alone) until pomp_stderr_restore. */
struct pomp_stderr_swap {
    int saved; /* the program's fd 2 (-1: none, or not swapped) */
    int swapped;
    int cloexec; /* its close-on-exec flag */
};
void pomp_stderr_swap_in(struct pomp_stderr_swap *s);
void pomp_stderr_restore(struct pomp_stderr_swap *s);

#endif
