/* Running the tools pomp drives (compiler, nm, pomp-instrument). */
#ifndef POMP_PROCESS_H
#define POMP_PROCESS_H

#include <stddef.h>

/* A growable NULL-terminated argument vector. */
struct argv_list {
    char **v;
    size_t n, cap;
};
void argv_add(struct argv_list *a, const char *s);
void argv_addv(struct argv_list *a, const char *const *v);
void argv_free(struct argv_list *a);
/* Appends the items of text separated by sep (a path list's ':', a -Wl,
 * list's ','), an empty one as `empty` (NULL: kept empty). */
void argv_add_split(struct argv_list *a, const char *text, char sep, const char *empty);

/* For a driver (pompcc): SIGINT, SIGTERM, SIGHUP and SIGQUIT go on to the
 * process run_process runs, and no other one starts after them, so that
 * killing a build stops its compiler; process_stop_signal then says which
 * signal came (0: none), for the driver to end with it once it cleaned up. */
void process_forward_signals(void);
int process_stop_signal(void);

/* Runs argv (PATH lookup); stdout_to / stderr_to: a file to write the stream to,
 * or NULL to inherit. Returns the exit status, 128+signal, or -1 if it could not run. */
int run_process(char *const *argv, const char *stdout_to, const char *stderr_to, int verbose);

/* Runs argv and returns its stdout (malloc'ed) in *out, and its stderr in
 * *err (dropped where err is NULL). -1 (errno set) if it could not run, which
 * it does not say: the caller does. */
int run_capture(char *const *argv, char **out, char **err);

#endif
