#include "process.h"

#include <fcntl.h>
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

void argv_free(struct argv_list *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

static int wait_for(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        ;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int run_process(char *const *argv, const char *stdout_to, const char *stderr_to, int verbose)
{
    if (verbose) {
        fputs("pompcc: running:", stderr);
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
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0) {
        fprintf(stderr, "pompcc: error: cannot run '%s': %s\n", argv[0], strerror(err));
        return -1;
    }
    return wait_for(pid);
}

int run_capture(char *const *argv, char **out)
{
    char tmpl[] = "/tmp/pomp-capture-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return -1;
    close(fd);
    int rc = run_process(argv, tmpl, "/dev/null", 0);
    size_t size;
    if (read_file(tmpl, out, &size) != 0)
        rc = -1;
    unlink(tmpl);
    return rc;
}
