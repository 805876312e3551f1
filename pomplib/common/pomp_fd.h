/* The descriptors libpomp opens while the program runs: never at 0, 1 or 2,
 * which a program started with them closed (prog 2>&-, <&-) would take for
 * its own (its fprintf(stderr) went into a trace file, its read(0) read a
 * byte of libunwind's pipe; a probe), and never kept where a program that
 * closes its descriptors (closefrom) gives the number to a file of its own
 * without pomp knowing (docs/output.md). */
#ifndef POMP_FD_H
#define POMP_FD_H

/* fd itself at 3 or above; one at 0-2 moved to the lowest free number from 3
 * (close-on-exec) and the low one closed. -1 (errno set) when fd is -1 or
 * cannot be moved (then closed). */
int pomp_fd_above_std(int fd);

/* The lowest descriptor number from 3 that is free now (what the next open
 * of a library gets, with 0-2 taken), or -1 if none can be told (0-2 all
 * closed). */
int pomp_fd_lowest_free(void);

/* Which of 0, 1, 2 are closed now: bit n for fd n. */
unsigned pomp_fd_std_closed(void);
/* /dev/null on each closed one of 0-2 (bits of pomp_fd_std_closed), so that
 * what a library opens meanwhile gets 3 or above; returns the bits it filled,
 * for pomp_fd_std_release. Not for a running program's threads' sake: at
 * load or set-up only. */
unsigned pomp_fd_std_fill(void);
/* Closes what pomp_fd_std_fill filled: the program sees those closed again. */
void pomp_fd_std_release(unsigned filled);

#endif
