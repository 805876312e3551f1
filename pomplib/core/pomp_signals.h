#ifndef POMP_SIGNALS_H
#define POMP_SIGNALS_H
/* pomp's handlers of SIGINT, SIGTERM, SIGHUP (write the output, then die of
 * the signal) and SIGABRT (say that nothing is written), and the program's
 * view of them (pomp_signals.c). A program sees the dispositions it would see
 * without pomp: libpomp's sigaction, signal, bsd_signal, sysv_signal and
 * sigset answer pomp's handler as the disposition it stands for (the default
 * action, as found), and a program's handler replaces pomp's. Wherever the
 * program leaves (or sets back) the default action, pomp's handler stands. */
#include <signal.h>

/* The C library's sigaction, past libpomp's: pomp's own calls. */
int pomp_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* pomp takes SIG (one of the four) with HANDLER (sa_handler, no flags, empty
 * mask) now where the program left the default action, and again wherever it
 * sets the default action back later. Called once, at initialization. */
void pomp_signal_take(int sig, void (*handler)(int));

/* pomp lets SIG go (a forked child's SIGABRT): its handler, if it stands, gives
 * way to the disposition it stands for, and pomp takes SIG no more. */
void pomp_signal_release(int sig);

/* The default action of SIG, set by pomp's handler before it raises SIG
 * again (async-signal-safe; pomp's handler is not put back). */
void pomp_signal_default(int sig);

#endif
