#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

extern char **environ;

void argv_add(struct argv_list *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 32;
        a->v = xrealloc(a->v, a->cap * sizeof *a->v);
    }
    a->v[a->n++] = xstrdup(s);
    a->v[a->n] = NULL;
}

void argv_addv(struct argv_list *a, const char *const *v)
{
    for (; *v; v++)
        argv_add(a, *v);
}

void argv_add_split(struct argv_list *a, const char *text, char sep, const char *empty)
{
    const char seps[2] = {sep, '\0'};
    for (const char *p = text;;) {
        size_t n = strcspn(p, seps);
        char *item = n || !empty ? xasprintf("%.*s", (int)n, p) : xstrdup(empty);
        argv_add(a, item);
        free(item);
        if (!p[n])
            break;
        p += n + 1;
    }
}

void argv_free(struct argv_list *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

/* The child running now, and the termination signal the driver got (0: none):
 * see process_forward_signals. */
static volatile sig_atomic_t running_child, stop_signal;

static void forward(int sig)
{
    stop_signal = sig;
    if (running_child > 0)
        kill((pid_t)running_child, sig);
}

void process_forward_signals(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = forward;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

int process_stop_signal(void) { return stop_signal; }

static int wait_for(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        ;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* say_spawn_error: 0 for a question whose caller says what failed (errno
 * holds why the program could not run), which was said twice */
static int spawn_and_wait(char *const *argv, const char *stdout_to, const char *stderr_to,
                          int verbose, int say_spawn_error)
{
    if (verbose) {
        fprintf(stderr, "%s: running:", tool_name());
        for (char *const *a = argv; *a; a++)
            fprintf(stderr, " %s", *a);
        fputc('\n', stderr);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (stdout_to)
        posix_spawn_file_actions_addopen(&fa, 1, stdout_to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (stderr_to)
        posix_spawn_file_actions_addopen(&fa, 2, stderr_to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    /* a termination signal between the spawn and the note of the child would
     * not reach it: held back until the child is noted */
    sigset_t term, old;
    sigemptyset(&term);
    sigaddset(&term, SIGINT);
    sigaddset(&term, SIGTERM);
    sigaddset(&term, SIGHUP);
    sigaddset(&term, SIGQUIT);
    sigprocmask(SIG_BLOCK, &term, &old);
    /* the child starts with the mask from before: it inherited this one, and a
     * compile under it ran to its end through Ctrl-C and wrote its object */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigmask(&attr, &old);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
    int err = stop_signal ? ECANCELED : posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
    if (err == 0)
        running_child = pid;
    sigprocmask(SIG_SETMASK, &old, NULL);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    if (err == ECANCELED)
        return 128 + stop_signal; /* stopped before: nothing more runs */
    if (err != 0) {
        if (say_spawn_error)
            fprintf(stderr, "%s: error: cannot run '%s': %s\n", tool_name(), argv[0],
                    strerror(err));
        errno = err;
        return -1;
    }
    int rc = wait_for(pid);
    running_child = 0;
    return rc;
}

int run_process(char *const *argv, const char *stdout_to, const char *stderr_to, int verbose)
{
    return spawn_and_wait(argv, stdout_to, stderr_to, verbose, 1);
}

int run_capture(char *const *argv, char **out, char **err)
{
    char tmpl[] = "/tmp/pomp-capture-XXXXXX", err_tmpl[] = "/tmp/pomp-capture-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return -1;
    close(fd);
    if (err && (fd = mkstemp(err_tmpl)) < 0) {
        unlink(tmpl);
        return -1;
    }
    if (err)
        close(fd);
    int rc = spawn_and_wait(argv, tmpl, err ? err_tmpl : "/dev/null", 0, 0);
    int spawn_errno = errno;
    size_t size;
    if (read_file(tmpl, out, &size) != 0 || (err && read_file(err_tmpl, err, &size) != 0))
        rc = -1;
    unlink(tmpl);
    if (err)
        unlink(err_tmpl);
    errno = spawn_errno;
    return rc;
}
